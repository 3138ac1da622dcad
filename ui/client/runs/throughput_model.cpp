// SPDX-License-Identifier: GPL-3.0-or-later
#include "throughput_model.hpp"

#include "client/runs/run_data.hpp"
#include "client/wire.hpp"

#include <QList>

#include <algorithm>
#include <limits>

namespace ddplab::ui {

QString ThroughputModel::bandwidthText() const
{
    return QStringLiteral("%1 GB/s").arg(QString::number(bandwidthBytesPerSecond / 1e9, 'g', 3));
}

double ringAllReduceSeconds(int ranks, double bytes, double bandwidthBytesPerSecond)
{
    if (ranks <= 1 || bandwidthBytesPerSecond <= 0)
        return 0.0;
    return 2.0 * double(ranks - 1) / double(ranks) * bytes / bandwidthBytesPerSecond;
}

double modelledSamplesPerSecond(int ranks, int batchPerRank, double computeSecondsPerSample, double gradientBytes,
                                double bandwidthBytesPerSecond)
{
    const double step = double(batchPerRank) * computeSecondsPerSample + ringAllReduceSeconds(ranks, gradientBytes, bandwidthBytesPerSecond);
    return step > 0 ? double(ranks) * double(batchPerRank) / step : std::numeric_limits<double>::quiet_NaN();
}

double computeSecondsPerSample(const RunData& run)
{
    QList<double> compute;
    for (const QPointF& point : run.series(wire(field::kComputeMs)))
        compute.append(point.y());
    const int batch = run.config().value(wire(key::kBatchSize)).toInt();
    if (compute.isEmpty() || batch <= 0)
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(compute.begin(), compute.end());
    return compute.at(compute.size() / 2) / 1000.0 / double(batch);
}

double gradientBytes(const RunData& run)
{
    constexpr double kBytesPerParameter = 4.0;  // float32 gradients
    return run.config().value(wire(field::kParameterCount)).toDouble() * kBytesPerParameter;
}

}  // namespace ddplab::ui
