// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_plan.hpp"

#include "adam_moments.hpp"
#include "advice_phases.hpp"
#include "core/derived.hpp"
#include "core/lr_schedule.hpp"
#include "core/workload_table.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

constexpr qint64 kMostBaseSteps = 200;        // the base run's length at most: it sizes, it does not decide
constexpr qint64 kFewestBranchSteps = 20;     // a branch cut shorter than your horizon: its largest makes at least this many steps
constexpr qint64 kFewestConfirmationSteps = 20;
constexpr qint64 kBranchEvaluations = 16;     // noise-free measurements along each branch (McCandlish's steps to a target)
constexpr qint64 kConfirmationEvaluations = 20;
constexpr int kWiderBatches = 2;              // N GPUs at 2 and 4 x the base's batch per GPU, when the budget holds them
constexpr double kWarmupShare = 0.1;          // the warmup arm warms up over this share of the confirmation's steps
constexpr double kFewestBranchShare = 0.3;    // of the time left, the branch test's when not everything fits
constexpr double kMostBranchShare = 0.7;
constexpr double kMostLadderShare = 0.5;     // of the time left, what the branch test leaves the confirmation's ladder at most
// The validation set the advisor's runs measure on at most (val_subset): Fashion-MNIST's 10,000
// test images took 2.6 s an evaluation on this 2-core machine, ten times the steps between them.
constexpr qint64 kValidationSamples = 2000;

qint64 basePerGpu(const AdviceRequest& request)
{
    const qint64 own = request.base.batchSize;
    return request.maxBatchPerGpu > 0 ? std::min(own, request.maxBatchPerGpu) : own;
}

int baseGpus(const AdviceRequest& request)
{
    return int(request.base.worldSize * request.base.gradAccum);
}

// A run measures at most its training's time past its fewest evaluations (RunCost::measuringEvery):
// twice its samples' time. One that measures only at its end (`along` false): one evaluation.
double runSeconds(const RunCost& cost, double samples, bool along = true)
{
    if (!along)
        return cost.perRun() + cost.perEvaluation() + samples * cost.perSample();
    return cost.perRun() + double(kFewestEvaluations + 1) * cost.perEvaluation() + 2.0 * samples * cost.perSample();
}

double rangeTestSeconds(const RunCost& cost, const BranchBatch& batch)
{
    return cost.perRun() + cost.perEvaluation() + double(kRangeTestSteps) * batch.effective() * cost.perSample();
}

QString batchList(const QList<BranchBatch>& batches)
{
    QStringList names;
    for (const BranchBatch& batch : batches)
        names.append(QString::number(qint64(batch.effective())));
    return names.join(QStringLiteral(", "));
}

}  // namespace

ddplab::Config emulatedRun(const AdviceRequest& request, int gpus, qint64 batch, double lr, qint64 seed)
{
    const ddplab::Config& base = request.base;
    ddplab::Config c = base;
    // This machine's ranks stand for the GPUs: two when they split evenly, each running
    // gpus / 2 GPUs' batches as micro-batches (accumulate_as_ranks: exactly what they compute).
    c.worldSize = gpus % 2 == 0 ? 2 : 1;
    c.gradAccum = gpus / c.worldSize;
    c.accumulateAsRanks = c.gradAccum > 1;
    c.batchSize = batch;
    c.lr = lr;
    if (usesMoments(c)) {
        // The beta1, beta2 and eps the recommendation will carry at this batch (sdeMomentsAt: the
        // rule's above the base's batch, the base's own at or below it): the LR is measured with
        // the moments it is recommended with.
        const AdamSettings moments = sdeMomentsAt(base, c).settings;
        c.beta1 = moments.beta1;
        c.beta2 = moments.beta2;
        c.eps = moments.eps;
    }
    c.lrRule = LrRule::None;
    c.baseBatchSize.reset();
    c.warmupStartFactor = warmupStartFactor(base);
    c.seed = seed;
    // Another order of the same data: toy and linreg generate theirs from the base's data seed.
    if (traitsOf(base).vectorised)
        c.dataSeed = dataSeed(base);
    c.stopAtLoss.reset();
    c.checkpointAt = {};
    c.checkpointDir.clear();
    c.resumeFrom.clear();
    c.lrRangeTest = false;
    if (hasValidationSet(base) && (c.valSubset == 0 || c.valSubset > kValidationSamples))
        c.valSubset = kValidationSamples;
    c.saveModel.clear();
    c.events.clear();
    c.failAt.reset();
    return c;
}

BasePlan planBase(const AdviceRequest& request)
{
    const ddplab::Config& base = request.base;
    const double effective = double(effectiveBatchSize(base));
    const qint64 horizonSteps = std::max<qint64>(2, qint64(horizonOf(request) / effective));
    const qint64 steps = std::clamp<qint64>(std::min<qint64>(totalSteps(base), horizonSteps), 2, kMostBaseSteps);
    BasePlan plan;
    plan.checkpointStep = std::max<qint64>(1, steps / 2);
    const double lr = effectiveLr(base);
    plan.run = {advice_phase::kBase, baseGpus(request), base.batchSize, lr, base.seed, emulatedRun(request, baseGpus(request), base.batchSize, lr, base.seed)};
    ddplab::Config& c = plan.run.config;
    c.maxSteps = steps;
    c.epochs = base.epochs;
    c.schedule = base.schedule;
    c.warmupSteps = base.warmupSteps;
    c.warmupEpochs = base.warmupEpochs;
    c.checkpointAt.steps = {plan.checkpointStep};
    c.checkpointDir = request.checkpointFolder.toStdString();
    c.evalEvery = std::max<qint64>(1, plan.checkpointStep / 4);  // the checkpoint step is measured: the branches start from it
    return plan;
}

double ladderReserveSeconds(const PlanContext& context, qint64 perGpu)
{
    Q_UNUSED(perGpu)  // a run over your horizon costs its samples, whatever the batch
    // Over your horizon, up to half the time left: the batch and the LR are decided on equal
    // shares when both cannot be measured whole (the confirmation then cuts its steps, said).
    return std::min(double(kLadderRungs) * kSeeds * runSeconds(context.cost, horizonOf(context.request)), kMostLadderShare * context.secondsLeft);
}

double closestCallReserveSeconds(const PlanContext& context)
{
    return double(kReservedOrders) * 2.0 * runSeconds(context.cost, horizonOf(context.request));
}

bool closestCallOrderFits(const BranchPlan& plan, double orderSeconds, double secondsLeft, double pace)
{
    return orderSeconds + plan.ladderSeconds * std::max(1.0, pace) <= secondsLeft;
}

double ladderMoreSeedsSeconds(const BranchPlan& plan)
{
    return plan.ladderSeconds * double(2 * (kMostLadderSeeds - kSeeds)) / double(kLadderRungs * kSeeds);
}

bool closestCallMayGoOn(const BranchPlan& plan, int orders, double orderSeconds, double secondsLeft, double pace)
{
    if (orders < kMostOrders)
        return closestCallOrderFits(plan, orderSeconds, secondsLeft, pace);
    if (orders >= kMostOrdersWithTimeLeft)
        return false;
    return orderSeconds + (plan.ladderSeconds + ladderMoreSeedsSeconds(plan)) * std::max(1.0, pace) <= secondsLeft;
}

double confirmationSeconds(const PlanContext& context, qint64 perGpu, qint64 steps)
{
    const double batch = double(context.request.gpus) * double(perGpu);
    const double samples = steps > 0 ? double(steps) * batch : horizonOf(context.request);
    // The ladder and one extension past its edge, two seeds each.
    return double(kLadderRungs + 2) * kSeeds * runSeconds(context.cost, samples);
}

namespace {

PlannedRun branchRun(const PlanContext& context, const QString& phase, const BranchBatch& batch, double lr, qint64 seed, double samples, bool along,
                     bool fromStart)
{
    const AdviceRequest& request = context.request;
    const qint64 steps = std::max<qint64>(1, qRound64(samples / batch.effective()));
    PlannedRun run{phase, batch.gpus, batch.perGpu, lr, seed, emulatedRun(request, batch.gpus, batch.perGpu, lr, seed)};
    if (!fromStart)
        run.config.resumeFrom = context.checkpoint.toStdString();
    run.config.maxSteps = (fromStart ? 0 : context.checkpointStep) + steps;
    run.config.epochs = request.base.epochs + qint64(std::ceil(samples / double(std::max<int64_t>(1, datasetSize(request.base))))) + 1;
    // The noise-free measure along the way: McCandlish's steps to a target (0: at the end only).
    run.config.evalEvery = along ? context.cost.measuringEvery(steps, batch.effective(), kBranchEvaluations, kFewestEvaluations) : 0;
    return run;
}

// A bracket around the linear rule's LR at `batch` (the rule the bracket then corrects), in data
// order `order`, as `plan` trains its branches.
void appendBracket(QList<PlannedRun>& runs, const PlanContext& context, const BranchPlan& plan, const BranchBatch& batch, int order)
{
    const ddplab::Config& base = context.request.base;
    const double center = effectiveLr(base) * batch.effective() / double(effectiveBatchSize(base));
    for (double factor : {0.5, 1.0, 2.0})
        runs.append(branchRun(context, advice_phase::kBranch, batch, center * factor, base.seed + order, plan.samples, plan.measureAlong, plan.fromStart));
}

// A range test from the checkpoint: the one at N GPUs' batch bounds the LRs; together they show
// how the runaway LR moves with the batch.
PlannedRun rangeTestRun(const PlanContext& context, const BranchPlan& plan, const BranchBatch& batch)
{
    const AdviceRequest& request = context.request;
    const ddplab::Config& base = request.base;
    const double baseLr = effectiveLr(base);
    const qint64 epochs = base.epochs + qint64(std::ceil(plan.samples / double(std::max<int64_t>(1, datasetSize(base))))) + 1;
    PlannedRun range{advice_phase::kRangeTest, batch.gpus, batch.perGpu, 0.0, base.seed, emulatedRun(request, batch.gpus, batch.perGpu, baseLr, base.seed)};
    range.config.resumeFrom = context.checkpoint.toStdString();
    range.config.lrRangeTest = true;
    range.config.lrRangeMin = baseLr / 10.0;
    // Up to 10 x the linear rule's LR at N GPUs' batch, or at this batch when it is larger.
    range.config.lrRangeMax = baseLr * std::max(double(request.gpus), batch.effective() / double(effectiveBatchSize(base))) * 10.0;
    range.config.lrRangeSteps = kRangeTestSteps;
    range.config.maxSteps = 0;
    range.config.epochs = epochs + kRangeTestSteps;
    range.config.evalEvery = 0;
    return range;
}

}  // namespace

PlannedRun branchTestRun(const PlanContext& context, const BranchPlan& plan, const QString& phase, const BranchBatch& batch, double lr, qint64 seed)
{
    return branchRun(context, phase, batch, lr, seed, plan.samples, plan.measureAlong, plan.fromStart);
}

BranchPlan planBranchTest(const PlanContext& context)
{
    const AdviceRequest& request = context.request;
    const ddplab::Config& base = request.base;
    const RunCost& cost = context.cost;
    const qint64 perGpu = basePerGpu(request);
    const double baseBatch = double(effectiveBatchSize(base));
    const double baseLr = effectiveLr(base);
    BranchPlan plan;
    // k x the base batch, in GPUs of the base's batch per GPU, k = 1, 2, 4, ... up to N GPUs; and
    // once they reach N GPUs, N GPUs at twice and four times that batch per GPU within the most
    // batch per GPU (a larger batch per GPU changes a BatchNorm batch's statistics: a candidate
    // only where a branch, emulated exactly, measured it).
    QList<BranchBatch> ladder;
    for (qint64 k = 1; qint64(baseGpus(request)) * k * perGpu <= std::max(qint64(request.gpus) * perGpu, qint64(baseBatch)); k *= 2)
        ladder.append({int(baseGpus(request) * k), perGpu});
    QList<BranchBatch> wider;
    if (ladder.last().gpus == request.gpus)
        // (Each within the most a GPU holds and making two steps at least over your horizon.)
        for (qint64 b = 2 * perGpu; wider.size() < kWiderBatches && request.maxBatchPerGpu > 0 && b <= request.maxBatchPerGpu &&
                                    2.0 * double(request.gpus) * double(b) <= horizonOf(request);
             b *= 2)
            wider.append({request.gpus, b});
    const BranchBatch atN{request.gpus, perGpu};
    // And half your batch (half your batch per GPU, else half your GPUs): where your own batch is
    // already past the critical batch at your horizon, only a smaller one can show it (the
    // panel's autoencoder, 1 x 32: the truth's right set is {16}, 32 is +8.9 % over it).
    QList<BranchBatch> smaller;
    if (perGpu >= 2 && perGpu % 2 == 0)
        smaller.append({baseGpus(request), perGpu / 2});
    else if (baseGpus(request) >= 2 && baseGpus(request) % 2 == 0)
        smaller.append({baseGpus(request) / 2, perGpu});
    // Your horizon from the start, as the truth trains it: a branch from the checkpoint (trained at
    // your batch for its first samples) sees a smaller difference between batches.
    const double fromCheckpoint = std::max(baseBatch, horizonOf(request) - double(context.checkpointStep) * baseBatch);
    plan.horizon = std::max(baseBatch, horizonOf(request));
    plan.samples = plan.horizon;

    const bool oneGpuBase = baseGpus(request) == 1;
    const auto secondsFor = [&](const QList<BranchBatch>& batches, const QList<BranchBatch>& ranged, double samples) {
        double seconds = oneGpuBase ? runSeconds(cost, 4.0 * double(context.checkpointStep) * double(perGpu), false) : 0.0;
        for (const BranchBatch& batch : ranged)
            seconds += rangeTestSeconds(cost, batch);
        return seconds + double(batches.size() + smaller.size()) * 3.0 * kSeeds * runSeconds(cost, samples, plan.measureAlong);
    };
    QList<BranchBatch> batches = ladder + wider;
    QList<BranchBatch> ranged = batches;
    if (std::none_of(ranged.begin(), ranged.end(), [&](const BranchBatch& b) { return b.gpus == atN.gpus && b.perGpu == atN.perGpu; }))
        ranged.append(atN);
    // What the branch test may take: all it needs when the confirmation after it fits too (the rest
    // goes to the closest call), else its share of the time left.
    // Never the confirmation's ladder (its 10 runs at 20 steps at least): the branch test is cut
    // instead, and says what it left out.
    const double whole = secondsFor(batches, ranged, plan.samples);
    const double confirmation = confirmationSeconds(context, perGpu);
    const double shared = whole + confirmation <= context.secondsLeft
                              ? context.secondsLeft - confirmation
                              : context.secondsLeft * std::clamp(whole / (whole + confirmation), kFewestBranchShare, kMostBranchShare);
    // Nor the closest call's orders: a verdict within noise at half your batch decides more than
    // a larger batch's second order does (the larger batches' later orders are cut first).
    plan.ladderSeconds = ladderReserveSeconds(context, perGpu);
    // Never below the branch test's fewest share: a 90-second advice still measures its batches.
    plan.closestCallSeconds =
        std::min(closestCallReserveSeconds(context), std::max(0.0, context.secondsLeft * (1.0 - kFewestBranchShare) - plan.ladderSeconds));
    const double mayTake = std::max(0.0, std::min(shared, context.secondsLeft - plan.ladderSeconds - plan.closestCallSeconds));
    plan.seconds = mayTake;
    BranchCut halfCut, skippedCut, widerCut, rangeCut;
    // Cut in this order until it fits: the wider batches, the range tests but N GPUs', the
    // measurements along the way (each branch measured at its end only), every other batch
    // between yours and N GPUs', the start (from the checkpoint), half your batch, the branches'
    // length (down to 20 steps at the largest). Each cut is said. What still does not fit is cut when the branch test's share is spent (the job).
    // The cuts that leave the runs' shape alone (batches, range tests) are kept in plan.leftOut: the
    // job brings them back when the branch test's own runs show the base run's cost was too high.
    if (!wider.isEmpty() && secondsFor(batches, ranged, plan.samples) > mayTake) {
        plan.trimmed.append(QStringLiteral("batches per GPU above yours (up to %1 on %2) were not measured: with them the branch test takes about "
                                           "%3 s, more than the %4 s of the budget it may use, so the batch per GPU is at most yours")
                                .arg(wider.last().perGpu)
                                .arg(gpuCountText(request.gpus))
                                .arg(qRound(secondsFor(batches, ranged, plan.samples)))
                                .arg(qRound(mayTake)));
        widerCut = {wider, {}, plan.trimmed.last()};
        batches = ladder;
        ranged.erase(std::remove_if(ranged.begin(), ranged.end(), [&](const BranchBatch& b) { return b.perGpu > perGpu; }), ranged.end());
        plan.thinned = true;
    }
    if (ranged.size() > 1 && secondsFor(batches, ranged, plan.samples) > mayTake) {
        plan.trimmed.append(QStringLiteral("the LR range test ran only at %1 GPUs' batch (%2), not at every branch batch").arg(request.gpus).arg(qint64(atN.effective())));
        rangeCut.said = plan.trimmed.last();
        for (const BranchBatch& batch : ranged)
            if (!(batch.gpus == atN.gpus && batch.perGpu == atN.perGpu))
                rangeCut.rangeTests.append(batch);
        ranged = {atN};
        plan.thinned = true;
    }
    // The wider batches' range tests come back with them, or with the others' when those were cut too.
    (rangeCut.said.isEmpty() ? widerCut : rangeCut).rangeTests.append(widerCut.brackets);
    if (secondsFor(batches, ranged, plan.samples) > mayTake) {
        // Evaluations cost more than training on a small model with a validation set (the reduced
        // Fashion CNN: 2 s each against 1.2 s for a branch's 32 steps): the verdicts need only the
        // end's measure, McCandlish's fit the ones along the way.
        plan.measureAlong = false;
        plan.trimmed.append(QStringLiteral("the branches measured only at their end, not along the way, to fit the budget: McCandlish's steps to a "
                                           "target were not fitted"));
        plan.thinned = true;
        plan.reshaped = true;
    }
    QList<BranchBatch> skipped;
    while (batches.size() > 2 && secondsFor(batches, ranged, plan.samples) > mayTake) {
        // Every other batch between yours and the largest, from the top: before the branches
        // leave the start or half your batch, whose verdict decides more (the panel's
        // autoencoder: your batch +8.9 % over half of it, the larger ones all worse).
        QList<BranchBatch> kept{batches.first()};
        for (qsizetype i = 1; i + 1 < batches.size(); ++i)
            (i % 2 == 0 ? kept : skipped).append(batches[i]);
        kept.append(batches.last());
        if (kept.size() == batches.size())
            break;
        batches = kept;
        plan.thinned = true;
    }
    if (!skipped.isEmpty()) {
        plan.trimmed.append(QStringLiteral("the branch test left out batches %1 to fit the budget: the critical batch is placed only between those it measured")
                                .arg(batchList(skipped)));
        skippedCut = {skipped, {}, plan.trimmed.last()};
    }
    // From the checkpoint before leaving half your batch out: a half from the checkpoint understates
    // its difference (the panel's autoencoder), a missing one cannot show it at all.
    if (secondsFor(batches, ranged, plan.samples) > mayTake) {
        plan.fromStart = false;
        plan.horizon = fromCheckpoint;
        plan.samples = fromCheckpoint;
        plan.trimmed.append(QStringLiteral("the branches started from the base run's checkpoint at step %1, not from the start, to fit the budget: "
                                           "from there the batches' differences look smaller than over your whole training")
                                .arg(context.checkpointStep));
        plan.thinned = true;
        plan.reshaped = true;
    }
    // Before the branches' length: a shorter horizon misjudges every batch, a missing half only one.
    if (!smaller.isEmpty() && secondsFor(batches, ranged, plan.samples) > mayTake) {
        plan.trimmed.append(QStringLiteral("the branch at half your batch (%1) was left out to fit the budget: whether your batch is already past the "
                                           "critical batch was not measured")
                                .arg(qint64(smaller.front().effective())));
        halfCut = {smaller, {}, plan.trimmed.last()};
        smaller.clear();
        plan.thinned = true;
    }
    const double largest = batches.last().effective();
    const double fewest = std::min(plan.horizon, double(kFewestBranchSteps) * largest);
    if (secondsFor(batches, ranged, plan.samples) > mayTake) {
        const double fixed = secondsFor(batches, ranged, 0.0);
        const double perSample = std::max(1e-12, secondsFor(batches, ranged, 1.0) - fixed);
        const double affordable = std::max(fewest, (mayTake - fixed) / perSample);
        if (affordable < plan.samples) {
            plan.trimmed.append(QStringLiteral("branches trained %1 samples from the checkpoint instead of your horizon's %2 there (the largest made %3 "
                                               "steps instead of %4): the batches were compared over a shorter horizon than yours")
                                    .arg(qRound64(affordable))
                                    .arg(qRound64(plan.horizon))
                                    .arg(qRound64(affordable / largest))
                                    .arg(qRound64(plan.horizon / largest)));
            plan.samples = affordable;
            plan.shortened = true;
            plan.reshaped = true;
        }
    }
    plan.batches = smaller + batches;
    // What may come back (leftOutBranchRuns), what decides most first: half your batch, the batches
    // between, the wider ones per GPU, the range tests.
    for (const BranchCut& cut : {halfCut, skippedCut, widerCut, rangeCut})
        if (!cut.said.isEmpty())
            plan.leftOut.append(cut);

    // In the order a cut at the budget's end loses least: your batch's and N GPUs' brackets and the
    // range test at N GPUs' batch first, then half your batch, then the other batches, then the
    // other range tests.
    const auto first = [&](const BranchBatch& batch) {
        return batch.effective() == batches.first().effective() || (batch.gpus == atN.gpus && batch.perGpu == atN.perGpu);
    };
    QList<BranchBatch> ordered, rangeOrder;
    for (const BranchBatch& batch : batches)
        if (first(batch))
            ordered.append(batch);
    ordered.append(smaller);
    for (const BranchBatch& batch : batches)
        if (!first(batch))
            ordered.append(batch);
    for (const BranchBatch& batch : ranged)
        (batch.gpus == atN.gpus && batch.perGpu == atN.perGpu ? rangeOrder.prepend(batch) : rangeOrder.append(batch));
    const auto bracketOf = [&](const BranchBatch& batch, int order) { appendBracket(plan.runs, context, plan, batch, order); };
    const auto rangeTestOf = [&](const BranchBatch& batch) { plan.runs.append(rangeTestRun(context, plan, batch)); };
    // Data order by data order, every batch in each: a cut at the branch test's share of the budget
    // leaves every batch measured in the same orders (paired), one order fewer at most for some.
    int placed = 0;
    for (int order = 0; order < plan.orders; ++order) {
        for (const BranchBatch& batch : ordered) {
            bracketOf(batch, order);
            if (order == 0 && ++placed == std::min<qsizetype>(2, ordered.size())) {
                // The range test at N GPUs' batch too: it bounds every LR the confirmation tries.
                if (!rangeOrder.isEmpty())
                    rangeTestOf(rangeOrder.takeFirst());
                plan.firstRuns = int(plan.runs.size());
            }
        }
    }
    for (const BranchBatch& batch : rangeOrder)
        rangeTestOf(batch);
    // The noise scale needs two GPUs' gradients (one rank's against their mean): a base of one GPU
    // gets a run of two GPUs of its batch, at its LR, for the base run's steps.
    if (oneGpuBase) {
        PlannedRun noise{advice_phase::kNoiseScale, 2, perGpu, baseLr, base.seed, emulatedRun(request, 2, perGpu, baseLr, base.seed)};
        noise.config.maxSteps = context.checkpointStep * 2;
        noise.config.evalEvery = 0;
        plan.runs.append(noise);
    }
    return plan;
}

QList<PlannedRun> leftOutBranchRuns(const PlanContext& context, const BranchPlan& plan, const BranchCut& cut)
{
    QList<PlannedRun> runs;
    // Data order by data order, as the branch test placed them: a cut at its share leaves the
    // batches brought back measured in the same orders.
    for (int order = 0; order < plan.orders; ++order)
        for (const BranchBatch& batch : cut.brackets)
            appendBracket(runs, context, plan, batch, order);
    for (const BranchBatch& batch : cut.rangeTests)
        runs.append(rangeTestRun(context, plan, batch));
    return runs;
}

qsizetype cutsThatFit(const QList<double>& cutSeconds, double secondsLeft)
{
    qsizetype back = 0;
    double total = 0.0;
    while (back < cutSeconds.size() && total + cutSeconds[back] <= secondsLeft)
        total += cutSeconds[back++];
    return back;
}

PlannedRun confirmationRun(const PlanContext& context, const QString& phase, int gpus, qint64 perGpu, double lr, qint64 seed, qint64 steps, bool along)
{
    PlannedRun run{phase, gpus, perGpu, lr, seed, emulatedRun(context.request, gpus, perGpu, lr, seed)};
    run.config.maxSteps = steps;
    run.config.epochs = std::max<int64_t>(context.request.base.epochs, 1 + steps / std::max<int64_t>(1, stepsPerEpoch(run.config)));
    run.config.schedule = ScheduleKind::Constant;
    run.config.evalEvery = along ? context.cost.measuringEvery(steps, double(gpus) * double(perGpu), kConfirmationEvaluations, kFewestEvaluations) : 0;
    return run;
}

qint64 confirmationSteps(const PlanContext& context, qint64 perGpu, int rungs, QStringList* trimmed, bool* measureAlong)
{
    const double batch = double(context.request.gpus) * double(perGpu);
    const qint64 planned = std::max<qint64>(1, qRound64(horizonOf(context.request) / batch));
    const qint64 fewest = std::min(kFewestConfirmationSteps, planned);
    // The ladder, an extension past its edge, two seeds each.
    const int runs = (rungs + 2) * kSeeds;
    const RunCost& cost = context.cost;
    const double perRun = context.secondsLeft / runs;
    // Measured along the way while the time holds it at the fewest steps; else at the end only
    // (the LR is chosen on the end's measure), which keeps the steps of your horizon longer.
    const bool along = perRun >= runSeconds(cost, double(fewest) * batch);
    const double affordable = along ? (perRun - cost.perRun() - double(kFewestEvaluations + 1) * cost.perEvaluation()) / (2.0 * batch * cost.perSample())
                                    : (perRun - cost.perRun() - cost.perEvaluation()) / (batch * cost.perSample());
    const qint64 steps = std::max<qint64>(fewest, std::min<qint64>(planned, qint64(std::max(0.0, affordable))));
    if (steps < planned && trimmed)
        trimmed->append(QStringLiteral("the confirmation ran %1 steps (%2 samples) of the %3 steps of your horizon").arg(steps).arg(qRound64(double(steps) * batch)).arg(planned));
    if (!along && trimmed)
        trimmed->append(QStringLiteral("the confirmation's runs measured only at their end, not along the way, to fit the budget"));
    if (measureAlong)
        *measureAlong = along;
    return steps;
}

qint64 confirmationStepsAtPace(PlanContext context, qint64 perGpu, int rungs, double pace, QStringList* trimmed, bool* measureAlong)
{
    context.secondsLeft /= std::max(1.0, pace);
    return confirmationSteps(context, perGpu, rungs, trimmed, measureAlong);
}

QList<double> ladderAround(double center, int rungs)
{
    QList<double> lrs;
    for (int i = 0; i < rungs; ++i)
        lrs.append(center * std::pow(std::sqrt(2.0), i - rungs / 2));
    return lrs;
}

QList<PlannedRun> timingRuns(const PlanContext& context, const QList<qint64>& batchesPerGpu)
{
    const AdviceRequest& request = context.request;
    const double lr = effectiveLr(request.base);
    // Each batch per GPU on the ranks the other runs use, one micro-batch each: the pace of a step
    // of that batch there, its first steps left out.
    const int ranks = int(emulatedRun(request, request.gpus, request.base.batchSize, lr, request.base.seed).worldSize);
    QList<PlannedRun> runs;
    for (qint64 batch : batchesPerGpu) {
        PlannedRun run{advice_phase::kThroughput, ranks, batch, lr, request.base.seed, emulatedRun(request, ranks, batch, lr, request.base.seed)};
        run.config.maxSteps = kThroughputSteps;
        run.config.epochs = 1 + kThroughputSteps / std::max<int64_t>(1, stepsPerEpoch(run.config));
        run.config.evalEvery = 0;
        run.config.schedule = ScheduleKind::Constant;
        runs.append(run);
    }
    return runs;
}

qint64 warmupArmSteps(qint64 confirmationSteps)
{
    return std::max<qint64>(1, qRound64(kWarmupShare * double(confirmationSteps)));
}

QList<PlannedRun> warmupRuns(const PlanContext& context, int gpus, qint64 perGpu, const QList<double>& lrs, qint64 steps)
{
    const double baseLr = effectiveLr(context.request.base);
    const qint64 warmup = warmupArmSteps(steps);
    QList<PlannedRun> runs;
    for (double lr : lrs) {
        for (int seed = 0; seed < kSeeds; ++seed) {
            PlannedRun run = confirmationRun(context, advice_phase::kWarmup, gpus, perGpu, lr, context.request.base.seed + seed, steps);
            run.config.warmupSteps = warmup;
            run.config.warmupEpochs = 0.0;
            run.config.warmupStartFactor = std::min(1.0, baseLr / lr);
            runs.append(run);
        }
    }
    return runs;
}

}  // namespace ddplab::ui
