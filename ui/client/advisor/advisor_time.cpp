// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's time: what its runs cost at the cost measured on the base run (run_cost.hpp),
// how far the advice is and how long it has left (issue 28 §4: a progress bar with what is
// measured now and a time left right within 2x).

#include "advisor.hpp"

#include "client/session/lab_session.hpp"
#include "core/derived.hpp"

#include <algorithm>

namespace ddplab::ui {

QString Advisor::progressText() const
{
    switch (m_phase) {
    case Phase::Idle:
        return QStringLiteral("not started");
    case Phase::Base:
        return QStringLiteral("measuring the base run (your settings on %1)").arg(gpuCountText(m_baseGpus));
    case Phase::Branches:
        return QStringLiteral("range test and branch test from the base run's checkpoint");
    case Phase::Throughput:
        return QStringLiteral("timing each batch per GPU on %1, for goodput").arg(m_session.target().describe());
    case Phase::Confirmation:
        return QStringLiteral("confirming the LR at %1 GPUs × %2").arg(m_request.gpus).arg(m_chosenBatchPerGpu);
    case Phase::Extension:
        return QStringLiteral("extending the LR ladder past its edge");
    case Phase::Warmup:
        return QStringLiteral("the warmup arm: the best LRs again with a warmup from your LR (Goyal et al.)");
    case Phase::Done:
        return QStringLiteral("done");
    }
    return {};
}

int Advisor::percent() const
{
    return m_runsInPlan > 0 ? std::min(100, 100 * m_runsFinished / m_runsInPlan) : 0;
}

double Advisor::plannedSeconds(const PlannedRun& run) const
{
    const qint64 steps = run.config.lrRangeTest ? kRangeTestSteps : run.config.maxSteps - (run.config.resumeFrom.empty() ? 0 : m_checkpointStep);
    // Measured every evalEvery steps and at the end (0: at epoch ends, about once for these runs).
    const qint64 every = evalInterval(run.config);
    const qint64 evaluations = 1 + (every > 0 ? std::max<qint64>(0, steps) / every : 0);
    return m_cost.seconds(double(std::max<qint64>(0, steps)) * double(run.gpus) * double(run.batch), double(evaluations));
}

double Advisor::secondsLeft() const
{
    if (!m_cost.isMeasured() || !isRunning())
        return -1;
    // The runs of this phase not yet finished (the one running counted whole), from the base
    // run's measured seconds per sample and per run.
    double left = 0.0;
    for (qsizetype i = std::max(0, m_session.currentIndex()); i < m_planned.size(); ++i)
        left += plannedSeconds(m_planned[i]);
    // During the branch test the confirmation is still to come: its ladder over the planned
    // samples, or what the budget leaves it (its horizon is cut to fit).
    if (m_phase == Phase::Branches) {
        const double budgetLeft = std::max(0.0, m_request.budgetSeconds - elapsedMs() / 1000.0 - left);
        const double planned = kLadder * kSeeds * m_cost.seconds(2.0 * m_advice.plannedSamples, kFewestEvaluations + 1);
        left += std::min(planned, std::max(budgetLeft, kLadder * kSeeds * m_cost.perRun()));
    }
    // During the confirmation, the warmup arm to come when the ladder is well above the base's
    // LR (its runs are the confirmation's length).
    if ((m_phase == Phase::Confirmation || m_phase == Phase::Extension) && !m_planned.isEmpty()) {
        const double run = plannedSeconds(m_planned.front());
        if (m_planned.front().lr >= kWarmupRunsTrigger * m_baseLr / 2.0)
            left += kWarmupLrs * kSeeds * run;
        // The extensions to come: when the branch test's best LRs sat at their brackets' edges the
        // ladder is likely to walk as far as it may; else once at most.
        const int extensions = m_branchEdges ? kMostExtensions - m_extensions : (m_phase == Phase::Confirmation ? 1 : 0);
        left += std::max(0, extensions) * 2 * kSeeds * run;
    }
    return left * m_timeScale;
}

}  // namespace ddplab::ui
