// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's speed (issue 28 §3i, Pollux): where its runs happen on the Run-on host, the
// batches per GPU the branch test allows are timed there and the one with the most goodput is
// confirmed; on this computer's CPU, standing in for the GPUs, the times say nothing about them
// and the batch is not chosen by speed (docs/advisor.md, "Goodput").

#include "advisor.hpp"

#include "advice_phases.hpp"
#include "client/runs/run_data.hpp"
#include "client/session/lab_session.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <cmath>

namespace ddplab::ui {

bool Advisor::timesTransfer() const
{
    return m_session.target().isRemote() || m_request.base.device == DeviceKind::Cuda;
}

bool Advisor::planThroughput()
{
    m_advice.goodput.reset();
    if (!timesTransfer())
        return false;
    Goodput goodput;
    goodput.timedOn = QStringLiteral("%1, %2").arg(m_session.target().describe(),
                                                   wire(m_request.base.device == DeviceKind::Cuda ? choice::device::kCuda : choice::device::kCpu));
    goodput.baseBatch = double(m_baseBatch);
    // phi: McCandlish's B_crit over the branches when nothing argues against it (it comes from the
    // loss itself), else the simple noise scale at the base run's end.
    const StepsToTarget& fit = m_advice.stepsFit;
    if (fit.ok && fit.doubts.isEmpty() && fit.fit.bCrit > 0 && std::isfinite(fit.fit.bCrit)) {
        goodput.noiseScale = fit.fit.bCrit;
        goodput.noiseScaleFrom = QStringLiteral("McCandlish's fit over the branch test (B_crit)");
    } else if (!m_advice.noiseScale.isEmpty() && m_advice.noiseScale.last().y() > 0 && std::isfinite(m_advice.noiseScale.last().y())) {
        goodput.noiseScale = m_advice.noiseScale.last().y();
        goodput.noiseScaleFrom = QStringLiteral("B_simple at the base run's end");
    }
    // The branch test measured the efficiency up to its critical batch: a noise scale that puts it
    // lower there (B_simple runs low with BatchNorm and Adam, and on problems with little noise)
    // is raised to what the measurement allows.
    const double floor = noiseScaleFloor(m_advice.criticalBatch, m_advice.branchTolerance, double(m_baseBatch));
    if (floor > goodput.noiseScale) {
        const QString measured = QStringLiteral("the branch test: batch %1 within %2 % of yours at equal samples needs at least this")
                                     .arg(m_advice.criticalBatch)
                                     .arg(qRound(100.0 * m_advice.branchTolerance));
        goodput.noiseScaleFrom = goodput.noiseScale > 0
                                     ? measured + QStringLiteral("; %1 gave %2").arg(goodput.noiseScaleFrom).arg(goodput.noiseScale, 0, 'g', 3)
                                     : measured;
        goodput.noiseScale = floor;
    }
    const QList<qint64> batches = goodputCandidates(m_chosenBatchPerGpu, m_request.gpus, m_baseBatch, kGoodputCandidates);
    if (!(goodput.noiseScale > 0) || batches.size() < 2) {
        const Goodput verdict = goodputOf({}, m_request.gpus, goodput.baseBatch, goodput.noiseScale);
        goodput.verdict = batches.size() < 2 ? QStringLiteral("only %1 per GPU keeps the batch within what the branch test measured: nothing to "
                                                              "choose between by speed")
                                                   .arg(m_chosenBatchPerGpu)
                                             : verdict.verdict;
        m_advice.goodput = goodput;
        return false;
    }
    m_advice.goodput = goodput;
    // Each batch per GPU on the ranks the other runs use, one micro-batch each: the pace of a
    // step of that batch there, its first steps left out.
    const int ranks = emulated(m_request.gpus, m_chosenBatchPerGpu, m_baseLr, m_request.base.seed).worldSize;
    QList<PlannedRun> runs;
    for (qint64 batch : batches) {
        PlannedRun run{advice_phase::kThroughput, ranks, batch, m_baseLr, m_request.base.seed, emulated(ranks, batch, m_baseLr, m_request.base.seed)};
        run.config.maxSteps = kThroughputSteps;
        run.config.epochs = 1 + kThroughputSteps / std::max<int64_t>(1, stepsPerEpoch(run.config));
        run.config.evalEvery = 0;
        run.config.schedule = ScheduleKind::Constant;
        runs.append(run);
    }
    m_runsInPlan += int(runs.size());
    runPhase(Phase::Throughput, runs);
    return true;
}

void Advisor::chooseByGoodput()
{
    QList<GoodputPoint> timed;
    for (const QPair<PlannedRun, QSharedPointer<RunData>>& done : m_done) {
        if (done.first.phase != advice_phase::kThroughput)
            continue;
        const double perSecond = steadySamplesPerSecond(done.second->series(wire(protocol::field::kSamplesPerSec)), kThroughputWarmupSteps);
        timed.append({done.first.batch, perSecond / double(done.first.gpus)});
    }
    Goodput goodput = goodputOf(timed, m_request.gpus, double(m_baseBatch), m_advice.goodput->noiseScale);
    goodput.timedOn = m_advice.goodput->timedOn;
    goodput.noiseScaleFrom = m_advice.goodput->noiseScaleFrom;
    m_advice.goodput = goodput;
    if (goodput.chosen)
        m_chosenBatchPerGpu = goodput.bestBatchPerGpu;
    emit logMessage(QStringLiteral("Advisor: timed on %1: %2").arg(goodput.timedOn, goodput.verdict), false);
    planLadder();
}

}  // namespace ddplab::ui
