// SPDX-License-Identifier: GPL-3.0-or-later
// The advisor's plan: what the branch test and the confirmation run, sized to the time the
// budget leaves at the cost measured on the base run (docs/advisor.md, "What it measures, in
// order").

#include "advisor.hpp"

#include "advice_phases.hpp"
#include "core/derived.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

constexpr qint64 kLargestBranchSteps = 50;  // Merrill et al.: the largest branch makes at least this many steps
constexpr qint64 kFewestBranchSteps = 20;   // below this a branch says nothing
constexpr qint64 kFewestConfirmationSteps = 20;
constexpr double kBranchShare = 0.5;        // of the time left after the base run, the branch phase's at most
constexpr qint64 kBranchEvaluations = 16;  // noise-free measurements along each branch
constexpr qint64 kConfirmationEvaluations = 20;

}  // namespace

void Advisor::planBranches()
{
    const ddplab::Config& base = m_request.base;
    const qint64 perGpu = m_request.maxBatchPerGpu > 0 ? std::min<qint64>(base.batchSize, m_request.maxBatchPerGpu) : base.batchSize;
    // The branch batches: k x the base batch, in GPUs of the base's batch per GPU, k = 1, 2, 4, ...
    // up to N GPUs; and once they reach N GPUs, N GPUs at twice and four times that batch per GPU
    // within the most batch per GPU (a larger batch per GPU changes a BatchNorm batch's
    // statistics, so it is a candidate only where a branch, emulated exactly, measured it).
    QList<BranchBatch> batches;
    for (qint64 k = 1; qint64(m_baseGpus) * k * perGpu <= std::max(qint64(m_request.gpus) * perGpu, m_baseBatch); k *= 2)
        batches.append({int(m_baseGpus * k), perGpu});
    QList<BranchBatch> wider;
    if (batches.last().gpus == m_request.gpus)
        for (qint64 b = 2 * perGpu; wider.size() < kWiderBatches && m_request.maxBatchPerGpu > 0 && b <= m_request.maxBatchPerGpu; b *= 2)
            wider.append({m_request.gpus, b});
    // Each branch trains on the same samples; the largest makes kLargestBranchSteps steps. Two
    // data orders when the time allows (each batch's best LR then has a spread, and the base
    // batch's two orders give the tolerance), else one and the base batch once more.
    const double secondsLeft = std::max(0.0, m_request.budgetSeconds - elapsedMs() / 1000.0);
    const auto largestOf = [](const QList<BranchBatch>& list) { return double(list.last().gpus) * double(list.last().perGpu); };
    // A range test at each branch batch and at N GPUs' (counted once more: it may be none of them).
    const auto rangeSamplesOf = [&](const QList<BranchBatch>& list) {
        double samples = double(kRangeTestSteps) * double(m_request.gpus) * double(perGpu);
        for (const BranchBatch& batch : list)
            samples += double(kRangeTestSteps) * double(batch.gpus) * double(batch.perGpu);
        return samples;
    };
    const auto branchRunsFor = [](const QList<BranchBatch>& list, int seeds) { return int(list.size()) * 3 * seeds + (seeds == 1 ? 1 : 0); };
    // Seconds the branch phase takes for `seeds` data orders with branches of `samples` each.
    // A branch's measuring takes at most its training's time past its fewest evaluations
    // (measuringEvery), hence twice the samples' time.
    const auto secondsFor = [&](const QList<BranchBatch>& list, int seeds, double samples) {
        const int runs = branchRunsFor(list, seeds) + int(list.size()) + 2;
        const double evaluations = double(branchRunsFor(list, seeds)) * double(kFewestEvaluations + 1) + double(list.size() + 2);
        return runs * m_cost.perRun() + evaluations * m_cost.perEvaluation() +
               (rangeSamplesOf(list) + 2.0 * branchRunsFor(list, seeds) * samples) * m_cost.perSample();
    };
    const auto affordableFor = [&](const QList<BranchBatch>& list, int seeds) {
        return (kBranchShare * secondsLeft - secondsFor(list, seeds, 0.0)) / (2.0 * branchRunsFor(list, seeds) * m_cost.perSample());
    };
    // The wider batches only when the budget holds them whole: two data orders, the largest
    // branch its full steps; else the batch per GPU stays at most yours, and that is said.
    if (!wider.isEmpty()) {
        const QList<BranchBatch> all = batches + wider;
        const double full = double(kLargestBranchSteps) * largestOf(all);
        if (affordableFor(all, 2) >= full)
            batches = all;
        else
            m_advice.trimmed.append(QStringLiteral("batches per GPU above yours (up to %1 on %2) were not measured: with them the branch test takes "
                                                   "about %3 s, more than the %4 s of the budget it may use, so the batch per GPU is at most yours")
                                        .arg(wider.last().perGpu)
                                        .arg(gpuCountText(m_request.gpus))
                                        .arg(qRound(secondsFor(all, 2, full)))
                                        .arg(qRound(kBranchShare * secondsLeft)));
    }
    const double largest = largestOf(batches);
    m_largestBranchBatch = qint64(largest);
    const double full = double(kLargestBranchSteps) * largest;
    const double fewest = double(kFewestBranchSteps) * largest;
    m_branchSeeds = affordableFor(batches, 2) >= fewest ? 2 : 1;
    const double affordable = affordableFor(batches, m_branchSeeds);
    double delta = full;
    if (m_branchSeeds == 1)
        m_advice.trimmed.append(QStringLiteral("the branch test ran one data order, not two (two take about %1 s, more than the %2 s of the budget "
                                               "it may use): the LR exponent has no interval from the seeds")
                                    .arg(qRound(secondsFor(batches, 2, fewest)))
                                    .arg(qRound(kBranchShare * secondsLeft)));
    if (affordable < delta) {
        const double cut = std::max(fewest, affordable);
        m_advice.trimmed.append(QStringLiteral("branches trained on %1 samples each instead of %2 (the largest made %3 steps instead of %4)")
                                    .arg(qRound64(cut))
                                    .arg(qRound64(delta))
                                    .arg(qRound64(cut / largest))
                                    .arg(kLargestBranchSteps));
        delta = cut;
    }
    m_deltaSamples = delta;
    m_advice.branchSeeds = m_branchSeeds;
    const qint64 epochsEnough = base.epochs + qint64(std::ceil(delta / double(std::max<int64_t>(1, datasetSize(base))))) + 1;

    QList<PlannedRun> runs;
    // A range test at each branch batch, from the checkpoint: the one at N GPUs' batch bounds the
    // LRs; together they show how the runaway LR moves with the batch.
    QList<BranchBatch> rangeBatches = batches;
    if (std::none_of(batches.begin(), batches.end(), [&](const BranchBatch& batch) { return batch.gpus == m_request.gpus && batch.perGpu == perGpu; }))
        rangeBatches.append({m_request.gpus, perGpu});
    for (const BranchBatch& batch : rangeBatches) {
        PlannedRun range{advice_phase::kRangeTest, batch.gpus, batch.perGpu, 0.0, base.seed, emulated(batch.gpus, batch.perGpu, m_baseLr, base.seed)};
        range.config.resumeFrom = m_checkpoint.toStdString();
        range.config.lrRangeTest = true;
        range.config.lrRangeMin = m_baseLr / 10.0;
        // Up to 10 x the linear rule's LR at N GPUs' batch, or at this batch when it is larger.
        range.config.lrRangeMax = m_baseLr * std::max(double(m_request.gpus), double(batch.gpus) * double(batch.perGpu) / double(m_baseBatch)) * 10.0;
        range.config.lrRangeSteps = kRangeTestSteps;
        range.config.maxSteps = 0;
        range.config.epochs = epochsEnough + kRangeTestSteps;
        range.config.evalEvery = 0;
        runs.append(range);
    }
    qint64 fewestMeasurements = kBranchEvaluations;
    for (const BranchBatch& batch : batches) {
        const double effective = double(batch.gpus) * double(batch.perGpu);
        const qint64 steps = std::max<qint64>(1, qRound64(delta / effective));
        // A bracket around the linear rule's LR (the rule the range test and bracket then correct).
        const double center = m_baseLr * effective / double(m_baseBatch);
        for (int order = 0; order < m_branchSeeds; ++order) {
            for (double factor : {0.5, 1.0, 2.0}) {
                PlannedRun branch{advice_phase::kBranch, batch.gpus, batch.perGpu, center * factor, base.seed + order,
                                  emulated(batch.gpus, batch.perGpu, center * factor, base.seed + order)};
                branch.config.resumeFrom = m_checkpoint.toStdString();
                branch.config.maxSteps = m_checkpointStep + steps;
                branch.config.epochs = epochsEnough;
                // The noise-free measure along the way: McCandlish's steps to a target.
                branch.config.evalEvery = m_cost.measuringEvery(steps, effective, kBranchEvaluations, kFewestEvaluations);
                fewestMeasurements = std::min(fewestMeasurements, steps / *branch.config.evalEvery);
                runs.append(branch);
            }
        }
        if (&batch == &batches.front() && m_branchSeeds == 1) {
            PlannedRun repeat{advice_phase::kBranchRepeat, batch.gpus, batch.perGpu, center, base.seed + 1,
                              emulated(batch.gpus, batch.perGpu, center, base.seed + 1)};
            repeat.config.resumeFrom = m_checkpoint.toStdString();
            repeat.config.maxSteps = m_checkpointStep + steps;
            repeat.config.epochs = epochsEnough;
            repeat.config.evalEvery = 0;
            runs.append(repeat);
        }
    }
    if (fewestMeasurements < kBranchEvaluations)
        m_advice.trimmed.append(QStringLiteral("branches measured their loss as few as %1 times instead of %2 (measuring took longer than "
                                               "their training): their steps to a target are coarser")
                                    .arg(fewestMeasurements)
                                    .arg(kBranchEvaluations));
    // The noise scale needs two GPUs' gradients (one rank's against their mean): a base of one GPU
    // gets a run of two GPUs of its batch, at its LR, for the base run's steps.
    if (m_baseGpus == 1) {
        PlannedRun noise{advice_phase::kNoiseScale, 2, perGpu, m_baseLr, base.seed, emulated(2, perGpu, m_baseLr, base.seed)};
        noise.config.maxSteps = m_checkpointStep * 2;
        noise.config.evalEvery = 0;
        runs.append(noise);
    }
    m_runsInPlan += int(runs.size()) + kLadder * kSeeds;
    runPhase(Phase::Branches, runs);
}

Advisor::PlannedRun Advisor::confirmationRun(const QString& phase, double lr, qint64 seed) const
{
    PlannedRun run{phase, m_request.gpus, m_chosenBatchPerGpu, lr, seed, emulated(m_request.gpus, m_chosenBatchPerGpu, lr, seed)};
    run.config.maxSteps = m_confirmationSteps;
    run.config.epochs = std::max<int64_t>(m_request.base.epochs, 1 + m_confirmationSteps / std::max<int64_t>(1, stepsPerEpoch(run.config)));
    run.config.schedule = ScheduleKind::Constant;
    run.config.evalEvery = m_cost.measuringEvery(m_confirmationSteps, double(m_request.gpus * m_chosenBatchPerGpu), kConfirmationEvaluations, kFewestEvaluations);
    return run;
}

void Advisor::planConfirmation(const QList<double>& lrs)
{
    const ddplab::Config& base = m_request.base;
    const double batch = double(m_request.gpus) * double(m_chosenBatchPerGpu);
    if (m_extensions == 0) {
        // The horizon: the planned training's samples at this batch, or what the time left holds.
        const qint64 planned = std::max<qint64>(1, qRound64(m_advice.plannedSamples / batch));
        const double secondsLeft = std::max(0.0, m_request.budgetSeconds - elapsedMs() / 1000.0);
        const double center = lrs.isEmpty() ? 0.0 : lrs[lrs.size() / 2];
        const int warmupRuns = center >= kWarmupRunsTrigger * m_baseLr ? kWarmupLrs * kSeeds : 0;
        const int runs = int(lrs.size()) * kSeeds + 2 * kSeeds + warmupRuns;  // and an extension's, and a warmup arm's
        const double affordable =
            (secondsLeft / runs - m_cost.perRun() - (kFewestEvaluations + 1) * m_cost.perEvaluation()) / (2.0 * batch * m_cost.perSample());
        m_confirmationSteps = std::max<qint64>(kFewestConfirmationSteps, std::min<qint64>(planned, qint64(affordable)));
        if (m_confirmationSteps < planned)
            m_advice.trimmed.append(QStringLiteral("the confirmation ran %1 steps (%2 samples) of the %3 planned").arg(m_confirmationSteps).arg(qRound64(m_confirmationSteps * batch)).arg(planned));
        m_advice.horizonSamples = double(m_confirmationSteps) * batch;
    }
    QList<PlannedRun> runs;
    for (double lr : lrs) {
        for (int seed = 0; seed < kSeeds; ++seed) {
            runs.append(confirmationRun(advice_phase::kConfirmation, lr, base.seed + seed));
        }
    }
    if (m_extensions > 0)
        m_runsInPlan += int(runs.size());
    runPhase(m_extensions > 0 ? Phase::Extension : Phase::Confirmation, runs);
}

}  // namespace ddplab::ui
