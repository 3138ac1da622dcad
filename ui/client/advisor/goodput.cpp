// SPDX-License-Identifier: GPL-3.0-or-later
#include "goodput.hpp"

#include "client/wire.hpp"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// Three digits, and samples/s whole with thousands grouped ("104,171", not "1.04e+05").
QString figure(double value)
{
    return std::abs(value) >= 1000.0 ? QStringLiteral("%L1").arg(qRound64(value)) : QString::number(value, 'g', 3);
}

}  // namespace

QList<qint64> goodputCandidates(qint64 largest, int gpus, qint64 baseBatch, int most)
{
    QList<qint64> batches;
    for (qint64 b = largest; b >= 1 && qint64(gpus) * b >= baseBatch && batches.size() < most; b /= 2)
        batches.prepend(b);
    return batches;
}

Goodput goodputOf(const QList<GoodputPoint>& timed, int gpus, double baseBatch, double noiseScale)
{
    Goodput g;
    g.noiseScale = noiseScale;
    g.baseBatch = baseBatch;
    for (GoodputPoint point : timed) {
        if (!(point.samplesPerSecondPerGpu > 0))
            continue;
        point.effectiveBatch = double(gpus) * double(point.batchPerGpu);
        point.throughput = double(gpus) * point.samplesPerSecondPerGpu;
        point.efficiency = noiseScale > 0 ? (noiseScale + baseBatch) / (noiseScale + point.effectiveBatch) : 0.0;
        point.goodput = point.throughput * point.efficiency;
        g.points.append(point);
    }
    std::sort(g.points.begin(), g.points.end(), [](const GoodputPoint& x, const GoodputPoint& y) { return x.batchPerGpu < y.batchPerGpu; });
    if (!(noiseScale > 0) || !std::isfinite(noiseScale)) {
        g.verdict = QStringLiteral("no noise scale was measured, so the samples a batch needs are not known: the batch per GPU was not chosen by speed");
        return g;
    }
    if (g.points.size() < 2) {
        g.verdict = QStringLiteral("fewer than two batches per GPU were timed: nothing to choose between by speed");
        return g;
    }
    const auto best = std::max_element(g.points.begin(), g.points.end(), [](const GoodputPoint& x, const GoodputPoint& y) { return x.goodput < y.goodput; });
    g.chosen = true;
    g.bestBatchPerGpu = best->batchPerGpu;
    QStringList others;
    for (const GoodputPoint& point : g.points)
        if (point.batchPerGpu != best->batchPerGpu)
            others.append(QStringLiteral("%1 per GPU %2").arg(point.batchPerGpu).arg(figure(point.goodput)));
    g.verdict = QStringLiteral("%1 per GPU has the most goodput: %2 GPUs train %3 samples/s, at an efficiency of %4 against your batch of %5 "
                               "(noise scale %6), %7 of your samples' worth a second (%8)")
                    .arg(best->batchPerGpu)
                    .arg(gpus)
                    .arg(figure(best->throughput), figure(best->efficiency), figure(baseBatch), figure(noiseScale), figure(best->goodput),
                         others.join(QStringLiteral(", ")));
    return g;
}

double steadySamplesPerSecond(const QList<QPointF>& perStep, int warmupSteps)
{
    QList<double> values;
    for (const QPointF& point : perStep)
        if (point.x() > warmupSteps && std::isfinite(point.y()) && point.y() > 0)
            values.append(point.y());
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const qsizetype middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

double noiseScaleFloor(double criticalBatch, double tolerance, double baseBatch)
{
    if (!(tolerance > 0) || !std::isfinite(criticalBatch))
        return 0.0;
    return std::max(0.0, (criticalBatch - (1.0 + tolerance) * baseBatch) / tolerance);
}

QJsonObject goodputJson(const Goodput& g)
{
    QJsonArray points;
    for (const GoodputPoint& point : g.points)
        points.append(QJsonObject{{QStringLiteral("batch_per_gpu"), point.batchPerGpu},
                                  {QStringLiteral("samples_per_sec_per_gpu"), point.samplesPerSecondPerGpu},
                                  {wire(protocol::field::kEffectiveBatch), point.effectiveBatch},
                                  {QStringLiteral("throughput"), point.throughput},
                                  {QStringLiteral("efficiency"), point.efficiency},
                                  {QStringLiteral("goodput"), point.goodput}});
    return QJsonObject{{QStringLiteral("chosen"), g.chosen},
                       {QStringLiteral("timed_on"), g.timedOn},
                       {wire(protocol::field::kNoiseScale), g.noiseScale},
                       {QStringLiteral("noise_scale_from"), g.noiseScaleFrom},
                       {QStringLiteral("base_batch"), g.baseBatch},
                       {QStringLiteral("best_batch_per_gpu"), g.bestBatchPerGpu},
                       {wire(protocol::field::kPoints), points},
                       {QStringLiteral("verdict"), g.verdict}};
}

std::optional<Goodput> goodputFromJson(const QJsonValue& value)
{
    if (!value.isObject())
        return std::nullopt;
    const QJsonObject json = value.toObject();
    Goodput g;
    g.chosen = json.value(QStringLiteral("chosen")).toBool();
    g.timedOn = json.value(QStringLiteral("timed_on")).toString();
    g.noiseScale = json.value(wire(protocol::field::kNoiseScale)).toDouble();
    g.noiseScaleFrom = json.value(QStringLiteral("noise_scale_from")).toString();
    g.baseBatch = json.value(QStringLiteral("base_batch")).toDouble();
    g.bestBatchPerGpu = json.value(QStringLiteral("best_batch_per_gpu")).toInteger();
    g.verdict = json.value(QStringLiteral("verdict")).toString();
    for (const QJsonValue& entry : json.value(wire(protocol::field::kPoints)).toArray()) {
        const QJsonObject point = entry.toObject();
        g.points.append({point.value(QStringLiteral("batch_per_gpu")).toInteger(), point.value(QStringLiteral("samples_per_sec_per_gpu")).toDouble(),
                         point.value(wire(protocol::field::kEffectiveBatch)).toDouble(), point.value(QStringLiteral("throughput")).toDouble(),
                         point.value(QStringLiteral("efficiency")).toDouble(), point.value(QStringLiteral("goodput")).toDouble()});
    }
    return g;
}

}  // namespace ddplab::ui
