// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_inspection.hpp"

#include "client/wire.hpp"

#include <QJsonArray>
#include <QLocale>
#include <QStringList>

#include <utility>

#include <algorithm>

namespace ddplab::ui {
namespace {

namespace inspection = ddplab::protocol::inspection;

QString shapeText(const QJsonValue& shape)
{
    QStringList sizes;
    for (const QJsonValue& size : shape.toArray())
        sizes.append(QString::number(size.toInteger()));
    return QLatin1Char('[') + sizes.join(QStringLiteral(", ")) + QLatin1Char(']');
}

// A sample's shape: the data set's without its first (sample) dimension.
QString sampleShape(const QJsonValue& shape)
{
    QJsonArray sizes = shape.toArray();
    if (!sizes.isEmpty())
        sizes.removeFirst();
    return sizes.isEmpty() ? QStringLiteral("scalar") : shapeText(sizes);
}

// "68.4 MiB", "304 KiB": a size as a person reads it.
QString sizeText(double bytes)
{
    const QLocale locale;
    if (bytes < 1024.0 * 1024.0)
        return QObject::tr("%1 KiB").arg(locale.toString(bytes / 1024.0, 'f', bytes < 10.0 * 1024 ? 1 : 0));
    return QObject::tr("%1 MiB").arg(locale.toString(bytes / (1024.0 * 1024.0), 'f', 1));
}

}  // namespace

std::optional<ModelInspection> ModelInspection::fromJson(const QJsonObject& event)
{
    if (event.value(wire(field::kType)).toString() != wire(type::kInspection))
        return std::nullopt;
    const QLocale locale;
    ModelInspection result;
    result.parameterCount = event.value(wire(field::kParameterCount)).toInteger();
    const qint64 tensors = event.value(wire(field::kParameterTensors)).toInteger();
    const qint64 buffers = event.value(wire(inspection::kBuffers)).toArray().size();
    result.modelText = QObject::tr("%1 parameters in %2 tensors").arg(locale.toString(result.parameterCount)).arg(locale.toString(tensors));
    if (buffers > 0)
        result.modelText += QObject::tr(" · %1 buffers (broadcast from rank 0)").arg(buffers);
    if (const qint64 frozen = event.value(wire(inspection::kFrozenParameterCount)).toInteger(); frozen > 0)
        result.modelText += QObject::tr(" · %1 frozen").arg(locale.toString(frozen));
    if (const QJsonValue layers = event.value(wire(inspection::kLayers)); layers.isObject()) {
        result.layersKnown = true;
        result.batchNormLayers = layers.toObject().value(wire(inspection::kBatchNorm)).toInteger();
        result.dropoutLayers = layers.toObject().value(wire(inspection::kDropout)).toInteger();
        result.layerNormLayers = layers.toObject().value(wire(inspection::kLayerNorm)).toInteger();
        QStringList kinds;
        for (const auto& [count, name] : {std::pair{result.batchNormLayers, "BatchNorm"}, std::pair{result.dropoutLayers, "Dropout"},
                                          std::pair{result.layerNormLayers, "LayerNorm"}})
            if (count > 0)
                kinds.append(QStringLiteral("%1 %2").arg(count).arg(QLatin1String(name)));
        if (!kinds.isEmpty())
            result.modelText += QObject::tr(" · %1").arg(kinds.join(QStringLiteral(", ")));
    }

    const QJsonObject train = event.value(wire(key::kTrainData)).toObject();
    result.trainSamples = train.value(wire(field::kSamples)).toInteger();
    result.dataText = QObject::tr("%1 samples of %2 %3 → %4 %5")
                          .arg(locale.toString(result.trainSamples), sampleShape(train.value(wire(inspection::kInputsShape))),
                               train.value(wire(inspection::kInputsDtype)).toString(),
                               sampleShape(train.value(wire(inspection::kTargetsShape))),
                               train.value(wire(inspection::kTargetsDtype)).toString());
    const QJsonValue val = event.value(wire(key::kValData));
    result.valSamples = val.toObject().value(wire(field::kSamples)).toInteger();
    if (val.isObject())
        result.dataText += QObject::tr(" · validation %1").arg(locale.toString(val.toObject().value(wire(field::kSamples)).toInteger()));

    const QJsonObject first = event.value(wire(inspection::kFirstBatch)).toObject();
    result.outputText = QObject::tr("%1 %2: %3 · first loss %4")
                            .arg(shapeText(first.value(wire(inspection::kOutputShape))),
                                 first.value(wire(inspection::kOutputDtype)).toString(),
                                 event.value(wire(inspection::kLossFit)).toString())
                            .arg(first.value(wire(field::kLoss)).toDouble(), 0, 'g', 4);

    const QJsonObject memory = event.value(wire(inspection::kMemory)).toObject();
    const auto part = [&](const char* name) { return sizeText(memory.value(wire(name)).toDouble()); };
    result.memoryText = QObject::tr("≈ %1: parameters %2, buffers %3, gradients %4, optimizer %5, one step %6, process %7")
                            .arg(part(inspection::kPerRankBytes), part(inspection::kParameterBytes), part(inspection::kBufferBytes),
                                 part(inspection::kGradientBytes), part(inspection::kOptimizerBytes),
                                 part(inspection::kStepBytes), part(inspection::kProcessBytes));
    result.stepBytes = memory.value(wire(inspection::kStepBytes)).toInteger();
    result.fixedBytes = memory.value(wire(inspection::kPerRankBytes)).toInteger() - result.stepBytes;
    result.stepSamples = first.value(wire(field::kSamples)).toInteger();
    result.stepSeconds = std::max(0.0, first.value(wire(inspection::kStepSeconds)).toDouble());
    // An engine before the takes were listed timed one.
    const QJsonArray takes = first.value(wire(inspection::kStepTakes)).toArray();
    result.stepTakesSeconds = takes.isEmpty() ? result.stepSeconds : 0.0;
    for (const QJsonValue& take : takes)
        result.stepTakesSeconds += std::max(0.0, take.toDouble());
    result.stepCpuSeconds = std::max(0.0, first.value(wire(inspection::kStepCpuSeconds)).toDouble());
    const double data = memory.value(wire(inspection::kDataBytes)).toDouble();
    result.memoryText += memory.value(wire(inspection::kDataShared)).toBool()
                             ? QObject::tr("; data %1 once for all ranks").arg(sizeText(data))
                             : QObject::tr("; data %1").arg(sizeText(data));
    return result;
}

}  // namespace ddplab::ui
