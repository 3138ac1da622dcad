// SPDX-License-Identifier: GPL-3.0-or-later
#include "summary_events.hpp"

#include "tensorboard/tfrecord.hpp"

#include <cfloat>
#include <cmath>

namespace ddplab::tensorboard {
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
constexpr char kFileVersion[] = "brain.Event:2";
constexpr char kHParamsPlugin[] = "hparams";

ProtoWriter eventAt(double wallTime, int64_t step)
{
    ProtoWriter out;
    out.fixed64(event::kWallTime, wallTime);
    out.varint(event::kStep, uint64_t(step));
    return out;
}

ProtoWriter structValue(const hparams::Value& v)
{
    ProtoWriter out;
    switch (v.kind) {
    case hparams::Value::Kind::Number: out.fixed64(value::kNumber, v.number); break;
    case hparams::Value::Kind::Boolean: out.varint(value::kBool, v.boolean ? 1 : 0); break;
    case hparams::Value::Kind::Text: out.bytes(value::kString, v.text); break;
    }
    return out;
}

int dataTypeOf(const std::vector<hparams::Value>& values)
{
    bool numbers = !values.empty();
    bool booleans = !values.empty();
    for (const hparams::Value& v : values) {
        numbers = numbers && v.kind == hparams::Value::Kind::Number;
        booleans = booleans && v.kind == hparams::Value::Kind::Boolean;
    }
    return numbers ? plugin::kTypeFloat64 : booleans ? plugin::kTypeBool : plugin::kTypeString;
}

std::string pluginData(int which, const ProtoWriter& data)
{
    ProtoWriter out;
    out.varint(plugin::kVersion, kPluginDataVersion);
    out.message(which, data);
    return out.data();
}

}  // namespace

std::string fileVersionEvent(double wallTime)
{
    ProtoWriter out = eventAt(wallTime, 0);
    out.bytes(event::kFileVersion, kFileVersion);
    return out.data();
}

bool overflowsFloat32(double value)
{
    return std::isfinite(value) && std::fabs(value) > double(FLT_MAX);
}

float scalarFloat(double value)
{
    if (overflowsFloat32(value))
        return value > 0 ? FLT_MAX : -FLT_MAX;
    return float(value);
}

std::string scalarsEvent(double wallTime, int64_t step, const std::vector<Scalar>& scalars)
{
    ProtoWriter values;
    for (const Scalar& scalar : scalars) {
        ProtoWriter one;
        one.bytes(summary::kTag, scalar.tag);
        one.fixed32(summary::kSimpleValue, scalarFloat(scalar.value));
        values.message(summary::kValue, one);
    }
    ProtoWriter out = eventAt(wallTime, step);
    out.message(event::kSummary, values);
    return out.data();
}

std::string hparamsEvent(double wallTime, const std::string& tag, const std::string& content)
{
    ProtoWriter pluginDataMessage;
    pluginDataMessage.bytes(summary::kPluginName, kHParamsPlugin);
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
    one.bytes(summary::kTag, tag);
    one.message(summary::kMetadata, metadata);
    one.message(summary::kTensor, nullTensor);
    ProtoWriter values;
    values.message(summary::kValue, one);
    ProtoWriter out = eventAt(wallTime, 0);
    out.message(event::kSummary, values);
    return out.data();
}

namespace hparams {

std::string experimentContent(const std::string& description, double timeCreated, const std::vector<HParam>& hparams,
                              const std::vector<Metric>& metrics)
{
    ProtoWriter experiment;
    experiment.bytes(plugin::kDescription, description);
    experiment.fixed64(plugin::kTimeCreated, timeCreated);
    for (const HParam& hparam : hparams) {
        ProtoWriter info;
        info.bytes(plugin::kHParamName, hparam.name);
        if (!hparam.description.empty())
            info.bytes(plugin::kHParamDescription, hparam.description);
        info.varint(plugin::kHParamType, uint64_t(dataTypeOf(hparam.values)));
        ProtoWriter domain;
        for (const Value& v : hparam.values)
            domain.message(value::kListValues, structValue(v));
        info.message(plugin::kDomainDiscrete, domain);
        info.varint(plugin::kDiffers, hparam.values.size() > 1 ? 1 : 0);
        experiment.message(plugin::kHParamInfos, info);
    }
    for (const Metric& metric : metrics) {
        ProtoWriter name;
        name.bytes(plugin::kMetricTag, metric.tag);
        ProtoWriter info;
        info.message(plugin::kMetricName, name);
        info.bytes(plugin::kMetricDisplayName, metric.displayName);
        info.varint(plugin::kDatasetType, uint64_t(metric.dataset));
        experiment.message(plugin::kMetricInfos, info);
    }
    return pluginData(plugin::kExperiment, experiment);
}

std::string sessionStartContent(const std::vector<std::pair<std::string, Value>>& values, const std::string& groupName,
                                double startTime)
{
    ProtoWriter start;
    for (const auto& [name, v] : values) {
        ProtoWriter entry;
        entry.bytes(plugin::kMapKey, name);
        entry.message(plugin::kMapValue, structValue(v));
        start.message(plugin::kHParams, entry);
    }
    start.bytes(plugin::kGroupName, groupName);
    start.fixed64(plugin::kStartTime, startTime);
    return pluginData(plugin::kSessionStart, start);
}

std::string sessionEndContent(Status status, double endTime)
{
    ProtoWriter end;
    end.varint(plugin::kStatus, uint64_t(status));
    end.fixed64(plugin::kEndTime, endTime);
    return pluginData(plugin::kSessionEnd, end);
}

}  // namespace hparams
}  // namespace ddplab::tensorboard
