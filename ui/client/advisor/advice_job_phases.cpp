// SPDX-License-Identifier: GPL-3.0-or-later
// What follows each phase of an advice (advice_job.hpp): what the base run measured, the branch
// test and its closest call, goodput, the confirmation's ladder and its extensions, the warmup
// arm, and the end. Each reads the evidence through the pure decisions (advice_decision.hpp) and
// plans the next runs through the pure plan (advice_plan.hpp); the lifecycle, the budget's cut
// and the time left are in advice_job.cpp.

#include "advice_job.hpp"

#include "advice_phases.hpp"
#include "advice_runner.hpp"
#include "run_evidence.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_status.hpp"
#include "client/series/x_axis.hpp"
#include "client/session/lab_session.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

QString lrText(double lr)
{
    return QString::number(lr, 'g', 3);
}

}  // namespace

void AdviceJob::afterBase(const RunData& base)
{
    if (!std::isfinite(measureOf(base, m_request.base)))
        return fail(QStringLiteral("the base run (your settings on %1) did not finish: %2")
                        .arg(gpuCountText(m_planned.front().gpus))
                        .arg(base.record().error.isEmpty() ? statusText(base.record().status) : base.record().error));
    // What a run costs here, from this one: it sizes the plan and says the time left. The
    // engine's start (LibTorch's load, about 1 s) was the base run's alone: every later run is
    // asked of the same engine, so it is not a run's cost (it had made a run's start and end
    // 1.1 s where the branch test's took 0.2 s, and cut the plan for time that was there).
    const qsizetype evaluations = std::max(base.series(wire(protocol::field::kTrainLoss)).size(), base.series(wire(protocol::field::kValLoss)).size());
    const double baseSeconds = m_runner->elapsedSeconds() - m_runner->engineStartSeconds();
    // Pinned by the test hook (pinnedRunCost), the estimator's instead, the same at any load.
    m_time.setCost(m_pinnedCost ? *m_pinnedCost
                                : RunCost::measured(base.summary().value(wire(protocol::field::kTrainS)).toDouble(), base.summary().value(wire(protocol::field::kSamples)).toDouble(),
                                                    base.summary().value(wire(protocol::field::kWallS)).toDouble(), baseSeconds, evaluations),
                   m_checkpointStep);
    m_checkpoint.clear();
    for (const QJsonObject& checkpoint : base.checkpoints())
        m_checkpoint = checkpoint.value(wire(protocol::field::kPath)).toString();
    if (m_checkpoint.isEmpty())
        return fail(QStringLiteral("the base run wrote no checkpoint to branch from"));
    m_advice.noiseScale = base.series(wire(protocol::field::kNoiseScale), XAxis::SamplesSeen);
    m_advice.baseSteps = base.lastStep();
    m_checkpointMeasure = std::nan("");
    for (const QPointF& point : base.series(wire(protocol::field::kTrainLoss)))
        if (qRound64(point.x()) == m_checkpointStep)
            m_checkpointMeasure = point.y();
    emit phaseEnded();
    if (m_outOfTime)
        return fail(QStringLiteral("the budget of %1 s was spent by the base run: give the advice more time").arg(qRound(m_request.budgetSeconds)));
    planBranches();
}

void AdviceJob::planBranches()
{
    m_branchPlan = planBranchTest(context());
    m_branchEndsAt = m_runner->elapsedSeconds() + m_branchPlan.seconds;
    m_advice.trimmed.append(m_branchPlan.trimmed);
    m_advice.branchSeeds = m_branchPlan.orders;
    m_advice.branchSamples = m_branchPlan.samples;
    m_advice.branchHorizon = m_branchPlan.horizon;
    m_runsPlanned += int(m_branchPlan.runs.size()) + kLadderRungs * kSeeds;
    runPhase(Phase::Branches, m_branchPlan.runs);
}

void AdviceJob::afterBranches()
{
    if (!m_outOfTime && !m_branchCut && (planLeftOutBranches() || planBracketExtension() || planBracketMidpoints()))
        return;
    m_conclusion = concludeBranches(m_request, m_advice.evidence, m_advice.rangeTests);
    if (!m_conclusion.failure.isEmpty() && (m_outOfTime || m_branchCut))
        return fail(QStringLiteral("the budget of %1 s was spent before the branch test had measured your batch: give the advice more time, or "
                                   "plan for fewer GPUs")
                        .arg(qRound(m_request.budgetSeconds)));
    if (!m_conclusion.failure.isEmpty())
        return fail(m_conclusion.failure);
    const BranchConclusion& c = m_conclusion;
    m_advice.batchVerdicts = c.judgement.batches;
    m_advice.criticalBatch = c.judgement.criticalBatch;
    m_advice.criticalBatchBeyond = c.judgement.beyondLargest || c.judgement.unmeasuredAbove;
    m_advice.branchTolerance = c.judgement.tolerance;
    m_advice.stepsFit = c.fit;
    m_advice.lrOptima = c.optima;
    m_advice.lrExponent = c.exponent.ok ? c.exponent.exponent : std::nan("");
    m_advice.lrExponentLow = c.exponent.ok ? c.exponent.low : std::nan("");
    m_advice.lrExponentHigh = c.exponent.ok ? c.exponent.high : std::nan("");
    m_advice.lrExponentRules = rulesWithinInterval(c.exponent);
    m_advice.batchPerGpu = c.chosenPerGpu;
    m_advice.effectiveBatch = qint64(m_advice.gpus) * c.chosenPerGpu;
    m_advice.dontScale = c.dontScale;
    m_advice.criticalBatchFinding = criticalBatchWords(m_advice);
    emit phaseEnded();
    // After a branch test cut at its share too: the closest call's orders were kept out of it.
    if (!m_outOfTime && planClosestCall())
        return;
    afterBatchChosen();
}

bool AdviceJob::planClosestCall()
{
    const BatchJudgement& judgement = m_conclusion.judgement;
    if (judgement.closestCall < 0 || judgement.batches.isEmpty())
        return false;
    const BatchVerdict& close = judgement.batches[judgement.closestCall];
    const BatchVerdict& base = judgement.batches[judgement.yours];
    // The orders each has at its chosen LR; the next one either lacks.
    const auto seedsAt = [this](const BatchVerdict& v) {
        QList<qint64> seeds;
        for (const AdviceEvidence& run : m_advice.evidence)
            if ((run.phase == advice_phase::kBranch || run.phase == advice_phase::kRefinement) && run.gpus == v.gpus && run.batchPerGpu == v.batchPerGpu &&
                run.lr == v.lr)
                seeds.append(run.seed);
        return seeds;
    };
    const QList<qint64> closeSeeds = seedsAt(close), baseSeeds = seedsAt(base);
    if (closeSeeds.size() >= kMostOrdersWithTimeLeft) {
        if (!m_closestCallStopped)
            m_advice.trimmed.append(QStringLiteral("the verdict at batch %1 stayed within noise after %2 data orders, the most it gets")
                                        .arg(qint64(close.batch))
                                        .arg(kMostOrdersWithTimeLeft));
        m_closestCallStopped = true;
        return false;
    }
    qint64 seed = m_request.base.seed;
    while (closeSeeds.contains(seed))
        ++seed;
    const PlanContext ctx = context();
    QList<PlannedRun> runs{branchTestRun(ctx, m_branchPlan, advice_phase::kRefinement, {close.gpus, close.batchPerGpu}, close.lr, seed)};
    if (!baseSeeds.contains(seed))
        runs.append(branchTestRun(ctx, m_branchPlan, advice_phase::kRefinement, {base.gpus, base.batchPerGpu}, base.lr, seed));
    // The ladder's reserve first, at the pace the runs kept: the rest of what the plan kept from
    // the branch test is the closest call's.
    // Past kMostOrders, only while the ladder's more seeds fit too (closestCallMayGoOn).
    if (!closestCallMayGoOn(m_branchPlan, int(closeSeeds.size()), predictedSeconds(runs), ctx.secondsLeft, m_time.scale())) {
        if (!m_closestCallStopped)
            m_advice.trimmed.append(QStringLiteral("the verdict at batch %1 is within noise (%2) after %3 data orders: another did not fit the budget")
                                        .arg(qint64(close.batch))
                                        .arg(verdictWords(close, judgement.tolerance))
                                        .arg(closeSeeds.size()));
        m_closestCallStopped = true;
        return false;
    }
    ++m_advice.refinementOrders;
    m_runsPlanned += int(runs.size());
    say(QStringLiteral("batch %1 is the closest call (%2): one more data order").arg(qint64(close.batch)).arg(verdictWords(close, judgement.tolerance)));
    runPhase(Phase::Refinement, runs);
    return true;
}

bool AdviceJob::planLeftOutBranches()
{
    // Once, before the brackets' edges: what the plan left out at the base run's cost, cut by cut in
    // the order they come back, while at the pace the branch test kept they end within its share.
    if (m_leftOutTried)
        return false;
    m_leftOutTried = true;
    QList<QList<PlannedRun>> cutRuns;
    QList<double> cutSeconds;
    for (const BranchCut& cut : std::as_const(m_branchPlan.leftOut)) {
        cutRuns.append(leftOutBranchRuns(context(), m_branchPlan, cut));
        cutSeconds.append(predictedSeconds(cutRuns.last()));
    }
    const qsizetype back = cutsThatFit(cutSeconds, m_branchEndsAt - m_runner->elapsedSeconds());
    QList<PlannedRun> runs;
    double seconds = 0.0;
    for (qsizetype i = 0; i < back; ++i) {
        runs.append(cutRuns[i]);
        seconds += cutSeconds[i];
        m_advice.trimmed.removeAll(m_branchPlan.leftOut[i].said);
    }
    if (runs.isEmpty())
        return false;
    m_branchPlan.leftOut.remove(0, back);
    m_branchPlan.thinned = m_branchPlan.reshaped || !m_branchPlan.leftOut.isEmpty();
    m_runsPlanned += int(runs.size());
    say(QStringLiteral("the branch test's runs took %1 % of the time the base run said: %2 of what it left out for time fits after all (%3 runs, "
                       "about %4 s)")
            .arg(qRound(100.0 * m_time.scale()))
            .arg(m_branchPlan.leftOut.isEmpty() ? QStringLiteral("all") : QStringLiteral("some"))
            .arg(runs.size())
            .arg(qRound(seconds)));
    runPhase(Phase::Branches, runs);
    return true;
}

bool AdviceJob::planBracketExtension()
{
    if (m_bracketExtensions >= kMostBracketExtensions)
        return false;
    const QList<BracketExtension> edges = bracketEdgeExtensions(m_request, m_advice.evidence);
    if (edges.isEmpty())
        return false;
    QStringList left;
    const QList<PlannedRun> runs = bracketRunsThatFit(edges, &left);
    // Said once: this is asked again after every phase of the branch test, with the same edges left.
    const QString unfit = QStringLiteral("the branch test's best LR sat at its bracket's edge at batch %1, and the LR past the edge (in "
                                         "brackets) did not fit the budget beside the confirmation")
                              .arg(left.join(QStringLiteral(", ")));
    if (!left.isEmpty() && !m_advice.trimmed.contains(unfit))
        m_advice.trimmed.append(unfit);
    if (runs.isEmpty())
        return false;
    ++m_bracketExtensions;
    m_runsPlanned += int(runs.size());
    say(QStringLiteral("%1 branch bracket(s) had their best LR at an edge: one LR 2× past it").arg(edges.size() - left.size()));
    runPhase(Phase::Refinement, runs);
    return true;
}

bool AdviceJob::planBracketMidpoints()
{
    // Once, after the edges: half your batch and yours at the LR between their best and its better
    // neighbour (bracketMidpoints), so the two are compared at LRs tuned for each.
    if (m_bracketMidpoints)
        return false;
    m_bracketMidpoints = true;
    const QList<BracketExtension> points = bracketMidpoints(m_request, m_advice.evidence);
    if (points.isEmpty())
        return false;
    QStringList left;
    const QList<PlannedRun> runs = bracketRunsThatFit(points, &left);
    if (!left.isEmpty())
        m_advice.trimmed.append(QStringLiteral("the branch test's bracket at batch %1 was not refined to the LR between its best and its better neighbour "
                                               "(2× apart): it did not fit the budget beside the confirmation, so that batch is compared at its "
                                               "bracket's best")
                                    .arg(left.join(QStringLiteral(", "))));
    if (runs.isEmpty())
        return false;
    m_runsPlanned += int(runs.size());
    say(QStringLiteral("half your batch and yours compared at tuned LRs: one LR between the best of %1 bracket(s) and its better neighbour")
            .arg(points.size() - left.size()));
    runPhase(Phase::Refinement, runs);
    return true;
}

QList<PlannedRun> AdviceJob::bracketRunsThatFit(const QList<BracketExtension>& points, QStringList* left) const
{
    // Each point's runs (one per data order) while they fit beside the confirmation after them, at
    // your batch per GPU (the batch is not chosen yet), as the closest call keeps it: never taken
    // (at a share of the time left, each round would take half). A point that does not fit is
    // named in `left` ("BATCH (LR x)").
    const PlanContext ctx = context();
    const qint64 perGpu = m_request.maxBatchPerGpu > 0 ? std::min<qint64>(m_request.base.batchSize, m_request.maxBatchPerGpu) : m_request.base.batchSize;
    const double reserve = confirmationSeconds(ctx, perGpu) * m_time.scale();
    QList<PlannedRun> runs;
    for (const BracketExtension& point : points) {
        QList<PlannedRun> more;
        for (qint64 seed : point.seeds)
            more.append(branchTestRun(ctx, m_branchPlan, advice_phase::kBranch, {point.gpus, point.perGpu}, point.lr, seed));
        if (timeHolds(predictedSeconds(runs + more) + reserve))
            runs += more;
        else
            left->append(QStringLiteral("%1 (LR %2)").arg(qint64(point.gpus) * point.perGpu).arg(lrText(point.lr)));
    }
    return runs;
}

void AdviceJob::afterBatchChosen()
{
    if (!m_outOfTime && planThroughput())
        return;
    planLadder();
}

bool AdviceJob::planThroughput()
{
    m_advice.goodput.reset();
    const bool transfer = m_session.target().isRemote() || m_request.base.device == DeviceKind::Cuda;
    if (!transfer)
        return false;
    const double baseBatch = double(effectiveBatchSize(m_request.base));
    Goodput goodput = goodputBasis(m_advice, baseBatch,
                                   QStringLiteral("%1, %2").arg(m_session.target().describe(),
                                                                wire(m_request.base.device == DeviceKind::Cuda ? choice::device::kCuda : choice::device::kCpu)));
    const QList<qint64> batches = goodputCandidates(m_conclusion.chosenPerGpu, m_request.gpus, qint64(baseBatch), kGoodputCandidates);
    if (!(goodput.noiseScale > 0) || batches.size() < 2) {
        goodput.verdict = batches.size() < 2 ? QStringLiteral("only %1 per GPU keeps the batch within what the branch test measured: nothing to "
                                                              "choose between by speed")
                                                   .arg(m_conclusion.chosenPerGpu)
                                             : goodputOf({}, m_request.gpus, baseBatch, goodput.noiseScale).verdict;
        m_advice.goodput = goodput;
        return false;
    }
    m_advice.goodput = goodput;
    const QList<PlannedRun> runs = timingRuns(context(), batches);
    m_runsPlanned += int(runs.size());
    runPhase(Phase::Throughput, runs);
    return true;
}

void AdviceJob::afterThroughput()
{
    QList<GoodputPoint> timed;
    for (const AdviceEvidence& run : m_advice.evidence)
        if (run.phase == advice_phase::kThroughput)
            timed.append({run.batchPerGpu, run.samplesPerSecond});
    Goodput goodput = goodputOf(timed, m_request.gpus, double(effectiveBatchSize(m_request.base)), m_advice.goodput->noiseScale);
    goodput.timedOn = m_advice.goodput->timedOn;
    goodput.noiseScaleFrom = m_advice.goodput->noiseScaleFrom;
    m_advice.goodput = goodput;
    if (goodput.chosen) {
        m_conclusion.chosenPerGpu = goodput.bestBatchPerGpu;
        m_conclusion.ladderCenter = ladderCenterAt(m_request, m_conclusion, goodput.bestBatchPerGpu);
        m_advice.batchPerGpu = goodput.bestBatchPerGpu;
        m_advice.effectiveBatch = qint64(m_advice.gpus) * goodput.bestBatchPerGpu;
    }
    say(QStringLiteral("timed on %1: %2").arg(goodput.timedOn, goodput.verdict));
    emit phaseEnded();
    planLadder();
}

void AdviceJob::planLadder()
{
    if (m_outOfTime)
        return finish();
    const PlanContext ctx = context();
    const qint64 perGpu = m_conclusion.chosenPerGpu;
    m_confirmationSteps = confirmationStepsAtPace(ctx, perGpu, kLadderRungs, m_time.scale(), &m_advice.trimmed, &m_confirmationAlong);
    m_advice.horizonSamples = double(m_confirmationSteps) * double(m_request.gpus) * double(perGpu);
    // Rung by rung, the pace measured again after each (AdviceTime::calibrate at a phase's end),
    // the next the nearest untried one to the best so far: a load that rises leaves out the far
    // rungs, never those around the candidate (nextLadderRung).
    m_ladderRungs = ladderAround(m_conclusion.ladderCenter);
    planNextRung();
}

QList<PlannedRun> AdviceJob::rungRuns(double lr) const
{
    const PlanContext ctx = context();
    QList<PlannedRun> runs;
    for (int seed = 0; seed < kSeeds; ++seed)
        runs.append(confirmationRun(ctx, advice_phase::kConfirmation, m_request.gpus, m_conclusion.chosenPerGpu, lr, m_request.base.seed + seed,
                                    m_confirmationSteps, m_confirmationAlong));
    return runs;
}

void AdviceJob::planNextRung()
{
    const QList<BracketPoint> ran = pointsOf(m_advice.evidence, advice_phase::kConfirmation);
    const double rung = m_outOfTime ? std::nan("")
                                    : nextLadderRung(m_ladderRungs, ran, context().secondsLeft, predictedSeconds(rungRuns(m_conclusion.ladderCenter)));
    if (!std::isnan(rung))
        return runPhase(Phase::Confirmation, rungRuns(rung));
    const QList<double> left = untriedRungs(m_ladderRungs, ran);
    if (!left.isEmpty()) {
        QStringList lrs;
        for (double lr : left)
            lrs.append(lrText(lr));
        m_advice.trimmed.append(QStringLiteral("the confirmation's ladder left out LR %1, farthest from its best: at the pace its last rung kept, the "
                                               "budget did not hold them")
                                    .arg(lrs.join(QStringLiteral(", "))));
        m_runsPlanned -= int(left.size()) * kSeeds;
        m_ladderLeftOut = true;
    }
    afterLadder();
}

void AdviceJob::afterLadder()
{
    const QList<BracketPoint> ladder = pointsOf(m_advice.evidence, advice_phase::kConfirmation);
    const LrChoice choice = chooseLr(ladder);
    if (m_outOfTime) {
        if (choice.atLowEdge || choice.atHighEdge)
            m_ladderStopped = QStringLiteral("the budget was spent before the ladder could be extended past its edge");
        const QList<double> rungs = rungsForMoreSeeds(ladder, kMostLadderSeeds);
        if (!rungs.isEmpty())
            m_advice.trimmed.append(moreSeedsDeclined(choice, rungs, 0.0, -1.0));
        else if (!rungsForQuietSeeds(ladder, kMostQuietSeeds).isEmpty())
            m_advice.trimmed.append(quietSeedsDeclined(choice, ladder, 0.0, -1.0));
        return finish();
    }
    const PlanContext ctx = context();
    const qint64 perGpu = m_conclusion.chosenPerGpu;
    const LadderNext next = nextOnLadder(choice, ladder, m_conclusion.divergenceLr, m_extensions);
    m_ladderStopped = next.why;
    if (!next.lrs.isEmpty()) {
        QList<PlannedRun> runs;
        for (double lr : next.lrs)
            for (int seed = 0; seed < kSeeds; ++seed)
                runs.append(confirmationRun(ctx, advice_phase::kConfirmation, m_request.gpus, perGpu, lr, m_request.base.seed + seed, m_confirmationSteps,
                                            m_confirmationAlong));
        if (timeHolds(predictedSeconds(runs))) {
            ++m_extensions;
            m_moreSeeds = MoreSeeds::None;
            if (next.down && !choice.ok)
                m_advice.cautions.append(QStringLiteral("No LR of the confirmation trained in every seed with the LR above it trained too (the lowest that "
                                                        "diverged: %1): the ladder was extended below.")
                                             .arg(lrText(choice.lowestDiverged)));
            m_runsPlanned += int(runs.size());
            return runPhase(Phase::Extension, runs);
        }
        m_ladderStopped = QStringLiteral("the budget did not hold two more LRs past it");
    }
    if (planMoreSeeds(ladder))
        return;
    if (choice.ok && !m_armPlanned) {
        QString verdict;
        const QList<double> lrs = warmupArmLrs(m_request, choice, ladder, m_confirmationSteps, &verdict);
        if (!lrs.isEmpty()) {
            const QList<PlannedRun> runs = warmupRuns(ctx, m_request.gpus, perGpu, lrs, m_confirmationSteps);
            if (timeHolds(predictedSeconds(runs))) {
                m_armPlanned = true;
                m_advice.warmup.tested = true;
                m_advice.warmup.steps = warmupArmSteps(m_confirmationSteps);
                m_advice.warmup.lrs = lrs;
                m_runsPlanned += int(runs.size());
                return runPhase(Phase::Warmup, runs);
            }
            verdict = QStringLiteral("not tested: the budget did not hold its %1 runs.").arg(runs.size());
        }
        m_advice.warmup.verdict = verdict;
    }
    finish();
}

bool AdviceJob::planMoreSeeds(const QList<BracketPoint>& ladder)
{
    // The two best rungs within noise of each other: one more seed each (rungsForMoreSeeds). Once
    // they have theirs, the budget left goes to the LR's closest call, as the branch test's goes
    // to the batch's: the rungs within noise of the lowest mean, the fewest-seeded first
    // (rungsForQuietSeeds), until the LR is clear or the budget ends. Either only when the budget
    // holds them and the warmup arm after them.
    const LrChoice choice = chooseLr(ladder);
    QList<double> rungs = rungsForMoreSeeds(ladder, kMostLadderSeeds);
    const bool quietRun = rungs.isEmpty();
    if (quietRun)
        rungs = rungsForQuietSeeds(ladder, kMostQuietSeeds);
    if (rungs.isEmpty()) {
        if (choice.ok && choice.hasQuietRun())
            m_advice.trimmed.append(quietSeedsDeclined(choice, ladder, 0.0, 0.0));
        return false;
    }
    const PlanContext ctx = context();
    const qint64 perGpu = m_conclusion.chosenPerGpu;
    QList<PlannedRun> runs;
    for (double lr : rungs) {
        const auto point = std::find_if(ladder.begin(), ladder.end(), [lr](const BracketPoint& p) { return p.lr == lr; });
        runs.append(confirmationRun(ctx, advice_phase::kConfirmation, m_request.gpus, perGpu, lr, m_request.base.seed + point->measures.size(),
                                    m_confirmationSteps, m_confirmationAlong));
    }
    double arm = 0.0;
    if (!m_armPlanned) {
        QString verdict;
        const QList<double> lrs = warmupArmLrs(m_request, choice, ladder, m_confirmationSteps, &verdict);
        if (!lrs.isEmpty())
            arm = predictedSeconds(warmupRuns(ctx, m_request.gpus, perGpu, lrs, m_confirmationSteps));
    }
    const double wanted = predictedSeconds(runs) + arm;
    if (!timeHolds(wanted)) {
        const double left = m_request.budgetSeconds - m_runner->elapsedSeconds();
        m_advice.trimmed.append(quietRun ? quietSeedsDeclined(choice, ladder, wanted, left) : moreSeedsDeclined(choice, rungs, wanted, left));
        return false;
    }
    QStringList lrs;
    for (double lr : rungs)
        lrs.append(lrText(lr));
    say(quietRun ? QStringLiteral("the LRs within noise of the lowest mean are not yet ranked: one more seed at LR %1").arg(lrs.join(QStringLiteral(", ")))
                 : QStringLiteral("the ladder's best rungs are within noise of each other: one more seed at LR %1").arg(lrs.join(QStringLiteral(" and "))));
    m_moreSeeds = quietRun ? MoreSeeds::QuietRun : MoreSeeds::TwoBest;
    m_runsPlanned += int(runs.size());
    runPhase(Phase::Extension, runs);
    return true;
}

QList<BracketPoint> AdviceJob::bracketAtChosen() const
{
    // The branch test's bracket at the chosen effective batch, over its own data orders.
    const double chosen = double(m_request.gpus) * double(m_conclusion.chosenPerGpu);
    QList<AdviceEvidence> runs;
    for (const AdviceEvidence& run : m_advice.evidence)
        if (run.phase == advice_phase::kBranch && double(run.gpus) * double(run.batchPerGpu) == chosen)
            runs.append(run);
    return pointsOf(runs, advice_phase::kBranch);
}

void AdviceJob::finish()
{
    FinalInputs in;
    in.ladder = pointsOf(m_advice.evidence, advice_phase::kConfirmation);
    in.choice = chooseLr(in.ladder);
    in.confirmed = in.choice.ok;
    if (!in.confirmed) {
        // No confirmation in the budget: the branch test's bracket at this batch, said and weak.
        in.ladder = bracketAtChosen();
        in.choice = chooseLr(in.ladder);
        m_confirmationSteps = 0;
        if (!in.choice.ok)
            return fail(QStringLiteral("no LR trained at %1 GPUs × %2 within the budget: give the advice more time")
                            .arg(m_request.gpus)
                            .arg(m_conclusion.chosenPerGpu));
        m_advice.horizonSamples = m_branchPlan.samples;
        m_advice.trimmed.append(QStringLiteral("no confirmation ran: the LR is the branch test's best at this batch (LRs 2× apart, from the checkpoint)"));
    }
    in.bracket = bracketAtChosen();
    in.arm = m_advice.warmup.tested ? pointsOf(m_advice.evidence, advice_phase::kWarmup) : QList<BracketPoint>();
    in.confirmationSteps = m_confirmationSteps;
    in.divergenceLr = m_conclusion.divergenceLr;
    in.branchesShort = m_branchPlan.shortened;
    in.planTrimmed = m_branchPlan.thinned || m_outOfTime || m_branchCut || m_ladderLeftOut;
    in.ladderStopped = m_ladderStopped;
    in.timesTransfer = m_session.target().isRemote() || m_request.base.device == DeviceKind::Cuda;
    in.runOn = m_session.target().describe();
    in.budgetSeconds = m_request.budgetSeconds;
    if (!m_conclusion.edgeBatches.isEmpty()) {
        QStringList names;
        for (double batch : m_conclusion.edgeBatches)
            names.append(QString::number(batch, 'g', 4));
        m_advice.cautions.append(QStringLiteral("In the branch test the best LR at batch %1 was at the edge of its bracket (½ to 2 × the linear rule's): the LR "
                                                "exponent (%2) rests on edges; the confirmation's ladder decides the LR.")
                                     .arg(names.join(QStringLiteral(", ")), QString::number(m_advice.lrExponent, 'g', 3)));
    }
    m_advice.tookSeconds = m_runner->elapsedSeconds();
    concludeAdvice(m_advice, m_request, in);
    m_phase = Phase::Done;
    m_deadline.stop();
    // Saved into its own folder, wherever it is (a resumed copy under another folder never
    // replaces the store's advice of the same name); then the folder is let go.
    QString error;
    if (m_store.save(m_advice, &error, m_folder.isEmpty() ? m_id : m_folder).isEmpty())
        m_storeProblem = error;
    m_lock.release();
    emit phaseEnded();
    emit progressed();
    emit finished(true);
}

}  // namespace ddplab::ui
