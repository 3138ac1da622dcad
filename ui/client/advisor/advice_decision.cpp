// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_decision.hpp"

#include "advice_phases.hpp"
#include "confidence.hpp"
#include "advice_plan.hpp"
#include "client/wire.hpp"
#include "core/derived.hpp"
#include "core/key_names.hpp"
#include "core/lr_schedule.hpp"
#include "core/workload_table.hpp"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr qint64 kShortTrainingSteps = 200;
constexpr double kWarmupTrigger = 2.0;  // the advised LR this many times yours or more gets a warmup arm (Goyal et al.)
constexpr double kBudgetSlack = 1.1;    // past this share of its budget an advice says it overran
constexpr double kSameLr = 1.001;

// "1 step", "10 steps".
QString stepsText(qint64 steps)
{
    return steps == 1 ? QStringLiteral("1 step") : QStringLiteral("%1 steps").arg(steps);
}

QString lrText(double lr)
{
    return QString::number(lr, 'g', 3);
}

qint64 cappedPerGpu(const AdviceRequest& request)
{
    return request.maxBatchPerGpu > 0 ? std::min<qint64>(request.base.batchSize, request.maxBatchPerGpu) : request.base.batchSize;
}

bool isAdam(const ddplab::Config& c)
{
    return c.optimizer == OptimizerKind::Adam || c.optimizer == OptimizerKind::AdamW || c.optimizer == OptimizerKind::AdamBsi ||
           c.optimizer == OptimizerKind::AdamWBsi;
}

}  // namespace

QList<BracketPoint> pointsOf(const QList<AdviceEvidence>& evidence, const QString& phase)
{
    QList<BracketPoint> points;
    for (const AdviceEvidence& run : evidence) {
        if (run.phase != phase)
            continue;
        const double lr = run.lr;
        auto found = std::find_if(points.begin(), points.end(), [lr](const BracketPoint& point) { return point.lr == lr; });
        const double measure = std::isfinite(run.measure) ? run.measure : kInfinity;
        if (found == points.end())
            points.append(BracketPoint{lr, {measure}});
        else
            found->measures.append(measure);
    }
    return points;
}

namespace {

// The branch test's own brackets (phase kBranch), each over the orders every LR of it ran, in the
// order their LRs are to be added: the batches smaller than yours, yours, then the larger ones.
struct OwnBracket {
    double batch = 0.0;
    int gpus = 0;
    qint64 perGpu = 0;
    QList<qint64> seeds;
    QList<BracketPoint> points;  // ascending LRs, one measure per seed of `seeds`
};

QList<OwnBracket> ownBrackets(const AdviceRequest& request, const QList<AdviceEvidence>& evidence)
{
    const ddplab::Config& base = request.base;
    const double yours = double(base.worldSize * base.gradAccum) * double(cappedPerGpu(request));
    QMap<double, QMap<double, QMap<qint64, double>>> brackets;
    QMap<double, QPair<int, qint64>> shapes;
    for (const AdviceEvidence& run : evidence) {
        if (run.phase != advice_phase::kBranch)
            continue;
        const double batch = double(run.gpus) * double(run.batchPerGpu);
        brackets[batch][run.lr][run.seed] = std::isfinite(run.measure) ? run.measure : kInfinity;
        shapes.insert(batch, {run.gpus, run.batchPerGpu});
    }
    QList<double> order;
    for (auto it = brackets.cbegin(); it != brackets.cend(); ++it)
        if (it.key() < yours)
            order.append(it.key());
    if (brackets.contains(yours))
        order.append(yours);
    for (auto it = brackets.cbegin(); it != brackets.cend(); ++it)
        if (it.key() > yours)
            order.append(it.key());
    QList<OwnBracket> own;
    for (double batch : order) {
        const QMap<double, QMap<qint64, double>>& bracket = brackets[batch];
        QList<qint64> seeds = bracket.cbegin()->keys();
        for (const QMap<qint64, double>& byOrder : bracket)
            seeds.erase(std::remove_if(seeds.begin(), seeds.end(), [&](qint64 seed) { return !byOrder.contains(seed); }), seeds.end());
        if (seeds.isEmpty())
            continue;
        OwnBracket one{batch, shapes[batch].first, shapes[batch].second, seeds, {}};
        for (auto lr = bracket.cbegin(); lr != bracket.cend(); ++lr) {
            BracketPoint point{lr.key(), {}};
            for (qint64 seed : seeds)
                point.measures.append(lr->value(seed));
            one.points.append(point);
        }
        own.append(one);
    }
    return own;
}

double meanOrInfinity(const QList<double>& values)
{
    double sum = 0.0;
    for (double value : values)
        sum += value;
    return values.isEmpty() || !std::isfinite(sum) ? kInfinity : sum / double(values.size());
}

}  // namespace

QList<BracketExtension> bracketMidpoints(const AdviceRequest& request, const QList<AdviceEvidence>& evidence)
{
    const ddplab::Config& base = request.base;
    const double yours = double(base.worldSize * base.gradAccum) * double(cappedPerGpu(request));
    const QList<OwnBracket> brackets = ownBrackets(request, evidence);
    QList<BracketExtension> points;
    if (std::none_of(brackets.begin(), brackets.end(), [yours](const OwnBracket& b) { return b.batch < yours; }))
        return points;
    constexpr double kCoarse = 1.9;  // neighbours this far apart (2x) have a ladder step between them
    for (const OwnBracket& bracket : brackets) {
        if (bracket.batch > yours)
            break;
        const BracketOptimum optimum = findBracketOptimum(bracket.points);
        if (!optimum.ok || optimum.atLowEdge || optimum.atHighEdge)
            continue;
        qsizetype best = 0;
        while (best < bracket.points.size() && bracket.points[best].lr != optimum.measuredBestLr)
            ++best;
        if (best == 0 || best + 1 >= bracket.points.size())
            continue;
        const BracketPoint& below = bracket.points[best - 1];
        const BracketPoint& above = bracket.points[best + 1];
        const bool up = meanOrInfinity(above.measures) <= meanOrInfinity(below.measures);
        const double neighbour = up ? above.lr : below.lr;
        const double lr = optimum.measuredBestLr;
        if (std::max(neighbour, lr) / std::min(neighbour, lr) < kCoarse)
            continue;
        points.append({bracket.gpus, bracket.perGpu, std::sqrt(lr * neighbour), bracket.seeds, up});
    }
    return points;
}

QList<BracketExtension> bracketEdgeExtensions(const AdviceRequest& request, const QList<AdviceEvidence>& evidence)
{
    QList<BracketExtension> extensions;
    for (const OwnBracket& bracket : ownBrackets(request, evidence)) {
        const BracketOptimum optimum = findBracketOptimum(bracket.points);
        if (!optimum.ok || !(optimum.atLowEdge || optimum.atHighEdge))
            continue;
        const double lr = optimum.atHighEdge ? bracket.points.last().lr * 2.0 : bracket.points.first().lr / 2.0;
        extensions.append({bracket.gpus, bracket.perGpu, lr, bracket.seeds, optimum.atHighEdge});
    }
    return extensions;
}

BranchConclusion concludeBranches(const AdviceRequest& request, const QList<AdviceEvidence>& evidence, const QList<RangeCurve>& rangeTests)
{
    BranchConclusion c;
    const ddplab::Config& base = request.base;
    const qint64 perGpu = cappedPerGpu(request);
    const double firstBatch = double(base.worldSize * base.gradAccum) * double(perGpu);
    const double target = double(request.gpus) * double(perGpu);
    c.judgement = judgeBatches(evidence, firstBatch);
    if (!c.judgement.ok) {
        c.failure = QStringLiteral("every branch at the base batch diverged or failed: the base run's LR does not train from its checkpoint");
        return c;
    }
    // Each batch's bracket over the orders every LR of it ran (the branch test's own, not the
    // closest call's added ones): its best LR, and each order's.
    QMap<double, QMap<double, QMap<qint64, double>>> brackets;
    QList<BranchCurve> curves;
    for (const AdviceEvidence& run : evidence) {
        if (run.phase != advice_phase::kBranch)
            continue;
        const double batch = double(run.gpus) * double(run.batchPerGpu);
        brackets[batch][run.lr][run.seed - base.seed] = std::isfinite(run.measure) ? run.measure : kInfinity;
        curves.append({batch, run.lr, int(run.seed - base.seed), run.curve});
    }
    for (auto batch = brackets.cbegin(); batch != brackets.cend(); ++batch) {
        int orders = std::numeric_limits<int>::max();
        for (const QMap<qint64, double>& byOrder : batch.value())
            orders = std::min(orders, int(byOrder.size()));
        QList<BracketPoint> points;
        for (auto lr = batch->cbegin(); lr != batch->cend(); ++lr) {
            BracketPoint point{lr.key(), {}};
            for (int order = 0; order < orders; ++order)
                point.measures.append(lr->value(order, kInfinity));
            points.append(point);
        }
        const BracketOptimum optimum = findBracketOptimum(points);
        if (!optimum.ok)
            continue;
        if (optimum.atLowEdge || optimum.atHighEdge)
            c.edgeBatches.append(batch.key());
        BatchOptimum batchOptimum{batch.key(), optimum.bestLr, {}};
        for (int order = 0; order < orders; ++order) {
            QList<BracketPoint> own;
            for (const BracketPoint& point : points)
                own.append(BracketPoint{point.lr, {point.measures.value(order, kInfinity)}});
            const BracketOptimum ownOptimum = findBracketOptimum(own);
            if (ownOptimum.ok)
                batchOptimum.bestLrPerSeed.append(ownOptimum.bestLr);
        }
        if (batchOptimum.bestLrPerSeed.size() == orders)
            c.optima.append(batchOptimum);
    }
    c.fit = fitStepsToTarget(curves, c.edgeBatches);
    c.exponent = fitLrExponent(c.optima);

    // The batch: N x your batch per GPU, unless that is past the critical batch; or, where the
    // branch test measured N GPUs at a larger batch per GPU, the largest of those it passed.
    const double critical = c.judgement.criticalBatch;
    qint64 chosen = perGpu;
    if (!c.judgement.beyondLargest && critical < target) {
        c.dontScale = true;
        chosen = std::max<qint64>(1, qint64(critical) / request.gpus);
    } else {
        const auto measured = [&](double batch) {
            return std::any_of(c.judgement.batches.begin(), c.judgement.batches.end(), [batch](const BatchVerdict& v) { return v.batch == batch; });
        };
        while (measured(double(request.gpus) * double(chosen * 2)) && double(request.gpus) * double(chosen * 2) <= critical)
            chosen *= 2;
    }
    c.chosenPerGpu = chosen;
    const double chosenBatch = double(request.gpus) * double(chosen);
    // The range test at the chosen batch (at N x your batch per GPU when that is larger) bounds the LRs.
    const double bounding = std::max(target, chosenBatch);
    for (const RangeCurve& range : rangeTests)
        if (range.batch == bounding)
            c.divergenceLr = range.runawayLr;
    c.ladderCenter = ladderCenterAt(request, c, chosen);
    return c;
}

double ladderCenterAt(const AdviceRequest& request, const BranchConclusion& c, qint64 perGpu)
{
    const double chosenBatch = double(request.gpus) * double(perGpu);
    const double yourBatch = double(effectiveBatchSize(request.base));
    const double yourLr = effectiveLr(request.base);
    const double p = c.exponent.ok ? c.exponent.exponent : 1.0;
    double center = yourLr * std::pow(chosenBatch / yourBatch, p);
    double atChosen = 0.0, atYours = 0.0;
    for (const BatchOptimum& optimum : c.optima) {
        if (optimum.batch == chosenBatch && optimum.bestLr > 0)
            atChosen = optimum.bestLr;
        if (optimum.batch == yourBatch && optimum.bestLr > 0)
            atYours = optimum.bestLr;
    }
    // The branches start at the checkpoint, halfway, where a lower LR wins more than it does from
    // the start (the reduced Fashion CNN's bracket at your own batch: 0.025 best, where your 0.05
    // trains better from the start over your horizon). That bias is the same at every batch, so
    // the ratio of the branch optima carries over: your LR, which trains at your batch from the
    // start, times the chosen batch's optimum over yours.
    if (atChosen > 0 && atYours > 0)
        center = yourLr * atChosen / atYours;
    else if (atChosen > 0)
        center = atChosen;
    if (c.divergenceLr > 0)
        center = std::min(center, c.divergenceLr / 2.0);
    return center;
}

LadderNext nextOnLadder(const LrChoice& choice, const QList<BracketPoint>& ladder, double divergenceLr, int extensions)
{
    LadderNext next;
    if (ladder.isEmpty())
        return next;
    double lowest = kInfinity, highest = 0.0;
    for (const BracketPoint& point : ladder) {
        lowest = std::min(lowest, point.lr);
        highest = std::max(highest, point.lr);
    }
    const bool down = !choice.ok || choice.atLowEdge;
    const bool up = choice.ok && choice.atHighEdge;
    if (!down && !up)
        return next;
    if (extensions >= kMostExtensions) {
        next.why = QStringLiteral("the ladder was extended %1 times past its edge and its best LR still sits there").arg(extensions);
        return next;
    }
    if (down) {
        next.down = true;
        next.lrs = {lowest / kLadderStep, lowest / 2.0};
        return next;
    }
    if (divergenceLr > 0 && highest * 2.0 >= divergenceLr) {
        next.why = QStringLiteral("LRs above %1 pass half the range test's runaway LR %2").arg(lrText(highest), lrText(divergenceLr));
        return next;
    }
    next.lrs = {highest * kLadderStep, highest * 2.0};
    return next;
}

QList<double> warmupArmLrs(const AdviceRequest& request, const LrChoice& choice, const QList<BracketPoint>& unsorted, qint64 confirmationSteps, QString* verdict)
{
    const double baseLr = effectiveLr(request.base);
    const qint64 steps = warmupArmSteps(confirmationSteps);
    if (!choice.ok)
        return {};
    if (choice.lr < kWarmupTrigger * baseLr) {
        // (Said as it is: an LR below yours was called "within 2× of yours".)
        *verdict = choice.lr <= baseLr ? QStringLiteral("not tested: the LR (%1) is not above yours (%2), so there is nothing to warm up to.")
                                             .arg(lrText(choice.lr), lrText(baseLr))
                                       : QStringLiteral("not tested: the LR (%1) is less than %2× yours (%3), so there is little to warm up to.")
                                             .arg(lrText(choice.lr), lrText(kWarmupTrigger), lrText(baseLr));
        return {};
    }
    if (warmupStepCount(request.base) >= steps) {
        *verdict = QStringLiteral("not tested: your own warmup (%1 steps) ran in every confirmation run.").arg(warmupStepCount(request.base));
        return {};
    }
    QList<BracketPoint> ladder = unsorted;
    std::sort(ladder.begin(), ladder.end(), [](const BracketPoint& a, const BracketPoint& b) { return a.lr < b.lr; });
    qsizetype best = -1;
    for (qsizetype i = 0; i < ladder.size(); ++i)
        if (std::abs(ladder[i].lr / choice.lr - 1.0) < 1e-9)
            best = i;
    if (best < 0 || ladder.size() < 2)
        return {};
    // Its neighbour above (warmup is meant to let a higher LR train), when that one trained in
    // every seed and passed the divergence rule itself; else the one below.
    const auto finite = [](const BracketPoint& point) {
        return std::all_of(point.measures.begin(), point.measures.end(), [](double m) { return std::isfinite(m); });
    };
    const auto safe = [&](qsizetype i) { return finite(ladder[i]) && (i + 1 >= ladder.size() || finite(ladder[i + 1])); };
    const qsizetype neighbour = best + 1 < ladder.size() && safe(best + 1) ? best + 1 : best - 1;
    if (neighbour < 0)
        return {ladder[best].lr};
    return {ladder[best].lr, ladder[neighbour].lr};
}

void judgeWarmup(Advice& a, const AdviceRequest& request, const QList<BracketPoint>& without, const QList<BracketPoint>& armPoints)
{
    WarmupArm& arm = a.warmup;
    if (!arm.tested)
        return;
    const double baseLr = effectiveLr(request.base);
    // The ladder at the arm's LRs only: warmup's effect, not another LR's.
    QList<BracketPoint> same;
    for (const BracketPoint& point : without)
        if (arm.lrs.contains(point.lr))
            same.append(point);
    const WarmupComparison comparison = compareWarmup(same, armPoints);
    arm.lrWith = comparison.lrWith;
    arm.measureWith = comparison.ok ? comparison.bestWith : std::nan("");
    arm.errorWith = comparison.ok ? comparison.errorWith : std::nan("");
    arm.lrWithout = comparison.lrWithout;
    arm.measureWithout = comparison.ok ? comparison.bestWithout : std::nan("");
    arm.errorWithout = comparison.ok ? comparison.errorWithout : std::nan("");
    arm.helped = comparison.ok && comparison.helped;
    arm.startFactor = comparison.ok ? std::min(1.0, baseLr / arm.lrWith) : 0.0;
    if (!comparison.ok) {
        arm.verdict = QStringLiteral("the warmup arm (%1 from your LR) diverged at every LR it ran: no verdict, and no warmup added.").arg(stepsText(arm.steps));
        return;
    }
    const QString numbers = QStringLiteral("%1 ± %2 with it (LR %3) against %4 ± %5 without (LR %6), %7 seeds each")
                                .arg(QString::number(arm.measureWith, 'g', 4), QString::number(arm.errorWith, 'g', 2), lrText(arm.lrWith),
                                     QString::number(arm.measureWithout, 'g', 4), QString::number(arm.errorWithout, 'g', 2), lrText(arm.lrWithout))
                                .arg(kSeeds);
    if (arm.helped) {
        arm.verdict = QStringLiteral("a linear warmup over %1 from your LR helped: %2, more than two standard errors apart; the advice warms up.")
                          .arg(stepsText(arm.steps))
                          .arg(numbers);
        a.lr = arm.lrWith;
        a.warmupSteps = arm.steps;
        a.schedule = QStringLiteral("linear warmup over %1 from %2 × the LR (your LR), then constant (the warmup arm's schedule)")
                         .arg(stepsText(arm.steps))
                         .arg(lrText(arm.startFactor));
    } else if (comparison.hurt) {
        arm.verdict = QStringLiteral("a linear warmup over %1 from your LR hurt: %2; on this horizon warmup costs more steps than it saves, and the "
                                     "advice adds none.")
                          .arg(stepsText(arm.steps))
                          .arg(numbers);
    } else {
        arm.verdict = QStringLiteral("a linear warmup over %1 from your LR made no measurable difference: %2; the advice adds none.")
                          .arg(stepsText(arm.steps))
                          .arg(numbers);
    }
}

Goodput goodputBasis(const Advice& a, double baseBatch, const QString& timedOn)
{
    Goodput goodput;
    goodput.timedOn = timedOn;
    goodput.baseBatch = baseBatch;
    const StepsToTarget& fit = a.stepsFit;
    if (fit.ok && fit.doubts.isEmpty() && fit.fit.bCrit > 0 && std::isfinite(fit.fit.bCrit)) {
        goodput.noiseScale = fit.fit.bCrit;
        goodput.noiseScaleFrom = QStringLiteral("McCandlish's fit over the branch test (B_crit)");
    } else if (!a.noiseScale.isEmpty() && a.noiseScale.last().y() > 0 && std::isfinite(a.noiseScale.last().y())) {
        goodput.noiseScale = a.noiseScale.last().y();
        goodput.noiseScaleFrom = QStringLiteral("B_simple at the base run's end");
    }
    // The branch test measured the efficiency up to its critical batch: a noise scale that puts it
    // lower there (B_simple runs low with BatchNorm and Adam, and on problems with little noise)
    // is raised to what the measurement allows.
    const double floor = noiseScaleFloor(a.criticalBatch, a.branchTolerance, baseBatch);
    if (floor > goodput.noiseScale) {
        const QString measured = QStringLiteral("the branch test: batch %1 within %2 % of yours at equal samples needs at least this")
                                     .arg(a.criticalBatch)
                                     .arg(QString::number(100.0 * a.branchTolerance, 'g', 3));
        goodput.noiseScaleFrom = goodput.noiseScale > 0
                                     ? measured + QStringLiteral("; %1 gave %2").arg(goodput.noiseScaleFrom).arg(goodput.noiseScale, 0, 'g', 3)
                                     : measured;
        goodput.noiseScale = floor;
    }
    return goodput;
}

QStringList layerCautions(const ModelLayers& layers, qint64 batchPerGpu, qint64 yours)
{
    QStringList cautions;
    if (!layers.known)
        return cautions;
    if (layers.batchNorm && batchPerGpu == yours)
        cautions.append(kBatchNormCaution + QStringLiteral(": its statistics are over each GPU's batch, kept at your %1 per GPU; the noise scale is "
                                       "biased by the coupling of a batch's samples.")
                            .arg(batchPerGpu));
    else if (layers.batchNorm)
        cautions.append(kBatchNormCaution + QStringLiteral(": its statistics are over each GPU's batch, and %1 per GPU instead of your %2 changes them "
                                       "(every run of the advice at that batch was emulated with it, so the LR was measured with it); the noise scale is "
                                       "biased by the coupling of a batch's samples.")
                            .arg(batchPerGpu)
                            .arg(yours));
    if (layers.dropout)
        cautions.append(QStringLiteral("Your model has Dropout: emulated GPUs draw their masks from their rank's one stream, not from a generator each as "
                                       "real GPUs do, so the masks differ (statistically the same); its losses carry that noise, which the data orders' "
                                       "spread includes."));
    if (layers.layerNorm)
        cautions.append(QStringLiteral("Your model has LayerNorm: it normalises each sample alone, so the batch per GPU does not change what it computes."));
    return cautions;
}

namespace {

// The safe range has two distinct ends around the LR (docs/advisor.md, "The LR"). A ladder the
// budget cut to its centre rung (tabular_adamw's on the panel under load: 2 of its 10 runs, one
// LR) measured no band of its own; the branch test's bracket at the same batch did (its LRs 2x
// apart, from the checkpoint, each measured against the bracket's own best), so the band is that
// one, stretched to hold the LR, and said. Returns the sentence ("" when the ladder's own band
// stands); with no second end measured anywhere the range stays one point, and the sentence says
// it was not measured.
QString measuredSafeRange(Advice& a, const LrChoice& choice, const QList<BracketPoint>& bracket)
{
    if (!choice.ok || a.safeHigh > a.safeLow * kSameLr)
        return QString();
    const LrChoice fromBranches = chooseLr(bracket);
    if (!fromBranches.ok || !(fromBranches.safeHigh > fromBranches.safeLow * kSameLr))
        return QStringLiteral("The safe LR range was not measured: only LR %1 trained at this batch, and the branch test's bracket there gave no band "
                              "either; the LR's neighbours are untried.")
            .arg(lrText(a.lr));
    a.safeLow = std::min(fromBranches.safeLow, a.lr);
    a.safeHigh = std::max(fromBranches.safeHigh, a.lr);
    return QStringLiteral("The confirmation trained only LR %1 at this batch (the budget cut its ladder), so the safe range (%2 to %3) is the branch "
                          "test's measured band at this batch, from the checkpoint with LRs 2× apart, not the confirmation's.")
        .arg(lrText(a.lr), lrText(a.safeLow), lrText(a.safeHigh));
}

// Why the LR is not the lowest mean's: the rungs within noise of it, and their middle.
QString middleWords(const LrChoice& choice)
{
    return QStringLiteral("every rung from LR %1 to %2 is within noise of the lowest mean (LR %3), so the advice gives their middle rung, LR %4")
        .arg(lrText(choice.quietLow), lrText(choice.quietHigh), lrText(choice.lowestMeanLr), lrText(choice.lr));
}

// The LR's weakness in words: how far its runner-up is, against what noise.
QString lrNoiseWords(const LrChoice& choice)
{
    if (choice.seeds < 2 || choice.runnerUp <= 0.0)
        return QStringLiteral("the best LR's runner-up is within noise (one seed: no spread measured)");
    QString words = QStringLiteral("the best LR's runner-up is within noise: LR %1 is %2 above LR %3 in the mean, within two standard errors (%4)")
                        .arg(lrText(choice.runnerUp), QString::number(choice.gap, 'g', 2), lrText(choice.lowestMeanLr), QString::number(choice.noise, 'g', 2));
    if (choice.withinByPooled)
        words += QStringLiteral(" of a seed's spread pooled over the ladder (%1 a seed), though their own seeds agreed")
                     .arg(QString::number(choice.pooledSpread, 'g', 2));
    return choice.lr == choice.lowestMeanLr ? words : words + QStringLiteral("; %1").arg(middleWords(choice));
}

}  // namespace

void concludeAdvice(Advice& a, const AdviceRequest& request, const FinalInputs& in)
{
    const ddplab::Config& base = request.base;
    const double baseLr = effectiveLr(base);
    const double baseBatch = double(effectiveBatchSize(base));
    const LrChoice& choice = in.choice;
    a.gradAccum = 1;
    a.effectiveBatch = qint64(a.gpus) * a.batchPerGpu;
    a.lr = choice.lr;
    a.lowestMeanLr = choice.lowestMeanLr;
    a.quietLow = choice.quietLow;
    a.quietHigh = choice.quietHigh;
    a.safeLow = choice.safeLow;
    a.safeHigh = choice.safeHigh;
    const QString rangeFrom = measuredSafeRange(a, choice, in.bracket);
    a.warmupSteps = warmupStepCount(base);
    a.schedule = a.warmupSteps == 0 ? QStringLiteral("constant (the schedule the confirmation used)")
                                    : QStringLiteral("constant after a warmup of %1 (the schedule the confirmation used)").arg(stepsText(a.warmupSteps));
    a.criticalBatchFinding = criticalBatchWords(a);
    judgeWarmup(a, request, in.ladder, in.arm);
    const double k = double(a.effectiveBatch) / baseBatch;
    const QString rule = ruleInBand(a.lr, a.safeLow, a.safeHigh, baseLr, k);
    a.lrRule = rule.isEmpty() ? QStringLiteral("measured") : rule;
    a.ruleLr = rule.isEmpty() ? 0.0 : ruleLr(rule, baseLr, k);
    const QString horizonWords = QStringLiteral("%1 samples").arg(qRound64(a.horizonSamples));
    a.objective = in.confirmed
                      ? QStringLiteral("the lowest %1 after %2 at %3 GPUs × %4, over %5 LRs √2 apart × %6 seeds, an LR advised only where it trained in "
                                       "every seed with no LR one step above it diverged (the middle of the rungs within noise of the lowest); the "
                                       "batch is the largest the branch test measured at your horizon that it found within %7 % of your batch's loss "
                                       "over the same data orders")
                            .arg(a.measureName, horizonWords)
                            .arg(a.gpus)
                            .arg(a.batchPerGpu)
                            .arg(in.ladder.size())
                            .arg(choice.seeds)
                            .arg(QString::number(100.0 * a.branchTolerance, 'g', 3))
                      : QStringLiteral("the lowest %1 of the branch test's bracket at %2 GPUs × %3 (no confirmation ran in the budget); the batch is the "
                                       "largest the branch test found within %4 % of your batch's loss over the same data orders")
                            .arg(a.measureName)
                            .arg(a.gpus)
                            .arg(a.batchPerGpu)
                            .arg(QString::number(100.0 * a.branchTolerance, 'g', 3));
    if (a.goodput && a.goodput->chosen)
        a.objective += QStringLiteral("; of its batches per GPU, the one with the most goodput timed on %1").arg(a.goodput->timedOn);

    // Steps to your base run's quality at the recommendation: the run nearest its LR.
    const double baseMeasure = a.evidence.isEmpty() ? kInfinity : a.evidence.front().measure;
    const QString matched = a.warmup.helped ? advice_phase::kWarmup : in.confirmed ? advice_phase::kConfirmation : advice_phase::kBranch;
    double nearest = kInfinity;
    for (const AdviceEvidence& run : a.evidence) {
        if (run.phase != matched || run.gpus != a.gpus || run.batchPerGpu != a.batchPerGpu || !(run.lr > 0))
            continue;
        const double distance = std::abs(std::log(run.lr / a.lr));
        if (distance < nearest) {
            nearest = distance;
            a.stepsToMatch = -1;
            for (const QPointF& point : run.curve)
                if (point.y() <= baseMeasure) {
                    a.stepsToMatch = qint64(point.x());
                    break;
                }
        }
    }

    // Each weakness of the evidence, named and said.
    QStringList weaknesses, said;
    const auto weak = [&](const QString& name, const QString& sentence) {
        weaknesses.append(name);
        said.append(sentence);
    };
    const double chosen = double(a.effectiveBatch);
    const QList<BatchVerdict>& verdicts = a.batchVerdicts;
    for (qsizetype i = 0; i < verdicts.size(); ++i) {
        const bool here = verdicts[i].batch == chosen;
        const bool next = i > 0 && verdicts[i - 1].batch == chosen;
        // A smaller batch than the chosen one whose interval holds "better than yours": it could
        // have moved the answer below.
        const BatchVerdict& v = verdicts[i];
        const bool couldBeBetter = v.batch < chosen && !v.yours && v.call != BatchCall::Better && std::isfinite(v.difference) &&
                                   v.low < betterThan(a.branchTolerance) && !(v.high < betterThan(a.branchTolerance)) &&
                                   std::any_of(verdicts.begin(), verdicts.end(), [&](const BatchVerdict& y) { return y.yours && y.batch > v.batch; });
        if (((here || next) && verdicts[i].call == BatchCall::WithinNoise) || couldBeBetter) {
            weak(weakness::kBatchWithinNoise,
                 QStringLiteral("the branch test's verdict at batch %1 is within noise (%2)").arg(qint64(verdicts[i].batch)).arg(verdictWords(verdicts[i], a.branchTolerance)));
            break;
        }
    }
    if (in.branchesShort)
        weak(weakness::kBranchesShort, QStringLiteral("the branches were compared over %1 samples, not your horizon's %2").arg(qRound64(a.branchSamples)).arg(qRound64(a.branchHorizon)));
    if (!in.confirmed)
        weak(weakness::kLrFromBranches, QStringLiteral("no confirmation ran in the budget: the LR is the branch test's best at this batch"));
    else if (a.horizonSamples + 0.5 < horizonOf(request))
        weak(weakness::kConfirmationShort, QStringLiteral("the LR was confirmed over %1 samples, not your horizon's %2").arg(qRound64(a.horizonSamples)).arg(qRound64(horizonOf(request))));
    if (choice.withinNoise)
        weak(weakness::kLrWithinNoise, lrNoiseWords(choice));
    if (choice.atLowEdge || choice.atHighEdge)
        weak(weakness::kLrAtEdge, QStringLiteral("the lowest mean sits at the edge of the LRs tried (%1)")
                                      .arg(in.ladderStopped.isEmpty() ? QStringLiteral("not extended") : in.ladderStopped));
    bool nearDivergence = false;
    for (const BracketPoint& point : in.ladder)
        if (point.lr > a.lr * kSameLr && point.lr <= a.lr * 2.0 * kSameLr &&
            std::any_of(point.measures.begin(), point.measures.end(), [](double m) { return !std::isfinite(m); }))
            nearDivergence = true;
    if (nearDivergence)
        weak(weakness::kNearDivergence, QStringLiteral("an LR two steps above it diverged"));
    if (in.planTrimmed)
        weak(weakness::kPlanTrimmed, QStringLiteral("the plan left measurements out to fit the budget (see what was trimmed)"));
    if (in.confirmationSteps > 0 && in.confirmationSteps < kShortTrainingSteps && a.horizonSamples + 0.5 >= horizonOf(request))
        weak(weakness::kShortTraining, QStringLiteral("your training is %1 steps at this batch, under %2").arg(in.confirmationSteps).arg(kShortTrainingSteps));
    const Confidence confidence = judgeConfidence(weaknesses, said);
    a.confidence = confidence.level;
    a.confidenceReason = confidence.reason;
    a.confidenceWeaknesses = weaknesses;
    a.confidenceCalibrated = confidence.calibrated;

    // Cautions, each a sentence.
    if (a.stepsFit.ok && a.stepsFit.doubts.isEmpty() && a.stepsFit.fit.bCrit < chosen)
        a.cautions.append(QStringLiteral("McCandlish's fit puts the critical batch at %1, below the recommended %2: past it, more GPUs save few steps.")
                              .arg(qRound64(a.stepsFit.fit.bCrit))
                              .arg(a.effectiveBatch));
    if (!rule.isEmpty() && std::abs(a.ruleLr / a.lr - 1.0) > 1e-6)
        a.cautions.append(QStringLiteral("The %1 rule's LR (%2) lies in the measured safe band (%3 to %4), so the rule holds here; the advice gives the LR it "
                                         "trained, %5, not the rule's value, which no run trained.")
                              .arg(rule == wire(choice::lr_rule::kSqrt) ? QStringLiteral("square-root") : rule, lrText(a.ruleLr), lrText(a.safeLow), lrText(a.safeHigh), lrText(a.lr)));
    if (!choice.passedOver.isEmpty()) {
        QStringList lrs;
        for (double lr : choice.passedOver)
            lrs.append(lrText(lr));
        a.cautions.append(QStringLiteral("LR %1 had a lower mean but an LR one step above it diverged in some seed: the advice stays a ladder step away from "
                                         "divergence.")
                              .arg(lrs.join(QStringLiteral(", "))));
    }
    if (choice.withinNoise)
        a.cautions.append(QStringLiteral("Differences between the best LRs are within noise: add seeds before trusting the LR to better than the safe "
                                         "range (a factor of %1).")
                              .arg(lrText(a.safeHigh / a.safeLow)));
    if (choice.lr != choice.lowestMeanLr) {
        const QString middle = middleWords(choice);
        a.cautions.append(middle.left(1).toUpper() + middle.mid(1) + QStringLiteral(", not the lowest mean's, which the noise cannot rank below it."));
    }
    if ((choice.atLowEdge || choice.atHighEdge) && !in.ladder.isEmpty())
        a.cautions.append(QStringLiteral("The lowest mean is at the edge of the LRs measured: %1; the optimum may lie beyond.")
                              .arg(in.ladderStopped.isEmpty() ? QStringLiteral("the ladder was not extended") : in.ladderStopped));
    if (!rangeFrom.isEmpty())
        a.cautions.append(rangeFrom);
    if (isAdam(base))
        a.cautions.append(QStringLiteral("Adam/AdamW: the noise scale can underestimate the critical batch by orders of magnitude (Merrill et al. 2025); "
                                         "the LR was bracketed, not taken from a rule."));
    a.cautions.append(layerCautions(request.layers, a.batchPerGpu, base.batchSize));
    if (in.confirmed && a.horizonSamples + 0.5 < horizonOf(request))
        a.cautions.append(QStringLiteral("The LR was confirmed over %1 samples (%2 steps) of your horizon's %3: over the whole training it is extrapolated, "
                                         "and a longer horizon usually prefers a somewhat lower LR.")
                              .arg(qRound64(a.horizonSamples))
                              .arg(in.confirmationSteps)
                              .arg(qRound64(horizonOf(request))));
    else if (in.confirmationSteps > 0 && in.confirmationSteps < kShortTrainingSteps)
        a.cautions.append(QStringLiteral("Your training is %1 steps at this batch, under about %2: over so few steps the LRs' ranking is decided early and "
                                         "noisily.")
                              .arg(in.confirmationSteps)
                              .arg(kShortTrainingSteps));
    if (in.divergenceLr > 0 && a.lr > in.divergenceLr / 2.0)
        a.cautions.append(QStringLiteral("The range test's loss ran away at LR %1, within 2× of the recommended %2: the recommendation is close to divergence.")
                              .arg(lrText(in.divergenceLr), lrText(a.lr)));
    double largest = 0.0;
    for (const BatchVerdict& v : verdicts)
        largest = std::max(largest, v.batch);
    if (chosen > largest)
        a.cautions.append(QStringLiteral("The batch is beyond those the branch test measured."));
    if (a.dontScale)
        a.cautions.append(QStringLiteral("%1 GPUs × %2 per GPU is past the measured critical batch (%3): a smaller batch per GPU (here %4) or fewer GPUs "
                                         "trains the same samples as well; more GPUs at your batch would spend samples without saving steps.")
                              .arg(a.gpus)
                              .arg(base.batchSize)
                              .arg(qRound64(a.criticalBatch))
                              .arg(a.batchPerGpu));
    if (base.device == DeviceKind::Cpu && !in.timesTransfer)
        a.cautions.append(QStringLiteral("Measured in float32 on this computer's CPU: GPUs computing in bf16 or TF32, and their step times, may differ; "
                                         "the advice does not choose the batch by speed."));
    else if (base.device == DeviceKind::Cpu)
        a.cautions.append(QStringLiteral("Measured in float32 on CPU processes on %1: GPUs computing in bf16 or TF32 may differ, and each batch's "
                                         "speed was timed on those processes, not on GPUs.")
                              .arg(in.runOn));
    // Only where loss_reduction is the workload's own key (linreg's) does a summed loss apply.
    if (appliesToWorkload(base, key::kLossReduction) && base.lossReduction == LossReduction::Sum)
        a.cautions.append(QStringLiteral("The loss is summed over each GPU's batch: the LR is the nominal one for a batch of %1 per GPU (per mean gradient, %2).")
                              .arg(a.batchPerGpu)
                              .arg(lrText(a.lr * double(a.batchPerGpu))));
    if (a.warmup.helped)
        a.cautions.append(QStringLiteral("The safe LR range was measured without the warmup the advice adds; with it, somewhat higher LRs may train as well."));
    putRecommendation(a, base);
    if (a.tookSeconds > kBudgetSlack * in.budgetSeconds)
        a.trimmed.append(QStringLiteral("it took %1 min against a budget of %2 min: on this computer even its shortest plan (the base run, the branches "
                                        "at your batch and N GPUs', a confirmation of %3 steps) costs more; fewer GPUs to plan for make fewer branches")
                             .arg(QString::number(a.tookSeconds / 60.0, 'f', 1), QString::number(in.budgetSeconds / 60.0, 'f', 1))
                             .arg(in.confirmationSteps));
}

}  // namespace ddplab::ui
