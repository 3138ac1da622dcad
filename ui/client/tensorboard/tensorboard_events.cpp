// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensorboard_events.hpp"

#include "client/tensorboard/tensorboard_records.hpp"

namespace ddplab::ui {
namespace {

// event.proto: Event
namespace event {
constexpr int kWallTime = 1;
constexpr int kStep = 2;
constexpr int kFileVersion = 3;
constexpr int kSummary = 5;
}  // namespace event
// summary.proto: Summary, Summary.Value, SummaryMetadata(.PluginData)
namespace summary {
constexpr int kValue = 1;
constexpr int kTag = 1;
constexpr int kSimpleValue = 2;
constexpr int kTensor = 8;
constexpr int kMetadata = 9;
constexpr int kPluginData = 1;
constexpr int kPluginName = 1;
constexpr int kContent = 2;
}  // namespace summary
// tensor.proto: TensorProto{dtype 1, tensor_shape 2}; tensor_shape.proto: {dim 2: {size 1}}
namespace tensor {
constexpr int kDtype = 1;
constexpr int kShape = 2;
constexpr int kDim = 2;
constexpr int kDimSize = 1;
constexpr int kFloat = 1;  // types.proto: DT_FLOAT
}  // namespace tensor
// google/protobuf/struct.proto: Value, ListValue
namespace value {
constexpr int kNumber = 2;
constexpr int kString = 3;
constexpr int kBool = 4;
constexpr int kListValues = 1;
}  // namespace value
// plugin_data.proto and api.proto
namespace plugin {
constexpr int kVersion = 1;
constexpr int kExperiment = 2;
constexpr int kSessionStart = 3;
constexpr int kSessionEnd = 4;
// Experiment
constexpr int kDescription = 1;
constexpr int kTimeCreated = 3;
constexpr int kHParamInfos = 4;
constexpr int kMetricInfos = 5;
// HParamInfo
constexpr int kHParamName = 1;
constexpr int kHParamDescription = 3;
constexpr int kHParamType = 4;
constexpr int kDomainDiscrete = 5;
constexpr int kDiffers = 7;
// MetricInfo{name 1: MetricName{group 1, tag 2}, display_name 3, dataset_type 5}
constexpr int kMetricName = 1;
constexpr int kMetricTag = 2;
constexpr int kMetricDisplayName = 3;
constexpr int kDatasetType = 5;
// SessionStartInfo{hparams 1 (map: entry{key 1, value 2}), group_name 4, start_time_secs 5}
constexpr int kHParams = 1;
constexpr int kMapKey = 1;
constexpr int kMapValue = 2;
constexpr int kGroupName = 4;
constexpr int kStartTime = 5;
// SessionEndInfo{status 1, end_time_secs 2}
constexpr int kStatus = 1;
constexpr int kEndTime = 2;
// DataType
constexpr int kTypeString = 1;
constexpr int kTypeBool = 2;
constexpr int kTypeFloat64 = 3;
}  // namespace plugin

constexpr int kPluginDataVersion = 0;  // the HParams plugin reads version 0 only
const QString kFileVersion = QStringLiteral("brain.Event:2");
const QString kHParamsPlugin = QStringLiteral("hparams");

ProtoWriter eventAt(double wallTime, qint64 step)
{
    ProtoWriter out;
    out.fixed64(event::kWallTime, wallTime);
    out.varint(event::kStep, quint64(step));
    return out;
}

// A google.protobuf.Value: a number, a string or a boolean (an object or array as its JSON text).
ProtoWriter structValue(const QJsonValue& json)
{
    ProtoWriter out;
    if (json.isDouble())
        out.fixed64(value::kNumber, json.toDouble());
    else if (json.isBool())
        out.varint(value::kBool, json.toBool() ? 1 : 0);
    else
        out.string(value::kString, json.isString() ? json.toString() : QString());
    return out;
}

int dataTypeOf(const QList<QJsonValue>& values)
{
    bool numbers = !values.isEmpty();
    bool booleans = !values.isEmpty();
    for (const QJsonValue& v : values) {
        numbers = numbers && v.isDouble();
        booleans = booleans && v.isBool();
    }
    return numbers ? plugin::kTypeFloat64 : booleans ? plugin::kTypeBool : plugin::kTypeString;
}

QByteArray pluginData(int which, const ProtoWriter& data)
{
    ProtoWriter out;
    out.varint(plugin::kVersion, kPluginDataVersion);
    out.message(which, data);
    return out.data();
}

}  // namespace

QByteArray fileVersionEvent(double wallTime)
{
    ProtoWriter out = eventAt(wallTime, 0);
    out.string(event::kFileVersion, kFileVersion);
    return out.data();
}

QByteArray scalarsEvent(double wallTime, qint64 step, const QList<TensorBoardScalar>& scalars)
{
    ProtoWriter values;
    for (const TensorBoardScalar& scalar : scalars) {
        ProtoWriter one;
        one.string(summary::kTag, scalar.tag);
        one.fixed32(summary::kSimpleValue, float(scalar.value));
        values.message(summary::kValue, one);
    }
    ProtoWriter out = eventAt(wallTime, step);
    out.message(event::kSummary, values);
    return out.data();
}

QByteArray hparamsEvent(double wallTime, const QString& tag, const QByteArray& content)
{
    ProtoWriter pluginDataMessage;
    pluginDataMessage.string(summary::kPluginName, kHParamsPlugin);
    pluginDataMessage.bytes(summary::kContent, content);
    ProtoWriter metadata;
    metadata.message(summary::kPluginData, pluginDataMessage);
    // An empty float tensor of shape [0], as tensorboard.plugins.hparams.metadata.NULL_TENSOR.
    ProtoWriter dim;
    dim.varint(tensor::kDimSize, 0);
    ProtoWriter shape;
    shape.message(tensor::kDim, dim);
    ProtoWriter nullTensor;
    nullTensor.varint(tensor::kDtype, tensor::kFloat);
    nullTensor.message(tensor::kShape, shape);

    ProtoWriter one;
    one.string(summary::kTag, tag);
    one.message(summary::kMetadata, metadata);
    one.message(summary::kTensor, nullTensor);
    ProtoWriter values;
    values.message(summary::kValue, one);
    ProtoWriter out = eventAt(wallTime, 0);
    out.message(event::kSummary, values);
    return out.data();
}

namespace hparams {

QByteArray experimentContent(const QString& description, double timeCreated, const QList<HParam>& hparams,
                             const QList<Metric>& metrics)
{
    ProtoWriter experiment;
    experiment.string(plugin::kDescription, description);
    experiment.fixed64(plugin::kTimeCreated, timeCreated);
    for (const HParam& hparam : hparams) {
        ProtoWriter info;
        info.string(plugin::kHParamName, hparam.name);
        if (!hparam.description.isEmpty())
            info.string(plugin::kHParamDescription, hparam.description);
        info.varint(plugin::kHParamType, quint64(dataTypeOf(hparam.values)));
        ProtoWriter domain;
        for (const QJsonValue& v : hparam.values)
            domain.message(value::kListValues, structValue(v));
        info.message(plugin::kDomainDiscrete, domain);
        info.varint(plugin::kDiffers, hparam.values.size() > 1 ? 1 : 0);
        experiment.message(plugin::kHParamInfos, info);
    }
    for (const Metric& metric : metrics) {
        ProtoWriter name;
        name.string(plugin::kMetricTag, metric.tag);
        ProtoWriter info;
        info.message(plugin::kMetricName, name);
        info.string(plugin::kMetricDisplayName, metric.displayName);
        info.varint(plugin::kDatasetType, quint64(metric.dataset));
        experiment.message(plugin::kMetricInfos, info);
    }
    return pluginData(plugin::kExperiment, experiment);
}

QByteArray sessionStartContent(const QJsonObject& values, const QString& groupName, double startTime)
{
    ProtoWriter start;
    for (auto it = values.constBegin(); it != values.constEnd(); ++it) {
        ProtoWriter entry;
        entry.string(plugin::kMapKey, it.key());
        entry.message(plugin::kMapValue, structValue(it.value()));
        start.message(plugin::kHParams, entry);
    }
    start.string(plugin::kGroupName, groupName);
    start.fixed64(plugin::kStartTime, startTime);
    return pluginData(plugin::kSessionStart, start);
}

QByteArray sessionEndContent(Status status, double endTime)
{
    ProtoWriter end;
    end.varint(plugin::kStatus, quint64(status));
    end.fixed64(plugin::kEndTime, endTime);
    return pluginData(plugin::kSessionEnd, end);
}

}  // namespace hparams
}  // namespace ddplab::ui
