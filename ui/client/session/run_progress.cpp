// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_progress.hpp"

#include "client/runs/run_data.hpp"
#include "client/wire.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {

QString formatDuration(qint64 seconds)
{
    seconds = std::max<qint64>(0, seconds);
    const qint64 hours = seconds / 3600;
    const qint64 minutes = (seconds % 3600) / 60;
    const qint64 rest = seconds % 60;
    if (hours > 0)
        return QStringLiteral("%1:%2:%3").arg(hours).arg(minutes, 2, 10, QLatin1Char('0')).arg(rest, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(minutes).arg(rest, 2, 10, QLatin1Char('0'));
}

double recentThroughput(const RunData& run)
{
    constexpr qsizetype kSteps = 20;
    const QList<QPointF>& throughput = run.series(wire(field::kSamplesPerSec));
    const qsizetype window = std::min<qsizetype>(throughput.size(), kSteps);
    if (window == 0)
        return 0.0;
    double sum = 0;
    for (qsizetype i = throughput.size() - window; i < throughput.size(); ++i)
        sum += throughput.at(i).y();
    return sum / double(window);
}

RunProgress describeProgress(const RunData& run, qint64 msSinceFirstStep)
{
    RunProgress progress;
    const qint64 total = run.plannedSteps();
    const qint64 done = run.lastStep();
    if (run.stepCount() == 0) {
        progress.text = run.config().isEmpty() ? QObject::tr("starting the ranks…") : QObject::tr("first step…");
        return progress;
    }
    progress.text = total > 0 ? QObject::tr("step %L1 / %L2").arg(done).arg(total) : QObject::tr("step %L1").arg(done);
    const qint64 epochs = run.epochs();
    if (epochs > 0)
        progress.text += QObject::tr(" · epoch %1 / %2").arg(run.lastEpoch() + 1).arg(epochs);
    if (total > 0) {
        progress.percent = int(std::clamp<double>(100.0 * double(done) / double(total), 0.0, 100.0));
        // The pace since the first step (start-up excluded) over the steps still to come.
        const qint64 intervals = run.stepCount() - 1;
        if (intervals > 0 && msSinceFirstStep > 0 && done < total) {
            const double secondsPerStep = msSinceFirstStep / 1000.0 / double(intervals);
            progress.text += QObject::tr(" · %1 left").arg(formatDuration(qint64(std::ceil(secondsPerStep * double(total - done)))));
        }
    }
    return progress;
}

}  // namespace ddplab::ui
