// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_time.hpp"

#include "core/derived.hpp"

#include <algorithm>

namespace ddplab::ui {
namespace {

constexpr double kFewestScale = 0.25;  // a phase's time against its prediction, as later ones are scaled
constexpr double kMostScale = 4.0;

}  // namespace

void AdviceTime::setCost(const RunCost& cost, qint64 checkpointStep)
{
    m_cost = cost;
    m_checkpointStep = checkpointStep;
    m_scale = 1.0;
}

double AdviceTime::runSeconds(const PlannedRun& run) const
{
    const qint64 steps = run.config.lrRangeTest ? kRangeTestSteps : run.config.maxSteps - (run.config.resumeFrom.empty() ? 0 : m_checkpointStep);
    // Measured every evalEvery steps and at the end (0: at epoch ends, about once for these runs).
    const qint64 every = evalInterval(run.config);
    const qint64 evaluations = 1 + (every > 0 ? std::max<qint64>(0, steps) / every : 0);
    return m_cost.seconds(double(std::max<qint64>(0, steps)) * double(run.gpus) * double(run.batch), double(evaluations));
}

double AdviceTime::runsSeconds(const QList<PlannedRun>& runs) const
{
    double seconds = 0.0;
    for (const PlannedRun& run : runs)
        seconds += runSeconds(run);
    return seconds;
}

void AdviceTime::calibrate(const QList<PlannedRun>& runs, double seconds, double engineStart)
{
    const double predicted = runsSeconds(runs);
    const double ran = seconds - std::clamp(engineStart, 0.0, seconds);
    if (runs.size() > 1 && predicted > 0 && ran > 0)
        m_scale = std::clamp(ran / predicted, kFewestScale, kMostScale);
}

double AdviceTime::secondsLeft(const QList<PlannedRun>& runs, double later) const
{
    return (runsSeconds(runs) + later) * m_scale;
}

int percentDone(double elapsed, double whole)
{
    return whole > 0 ? std::clamp(int(100.0 * elapsed / whole), 0, 99) : 0;
}

}  // namespace ddplab::ui
