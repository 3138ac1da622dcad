// SPDX-License-Identifier: GPL-3.0-or-later
// What the advisor's measurements say (docs/advisor.md): the branch test's critical batch, the
// LR's exponent in the batch with the data orders' spread and McCandlish's saturating fit; the
// warmup arm planned and judged; the recommendation with its confidence and cautions. The runs
// are planned in advisor.cpp.

#include "advisor.hpp"

#include "advice_phases.hpp"
#include "batch_evidence.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/series/x_axis.hpp"
#include "client/script/pytorch_script.hpp"
#include "client/session/lab_session.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"
#include "lr_bracket.hpp"

#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr qint64 kShortHorizonSteps = 200;
constexpr double kWarmupTrigger = 2.0;  // the best LR this many times the base's or more gets a warmup arm (Goyal et al.)
constexpr double kWarmupShare = 0.1;    // the arm warms up over this share of the confirmation's steps
constexpr double kBudgetSlack = 1.2;    // past this share of its budget an advice says it overran

QString lrText(double lr)
{
    return QString::number(lr, 'g', 3);
}

// The rule that gives `lr` from the base's LR at k times its batch, within 20 %, else "measured".
QString ruleOf(double lr, double baseLr, double k)
{
    const auto near = [&](double target) { return std::abs(std::log(lr / target)) <= std::log(1.2); };
    if (near(baseLr * k))
        return wire(choice::lr_rule::kLinear);
    if (near(baseLr * std::sqrt(k)))
        return wire(choice::lr_rule::kSqrt);
    if (near(baseLr))
        return wire(choice::lr_rule::kNone);
    return QStringLiteral("measured");
}

// A range test's curve from its run's range_test event; where it ran away, when it did.
RangeCurve rangeCurveOf(double batch, const RunData& run)
{
    RangeCurve curve{batch, 0.0, {}};
    const QJsonObject event = run.rangeTest();
    for (const QJsonValue& value : event.value(wire(protocol::field::kPoints)).toArray()) {
        const QJsonObject point = value.toObject();
        curve.points.append({point.value(wire(protocol::field::kLr)).toDouble(), point.value(wire(protocol::field::kSmoothedLoss)).toDouble()});
    }
    const QString reason = event.value(wire(protocol::field::kStopReason)).toString();
    if (!curve.points.isEmpty() && (reason == wire(protocol::stop_reason::kDiverged) || reason == wire(protocol::stop_reason::kNotFinite)))
        curve.runawayLr = curve.points.last().x();
    return curve;
}

}  // namespace

void Advisor::concludeBranches()
{
    const ddplab::Config& base = m_request.base;
    qint64 perGpu = base.batchSize;
    if (m_request.maxBatchPerGpu > 0)
        perGpu = std::min(perGpu, m_request.maxBatchPerGpu);
    const double target = double(m_request.gpus) * double(perGpu);
    // The range tests: each batch's curve; the one at the batch chosen (below) bounds the confirmation's LRs.
    m_advice.rangeTests.clear();
    for (const QPair<PlannedRun, QSharedPointer<RunData>>& done : m_done) {
        const double batch = double(done.first.gpus) * double(done.first.batch);
        if (done.first.phase == advice_phase::kRangeTest)
            m_advice.rangeTests.append(rangeCurveOf(batch, *done.second));
        if (done.first.phase == advice_phase::kNoiseScale)
            m_advice.noiseScale = done.second->series(wire(protocol::field::kNoiseScale), XAxis::SamplesSeen);
    }
    std::sort(m_advice.rangeTests.begin(), m_advice.rangeTests.end(), [](const RangeCurve& x, const RangeCurve& y) { return x.batch < y.batch; });

    // The branches: by batch, each LR's measure per data order, and each run's curve.
    QMap<qint64, QList<BracketPoint>> byBatch;
    QList<BranchCurve> curves;
    double repeat = kInfinity, baseCenter = 0.0;
    for (const QPair<PlannedRun, QSharedPointer<RunData>>& done : m_done) {
        const PlannedRun& planned = done.first;
        const qint64 batch = qint64(planned.gpus) * planned.batch;
        if (planned.phase == advice_phase::kBranchRepeat) {
            repeat = measureOf(*done.second);
            baseCenter = planned.lr;
        }
        if (planned.phase != advice_phase::kBranch)
            continue;
        const int order = int(planned.seed - base.seed);
        QList<BracketPoint>& points = byBatch[batch];
        const double lr = planned.lr;
        auto found = std::find_if(points.begin(), points.end(), [lr](const BracketPoint& point) { return point.lr == lr; });
        if (found == points.end()) {
            points.append(BracketPoint{lr, QList<double>(m_branchSeeds, kInfinity)});
            found = points.end() - 1;
        }
        if (order >= 0 && order < found->measures.size())
            found->measures[order] = measureOf(*done.second);
        BranchCurve curve{double(batch), lr, order, {}};
        if (std::isfinite(m_checkpointMeasure))
            curve.curve.append({0.0, m_checkpointMeasure});
        for (const QPointF& point : done.second->series(wire(protocol::field::kTrainLoss)))
            if (point.x() > double(m_checkpointStep))
                curve.curve.append({point.x() - double(m_checkpointStep), point.y()});
        curves.append(curve);
    }
    QList<BranchResult> branches;
    QList<BatchOptimum> optima;
    QList<double> edgeBatches;
    double sameLrBase = kInfinity;
    for (auto it = byBatch.begin(); it != byBatch.end(); ++it) {
        const BracketOptimum optimum = findBracketOptimum(it.value());
        double best = kInfinity;
        for (const BracketPoint& point : it.value()) {
            double sum = 0.0;
            for (double measure : point.measures)
                sum += measure;
            best = std::min(best, sum / double(point.measures.size()));
        }
        branches.append({double(it.key()), best});
        if (!optimum.ok)
            continue;
        if (optimum.atLowEdge || optimum.atHighEdge)
            edgeBatches.append(double(it.key()));
        BatchOptimum batchOptimum{double(it.key()), optimum.bestLr, {}};
        for (int order = 0; order < m_branchSeeds; ++order) {
            QList<BracketPoint> own;
            for (const BracketPoint& point : it.value())
                own.append(BracketPoint{point.lr, {point.measures.value(order, kInfinity)}});
            const BracketOptimum ownOptimum = findBracketOptimum(own);
            if (ownOptimum.ok)
                batchOptimum.bestLrPerSeed.append(ownOptimum.bestLr);
        }
        if (batchOptimum.bestLrPerSeed.size() == m_branchSeeds)
            optima.append(batchOptimum);
    }
    if (branches.isEmpty() || !std::isfinite(branches.front().measure))
        return fail(QStringLiteral("every branch at the base batch diverged or failed: the base run's LR does not train from its checkpoint"));
    // The tolerance compares the base batch with itself at one LR and two data orders: the two
    // orders of the branch test, else the repeat.
    const QList<BracketPoint>& basePoints = byBatch.first();
    const double center = m_baseLr * double(byBatch.firstKey()) / double(m_baseBatch);
    for (const BracketPoint& point : basePoints) {
        if (m_branchSeeds >= 2 && std::abs(point.lr / center - 1.0) < 1e-9) {
            sameLrBase = point.measures[0];
            repeat = point.measures[1];
        } else if (m_branchSeeds == 1 && point.lr == baseCenter) {
            sameLrBase = point.measures[0];
        }
    }
    const double ownRepeat = std::isfinite(sameLrBase) && std::isfinite(repeat) ? branches.front().measure * repeat / sameLrBase : repeat;
    const CriticalBatchEstimate critical = criticalBatchFromBranches(branches, ownRepeat);
    m_advice.criticalBatch = critical.criticalBatch;
    m_advice.criticalBatchBeyond = critical.beyondLargest;
    m_advice.branchTolerance = critical.tolerance;
    m_advice.stepsFit = fitStepsToTarget(curves, edgeBatches);
    m_advice.lrOptima = optima;
    const LrExponent exponent = fitLrExponent(optima);
    m_advice.lrExponent = exponent.ok ? exponent.exponent : std::nan("");
    m_advice.lrExponentLow = exponent.ok ? exponent.low : std::nan("");
    m_advice.lrExponentHigh = exponent.ok ? exponent.high : std::nan("");
    m_advice.lrExponentRules = rulesWithinInterval(exponent);
    m_branchEdges = !edgeBatches.isEmpty();
    if (!edgeBatches.isEmpty()) {
        QStringList names;
        for (double batch : edgeBatches)
            names.append(QString::number(batch, 'g', 4));
        m_advice.cautions.append(QStringLiteral("In the branch test the best LR at batch %1 was at the edge of its bracket (½ to 2 × the linear rule's): the LR "
                                                "exponent (%2) rests on edges, and your LR may be far from the best; the confirmation's ladder decides the LR, "
                                                "extended past its own edge when its best sits there.")
                                     .arg(names.join(QStringLiteral(", ")), QString::number(m_advice.lrExponent, 'g', 3)));
    }

    // The batch: N x the base's batch per GPU, unless that is past the critical batch; or, where
    // the branch test measured N GPUs at a larger batch per GPU, the largest of those within its
    // tolerance (the largest batch whose samples to the same loss stay about the base's).
    if (critical.ok && !critical.beyondLargest && critical.criticalBatch < target) {
        m_advice.dontScale = true;
        perGpu = std::max<qint64>(1, qint64(critical.criticalBatch) / m_request.gpus);
    } else if (critical.ok) {
        while (byBatch.contains(qint64(m_request.gpus) * perGpu * 2) && double(m_request.gpus) * double(perGpu * 2) <= critical.criticalBatch)
            perGpu *= 2;
    }
    m_chosenBatchPerGpu = perGpu;
    // The range test at the chosen batch (at N x the base's batch per GPU when it is smaller) bounds the LRs.
    const double bounding = std::max(target, double(m_request.gpus) * double(perGpu));
    m_divergenceLr = 0.0;  // 0: it never ran away, and bounds nothing
    for (const RangeCurve& range : m_advice.rangeTests)
        if (range.batch == bounding)
            m_divergenceLr = range.runawayLr;
    if (!planThroughput())
        planLadder();
}

void Advisor::planLadder()
{
    const double chosen = double(m_request.gpus) * double(m_chosenBatchPerGpu);
    // The ladder: centred on the branch test's own best LR at the chosen batch when it measured
    // that batch, else on the exponent's prediction (else the linear rule), kept below the range
    // test's divergence LR.
    const double p = std::isfinite(m_advice.lrExponent) ? m_advice.lrExponent : 1.0;
    double ladderCenter = m_baseLr * std::pow(chosen / double(m_baseBatch), p);
    for (const BatchOptimum& optimum : m_advice.lrOptima)
        if (optimum.batch == chosen && optimum.bestLr > 0)
            ladderCenter = optimum.bestLr;
    if (m_divergenceLr > 0)
        ladderCenter = std::min(ladderCenter, m_divergenceLr / 2.0);
    QList<double> lrs;
    for (int i = 0; i < kLadder; ++i)
        lrs.append(ladderCenter * std::pow(std::sqrt(2.0), i - kLadder / 2));
    planConfirmation(lrs);
}

// A phase's runs as a bracket: one point per LR, a measure per seed.
QList<BracketPoint> Advisor::pointsOf(const QString& phase) const
{
    QList<BracketPoint> points;
    for (const QPair<PlannedRun, QSharedPointer<RunData>>& done : m_done) {
        if (done.first.phase != phase)
            continue;
        const double lr = done.first.lr;
        auto found = std::find_if(points.begin(), points.end(), [lr](const BracketPoint& point) { return point.lr == lr; });
        if (found == points.end())
            points.append(BracketPoint{lr, {measureOf(*done.second)}});
        else
            found->measures.append(measureOf(*done.second));
    }
    return points;
}

bool Advisor::planWarmupArm(const BracketOptimum& optimum)
{
    // Goyal et al. 2017 scale the LR k-fold and warm up to it from the base's LR; the arm asks
    // whether that helps here, at the ladder's best LR and its neighbour.
    WarmupArm& arm = m_advice.warmup;
    const qint64 steps = std::max<qint64>(1, qRound64(kWarmupShare * double(m_confirmationSteps)));
    if (optimum.measuredBestLr < kWarmupTrigger * m_baseLr) {
        arm.verdict = QStringLiteral("not tested: the best LR (%1) is within %2× of yours (%3), so there is little to warm up to.")
                          .arg(lrText(optimum.measuredBestLr), lrText(kWarmupTrigger), lrText(m_baseLr));
        return false;
    }
    if (warmupStepCount(m_request.base) >= steps) {
        arm.verdict = QStringLiteral("not tested: your own warmup (%1 steps) ran in every confirmation run.").arg(warmupStepCount(m_request.base));
        return false;
    }
    // Two LRs the ladder ran without warmup, so the comparison is at the same LRs and seeds: the
    // best and its neighbour above (warmup is meant to let a higher LR train), else below.
    QList<double> ladder;
    for (const BracketPoint& point : pointsOf(advice_phase::kConfirmation))
        ladder.append(point.lr);
    std::sort(ladder.begin(), ladder.end());
    const qsizetype best = ladder.indexOf(optimum.measuredBestLr);
    if (best < 0 || ladder.size() < 2)
        return false;
    const double neighbour = best + 1 < ladder.size() ? ladder[best + 1] : ladder[best - 1];
    m_warmupSteps = steps;
    arm.tested = true;
    arm.steps = steps;
    arm.lrs = {optimum.measuredBestLr, neighbour};
    QList<PlannedRun> runs;
    for (double lr : arm.lrs) {
        for (int seed = 0; seed < kSeeds; ++seed) {
            PlannedRun run = confirmationRun(advice_phase::kWarmup, lr, m_request.base.seed + seed);
            run.config.warmupSteps = steps;
            run.config.warmupEpochs = 0.0;
            run.config.warmupStartFactor = std::min(1.0, m_baseLr / lr);
            runs.append(run);
        }
    }
    m_runsInPlan += int(runs.size());
    runPhase(Phase::Warmup, runs);
    return true;
}

// The warmup arm against the ladder without it: the verdict in words, and when it helped, the
// advice takes its LR and warmup.
void Advisor::judgeWarmup(const QList<BracketPoint>& without)
{
    Advice& a = m_advice;
    WarmupArm& arm = a.warmup;
    if (!arm.tested)
        return;
    // The ladder at the arm's LRs only: warmup's effect, not another LR's.
    QList<BracketPoint> same;
    for (const BracketPoint& point : without)
        if (arm.lrs.contains(point.lr))
            same.append(point);
    const WarmupComparison comparison = compareWarmup(same, pointsOf(advice_phase::kWarmup));
    arm.lrWith = comparison.lrWith;
    arm.measureWith = comparison.ok ? comparison.bestWith : std::nan("");
    arm.errorWith = comparison.ok ? comparison.errorWith : std::nan("");
    arm.lrWithout = comparison.lrWithout;
    arm.measureWithout = comparison.ok ? comparison.bestWithout : std::nan("");
    arm.errorWithout = comparison.ok ? comparison.errorWithout : std::nan("");
    arm.helped = comparison.ok && comparison.helped;
    arm.startFactor = comparison.ok ? std::min(1.0, m_baseLr / arm.lrWith) : 0.0;
    if (!comparison.ok) {
        arm.verdict = QStringLiteral("the warmup arm (%1 steps from your LR) diverged at every LR it ran: no verdict, and no warmup added.").arg(arm.steps);
        return;
    }
    const QString numbers = QStringLiteral("%1 ± %2 with it (LR %3) against %4 ± %5 without (LR %6), %7 seeds each")
                                .arg(QString::number(arm.measureWith, 'g', 4), QString::number(arm.errorWith, 'g', 2), lrText(arm.lrWith),
                                     QString::number(arm.measureWithout, 'g', 4), QString::number(arm.errorWithout, 'g', 2), lrText(arm.lrWithout))
                                .arg(kSeeds);
    if (arm.helped) {
        arm.verdict = QStringLiteral("a linear warmup over %1 steps from your LR helped: %2, more than two standard errors apart; the advice warms up.")
                          .arg(arm.steps)
                          .arg(numbers);
        a.lr = arm.lrWith;
        a.warmupSteps = arm.steps;
        a.schedule = QStringLiteral("linear warmup over %1 steps from %2 × the LR (your LR), then constant (the warmup arm's schedule)")
                         .arg(arm.steps)
                         .arg(lrText(arm.startFactor));
    } else if (comparison.hurt) {
        arm.verdict = QStringLiteral("a linear warmup over %1 steps from your LR hurt: %2; on this horizon warmup costs more steps than it saves, and the "
                                     "advice adds none.")
                          .arg(arm.steps)
                          .arg(numbers);
    } else {
        arm.verdict = QStringLiteral("a linear warmup over %1 steps from your LR made no measurable difference: %2; the advice adds none.")
                          .arg(arm.steps)
                          .arg(numbers);
    }
}

void Advisor::decide()
{
    const QList<BracketPoint> points = pointsOf(advice_phase::kConfirmation);
    const BracketOptimum optimum = findBracketOptimum(points);
    if (!optimum.ok)
        return fail(QStringLiteral("fewer than 3 of the confirmation's LRs trained without diverging; the advice cannot be trusted"));
    const ddplab::Config& base = m_request.base;
    Advice& a = m_advice;
    a.criticalBatchFinding = criticalBatchWords(a);
    if (a.stepsFit.ok && a.stepsFit.doubts.isEmpty() && a.stepsFit.fit.bCrit < double(a.gpus) * double(m_chosenBatchPerGpu))
        a.cautions.append(QStringLiteral("McCandlish's fit puts the critical batch at %1, below the recommended %2: past it, more GPUs save few steps.")
                              .arg(qRound64(a.stepsFit.fit.bCrit))
                              .arg(qint64(a.gpus) * m_chosenBatchPerGpu));
    a.batchPerGpu = m_chosenBatchPerGpu;
    a.gradAccum = 1;
    a.effectiveBatch = qint64(a.gpus) * a.batchPerGpu;
    a.lr = optimum.bestLr;
    a.warmupSteps = warmupStepCount(base);
    a.safeLow = optimum.safeLow;
    a.safeHigh = optimum.safeHigh;
    a.schedule = QStringLiteral("constant after %1 warmup steps (the schedule the confirmation used)").arg(a.warmupSteps);
    judgeWarmup(points);
    const double k = double(a.effectiveBatch) / double(m_baseBatch);
    a.lrRule = ruleOf(a.lr, m_baseLr, k);
    a.objective = QStringLiteral("the lowest %1 after %2 samples at %3 GPUs × %4, over %5 LRs √2 apart × %6 seeds; the batch is the "
                                 "largest the branch test measured (up to an effective %8) that it found within %7 % of the base batch's "
                                 "loss at equal samples")
                      .arg(a.measureName)
                      .arg(qRound64(a.horizonSamples))
                      .arg(a.gpus)
                      .arg(a.batchPerGpu)
                      .arg(points.size())
                      .arg(optimum.seeds)
                      .arg(qRound(100.0 * a.branchTolerance))
                      .arg(m_largestBranchBatch);
    if (a.goodput && a.goodput->chosen)
        a.objective += QStringLiteral("; of its batches per GPU, the one with the most goodput timed on %1").arg(a.goodput->timedOn);
    // Steps to the base's quality at the recommendation: the confirmation run nearest its LR.
    const double baseMeasure = m_advice.evidence.isEmpty() ? kInfinity : m_advice.evidence.front().measure;
    double nearest = kInfinity;
    const QString matched = a.warmup.helped ? advice_phase::kWarmup : advice_phase::kConfirmation;
    for (const auto& [planned, run] : m_done) {
        if (planned.phase != matched)
            continue;
        const double distance = std::abs(std::log(planned.lr / a.lr));
        if (distance < nearest) {
            nearest = distance;
            const auto step = run->firstStepMeeting(wire(protocol::field::kTrainLoss), [&](double value) { return value <= baseMeasure; });
            a.stepsToMatch = step ? *step : -1;
        }
    }
    // Confidence and cautions, each a sentence.
    QStringList weak;
    if (optimum.withinNoise)
        weak.append(QStringLiteral("the best LR's neighbours are within noise"));
    if (optimum.atLowEdge || optimum.atHighEdge)
        weak.append(QStringLiteral("the best LR sits at the edge of the LRs tried"));
    if (m_confirmationSteps < kShortHorizonSteps)
        weak.append(QStringLiteral("the horizon is under %1 steps").arg(kShortHorizonSteps));
    if (m_failedRuns > 0)
        weak.append(QStringLiteral("%1 runs diverged or failed").arg(m_failedRuns));
    a.confidence = weak.isEmpty() ? QStringLiteral("high") : weak.size() == 1 ? QStringLiteral("moderate") : QStringLiteral("low");
    a.confidenceReason = weak.isEmpty() ? QStringLiteral("%1 seeds agree, the best LR lies inside the ladder, over %2 steps").arg(optimum.seeds).arg(m_confirmationSteps)
                                        : weak.join(QStringLiteral("; "));
    if (optimum.withinNoise)
        a.cautions.append(QStringLiteral("Differences between the best LRs are within noise: add repeats before trusting the LR to better than a factor of %1.").arg(lrText(optimum.safeHigh / optimum.safeLow)));
    if (optimum.atLowEdge || optimum.atHighEdge)
        a.cautions.append(QStringLiteral("The best LR is at the edge of the LRs measured (%1 to %2): the optimum may lie beyond.").arg(lrText(points.front().lr), lrText(points.back().lr)));
    if (base.optimizer == OptimizerKind::Adam || base.optimizer == OptimizerKind::AdamW || base.optimizer == OptimizerKind::AdamBsi ||
        base.optimizer == OptimizerKind::AdamWBsi)
        a.cautions.append(QStringLiteral("Adam/AdamW: the noise scale can underestimate the critical batch by orders of magnitude (Merrill et al. 2025); "
                                         "the LR was bracketed, not taken from a rule."));
    if (a.batchPerGpu == base.batchSize)
        a.cautions.append(QStringLiteral("If the model has BatchNorm, its batch statistics are over each GPU's batch: the batch per GPU was kept at %1, and "
                                         "the noise scale is biased by the coupling of a batch's samples.").arg(a.batchPerGpu));
    else
        a.cautions.append(QStringLiteral("If the model has BatchNorm, its batch statistics are over each GPU's batch: %1 per GPU instead of your %2 changes "
                                         "them (the confirmation measured the LR with it), and the noise scale is biased by the coupling of a batch's samples.")
                              .arg(a.batchPerGpu)
                              .arg(base.batchSize));
    if (a.horizonSamples < a.plannedSamples)
        a.cautions.append(QStringLiteral("The LR was confirmed over %1 samples (%2 steps) of the %3 planned: over the whole training it is extrapolated, "
                                         "and a longer horizon usually prefers a somewhat lower LR.")
                              .arg(qRound64(a.horizonSamples)).arg(m_confirmationSteps).arg(qRound64(a.plannedSamples)));
    else if (m_confirmationSteps < kShortHorizonSteps)
        a.cautions.append(QStringLiteral("The whole planned training is %1 steps at this batch, under about %2: over so few steps the LRs' ranking is "
                                         "decided early and noisily.")
                              .arg(m_confirmationSteps).arg(kShortHorizonSteps));
    if (m_divergenceLr > 0 && optimum.bestLr > m_divergenceLr / 2.0)
        a.cautions.append(QStringLiteral("The range test's loss ran away at LR %1, within 2× of the recommended %2: the recommendation is close to divergence.")
                              .arg(lrText(m_divergenceLr), lrText(optimum.bestLr)));
    if (a.effectiveBatch > m_largestBranchBatch)
        a.cautions.append(QStringLiteral("The batch is beyond those the branch test measured."));
    if (a.dontScale)
        a.cautions.append(QStringLiteral("%1 GPUs × %2 per GPU is past the measured critical batch (%3): a smaller batch per GPU (here %4) or fewer GPUs "
                                         "trains the same samples as well; more GPUs at the base's batch would spend samples without saving steps.")
                              .arg(a.gpus).arg(base.batchSize).arg(qRound64(a.criticalBatch)).arg(a.batchPerGpu));
    if (base.device == DeviceKind::Cpu && !timesTransfer())
        a.cautions.append(QStringLiteral("Measured in float32 on this computer's CPU: GPUs computing in bf16 or TF32, and their step times, may differ; "
                                         "the advice does not choose the batch by speed."));
    else if (base.device == DeviceKind::Cpu)
        a.cautions.append(QStringLiteral("Measured in float32 on CPU processes on %1: GPUs computing in bf16 or TF32 may differ, and each batch's "
                                         "speed was timed on those processes, not on GPUs.").arg(m_session.target().describe()));
    if (base.workload == WorkloadKind::Linreg && base.lossReduction == LossReduction::Sum)
        a.cautions.append(QStringLiteral("The loss is summed over each GPU's batch: the LR is the nominal one for a batch of %1 per GPU (per mean gradient, %2).")
                              .arg(a.batchPerGpu).arg(lrText(a.lr * double(a.batchPerGpu))));

    if (a.warmup.helped)
        a.cautions.append(QStringLiteral("The safe LR range was measured without the warmup the advice adds; with it, somewhat higher LRs may train as well."));
    putRecommendation(a, base);
    a.tookSeconds = elapsedMs() / 1000.0;
    // The plan is cut to the budget only down to its floors (the base run, a range test at each
    // batch, the shortest branches and confirmation): a slow model on a slow machine goes past it.
    if (a.tookSeconds > kBudgetSlack * m_request.budgetSeconds)
        a.trimmed.append(QStringLiteral("it took %1 min against a budget of %2 min: on this computer even its shortest plan (the base run, a "
                                        "range test at each batch, branches and a confirmation of %3 steps) costs more, and it is not cut "
                                        "further; fewer GPUs to plan for make fewer branches")
                             .arg(QString::number(a.tookSeconds / 60.0, 'f', 1), QString::number(m_request.budgetSeconds / 60.0, 'f', 1))
                             .arg(m_confirmationSteps));
    m_phase = Phase::Done;
    emit progressed();
    emit finished(true);
}

}  // namespace ddplab::ui
