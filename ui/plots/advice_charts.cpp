// SPDX-License-Identifier: GPL-3.0-or-later
#include "plots/advice_charts.hpp"

#include "client/advisor/advice.hpp"
#include "client/advisor/advice_decision.hpp"
#include "client/advisor/advice_phases.hpp"
#include "client/advisor/batch_verdict.hpp"
#include "client/study/scaling_fit.hpp"
#include "client/runs/run_data.hpp"
#include "client/wire.hpp"
#include "theme/palette.hpp"

#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace ddplab::ui {
namespace {

using advice_phase::kBranch;
using advice_phase::kBranchRepeat;
using advice_phase::kConfirmation;
using advice_phase::kWarmup;

QString number(double value)
{
    return QString::number(value, 'g', 3);
}

// The critical batch the branch test found, marked where the batches are charted.
void addCriticalBatchMarker(PlotSpec& spec, const Advice& advice)
{
    if (advice.criticalBatch > 0 && std::isfinite(advice.criticalBatch))
        spec.markers.append({advice.criticalBatch,
                             advice.criticalBatchBeyond ? QObject::tr("critical batch ≥ %1").arg(number(advice.criticalBatch))
                                                        : QObject::tr("critical batch %1").arg(number(advice.criticalBatch)),
                             QColor(kExcessMarkRgb)});
}

bool sameBatch(const AdviceEvidence& run, const Advice& advice)
{
    return run.gpus == advice.gpus && run.batchPerGpu == advice.batchPerGpu;
}

PlotSpec lrChart(const Advice& advice)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-measure-vs-lr");
    spec.title = QObject::tr("%1 against the LR at %2 GPUs × %3").arg(advice.measureName, QString::number(advice.gpus)).arg(advice.batchPerGpu);
    spec.subtitle = QObject::tr("The confirmation runs over %1 samples, each seed a line; shaded: the safe range (within 10 % of the lowest mean)")
                        .arg(qRound64(advice.horizonSamples));
    spec.xTitle = QObject::tr("learning rate");
    spec.yTitle = advice.measureName;
    spec.emptyText = QObject::tr("No confirmation run finished at this batch.");
    // One line per seed, by LR; a run that diverged has no finite measure and leaves no point.
    QMap<qint64, QMap<double, double>> bySeed;
    for (const AdviceEvidence& run : advice.evidence)
        if (run.phase == kConfirmation && sameBatch(run, advice) && std::isfinite(run.measure))
            bySeed[run.seed].insert(run.lr, run.measure);
    qsizetype index = 0;
    for (auto seed = bySeed.cbegin(); seed != bySeed.cend(); ++seed, ++index) {
        PlotLine line;
        line.label = QObject::tr("seed %1").arg(seed.key());
        line.color = lineColor(index);
        for (auto point = seed->cbegin(); point != seed->cend(); ++point)
            line.points.append({point.key(), point.value()});
        spec.lines.append(line);
    }
    // What the choice compares: each LR's mean over the seeds that all trained, ± its standard
    // error (an LR with a diverged seed has none, and is never advised).
    if (bySeed.size() > 1) {
        QMap<double, QList<double>> byLr;
        for (const AdviceEvidence& run : advice.evidence)
            if (run.phase == kConfirmation && sameBatch(run, advice))
                byLr[run.lr].append(run.measure);
        PlotLine mean;
        mean.label = QObject::tr("mean of the seeds ± s.e. (what the LR is chosen on)");
        mean.color = lineColor(index + 2);
        mean.markers = false;
        for (auto lr = byLr.cbegin(); lr != byLr.cend(); ++lr) {
            if (std::any_of(lr->begin(), lr->end(), [](double m) { return !std::isfinite(m); }))
                continue;
            const MeanAndError figures = meanAndError(lr.value());
            mean.points.append({lr.key(), figures.mean});
            mean.errors.append(figures.standardError);
        }
        if (mean.points.size() > 1)
            spec.lines.append(mean);
    }
    // The warmup arm: its seeds' mean at each of its LRs, hollow, beside the seeds without it.
    QMap<double, QList<double>> arm;
    for (const AdviceEvidence& run : advice.evidence)
        if (run.phase == kWarmup && sameBatch(run, advice))
            arm[run.lr].append(run.measure);
    PlotLine warm;
    warm.label = QObject::tr("with warmup (mean of seeds)");
    warm.color = lineColor(index + 1);
    for (auto point = arm.cbegin(); point != arm.cend(); ++point) {
        double sum = 0.0;
        for (double measure : point.value())
            sum += measure;
        if (std::isfinite(sum))
            warm.points.append({point.key(), sum / double(point.value().size())});
    }
    warm.hollow = QList<bool>(warm.points.size(), true);
    if (!warm.points.isEmpty())
        spec.lines.append(warm);
    if (advice.lr > 0)
        spec.markers.append({advice.lr, QObject::tr("recommended %1").arg(number(advice.lr)), QColor(kRecommendedMarkRgb)});
    if (advice.lrIsMiddleOfNoise())
        spec.notes.append(QObject::tr("lowest mean at LR %1; %2 to %3 within noise of it: their middle recommended")
                              .arg(number(advice.lowestMeanLr), number(advice.quietLow), number(advice.quietHigh)));
    if (advice.safeLow > 0 && advice.safeHigh > advice.safeLow)
        spec.spans.append({advice.safeLow, advice.safeHigh, QColor(kSafeRangeRgb)});
    return spec;
}

// The branch test as the decision read it: each batch's measure at its chosen LR, the mean over
// the data orders ± its standard error, and the tolerance line (your batch's mean + the tolerance).
PlotSpec verdictMeansChart(const Advice& advice)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-branch-test");
    spec.title = QObject::tr("Branch test: %1 against the batch, at your horizon").arg(advice.measureName);
    spec.subtitle = QObject::tr("Each batch from the base run's checkpoint over %1 samples, at the LR of its bracket with the lowest mean; "
                                "the mean over the data orders ± s.e.; dashed: your batch's mean + %2 %")
                        .arg(qRound64(advice.branchSamples))
                        .arg(number(100.0 * advice.branchTolerance));
    spec.xTitle = QObject::tr("effective batch");
    spec.yTitle = advice.measureName;
    spec.emptyText = QObject::tr("No branch finished.");
    PlotLine means;
    means.label = QObject::tr("mean over the data orders ± s.e.");
    means.color = lineColor(0);
    for (const BatchVerdict& v : advice.batchVerdicts) {
        if (!std::isfinite(v.mean))
            continue;
        means.points.append({v.batch, v.mean});
        means.errors.append(std::isfinite(v.spread) ? v.spread : 0.0);
    }
    if (means.points.isEmpty())
        return spec;
    spec.lines.append(means);
    PlotLine tolerance;
    tolerance.label = QObject::tr("your batch + %1 %").arg(number(100.0 * advice.branchTolerance));
    tolerance.color = QColor(kExcessMarkRgb);
    tolerance.markers = false;
    tolerance.dashed = true;
    double yours = means.points.first().y();
    for (const BatchVerdict& v : advice.batchVerdicts)
        if (v.yours && std::isfinite(v.mean))
            yours = v.mean;
    const double limit = yours * (1.0 + advice.branchTolerance);
    tolerance.points = {{means.points.first().x(), limit}, {means.points.last().x(), limit}};
    spec.lines.append(tolerance);
    addCriticalBatchMarker(spec, advice);
    return spec;
}

// The verdicts: each batch's paired difference from your batch over the same data orders, with
// its 90 % interval (the band; a batch of one order has none: hollow), against the tolerance.
PlotSpec verdictChart(const Advice& advice)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-batch-verdicts");
    spec.title = QObject::tr("Each batch against yours, over the same data orders");
    spec.subtitle = QObject::tr("Per data order, the batch's measure over yours − 1; the mean and its 90 % interval (band); dashed: the tolerance, %1 %")
                        .arg(number(100.0 * advice.branchTolerance));
    spec.xTitle = QObject::tr("effective batch");
    spec.yTitle = QObject::tr("difference from your batch (%)");
    spec.emptyText = QObject::tr("No batch was compared with yours.");
    PlotLine differences;
    differences.label = QObject::tr("mean difference, 90 % interval");
    differences.color = lineColor(0);
    for (const BatchVerdict& v : advice.batchVerdicts) {
        if (!std::isfinite(v.difference))
            continue;
        differences.points.append({v.batch, 100.0 * v.difference});
        const bool interval = std::isfinite(v.low) && std::isfinite(v.high);
        differences.errors.append(interval ? 100.0 * (v.high - v.low) / 2.0 : 0.0);
        differences.hollow.append(!interval && v.orders < 2 && !v.yours);
        if (!v.yours)
            spec.notes.append(QObject::tr("%1: %2").arg(qint64(v.batch)).arg(callName(v.call)));
    }
    if (differences.points.isEmpty())
        return spec;
    spec.lines.append(differences);
    PlotLine tolerance;
    tolerance.label = QObject::tr("tolerance");
    tolerance.color = QColor(kExcessMarkRgb);
    tolerance.markers = false;
    tolerance.dashed = true;
    tolerance.points = {{differences.points.first().x(), 100.0 * advice.branchTolerance}, {differences.points.last().x(), 100.0 * advice.branchTolerance}};
    spec.lines.append(tolerance);
    return spec;
}

PlotSpec branchChart(const Advice& advice)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-branch-test");
    spec.title = QObject::tr("Branch test: the best %1 against the batch").arg(advice.measureName);
    spec.subtitle = QObject::tr("Each batch from the base run's checkpoint on the same samples, the best of its 3 LRs; "
                                "within %1 % of the base batch's counts as no worse")
                        .arg(number(100.0 * advice.branchTolerance));
    spec.xTitle = QObject::tr("effective batch");
    spec.yTitle = advice.measureName;
    spec.emptyText = QObject::tr("No branch finished.");
    QMap<double, double> best;  // effective batch -> the best finite measure of its LRs
    QList<QPointF> repeat;
    for (const AdviceEvidence& run : advice.evidence) {
        const double batch = double(run.gpus) * double(run.batchPerGpu);
        if (!std::isfinite(run.measure))
            continue;
        if (run.phase == kBranch)
            best[batch] = best.contains(batch) ? std::min(best[batch], run.measure) : run.measure;
        else if (run.phase == kBranchRepeat)
            repeat.append({batch, run.measure});
    }
    PlotLine line;
    line.label = QObject::tr("best of 3 LRs");
    line.color = lineColor(0);
    for (auto point = best.cbegin(); point != best.cend(); ++point)
        line.points.append({point.key(), point.value()});
    if (!line.points.isEmpty())
        spec.lines.append(line);
    if (!repeat.isEmpty()) {
        PlotLine other;
        other.label = QObject::tr("base batch, another data order");
        other.color = lineColor(1);
        other.points = repeat;
        other.hollow = QList<bool>(repeat.size(), true);
        spec.lines.append(other);
    }
    addCriticalBatchMarker(spec, advice);
    return spec;
}

PlotSpec noiseChart(const Advice& advice)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-noise-scale");
    spec.title = QObject::tr("Noise scale B_simple as the base run went");
    // BatchNorm's batch statistics bias it: said where the model has BatchNorm (its caution says so).
    const bool batchNorm = std::any_of(advice.cautions.begin(), advice.cautions.end(),
                                       [](const QString& caution) { return caution.startsWith(kBatchNormCaution); });
    spec.subtitle = batchNorm ? QObject::tr("McCandlish et al.: it grows as the loss falls; corroboration, not a decision (BatchNorm biases it)")
                              : QObject::tr("McCandlish et al.: it grows as the loss falls; corroboration, not a decision");
    spec.xTitle = QObject::tr("samples seen");
    spec.yTitle = QObject::tr("B_simple");
    spec.logX = false;
    spec.logY = true;
    PlotLine line;
    line.label = QString();
    line.color = lineColor(2);
    line.markers = false;
    for (const QPointF& point : advice.noiseScale)
        if (std::isfinite(point.y()) && point.y() > 0)
            line.points.append(point);
    spec.lines.append(line);
    if (advice.effectiveBatch > 0)
        spec.notes.append(QObject::tr("recommended batch %1").arg(advice.effectiveBatch));
    spec.emptyText = QObject::tr("The noise scale never had a positive estimate.");
    return spec;
}

// Goodput (Pollux) against the batch per GPU: N GPUs' samples/s as timed on the Run-on host, and
// the same times the statistical efficiency; the chosen batch marked.
PlotSpec goodputChart(const Goodput& goodput, int gpus)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-goodput");
    spec.title = QObject::tr("Goodput against the batch per GPU on %1 GPUs").arg(gpus);
    spec.subtitle = QObject::tr("Samples/s timed on %1; goodput = samples/s × (φ + B0) / (φ + B), φ %2 (%3), B0 %4")
                        .arg(goodput.timedOn, number(goodput.noiseScale), goodput.noiseScaleFrom, number(goodput.baseBatch));
    spec.xTitle = QObject::tr("batch per GPU");
    spec.yTitle = QObject::tr("samples per second");
    spec.emptyText = QObject::tr("No batch per GPU was timed.");
    PlotLine throughput, good;
    throughput.label = QObject::tr("samples/s");
    throughput.color = lineColor(0);
    good.label = QObject::tr("goodput");
    good.color = lineColor(1);
    for (const GoodputPoint& point : goodput.points) {
        throughput.points.append({double(point.batchPerGpu), point.throughput});
        good.points.append({double(point.batchPerGpu), point.goodput});
    }
    spec.lines = {throughput, good};
    if (goodput.chosen)
        spec.markers.append({double(goodput.bestBatchPerGpu), QObject::tr("most goodput: %1").arg(goodput.bestBatchPerGpu), QColor(kMeasuredMarkRgb)});
    else
        spec.notes.append(QObject::tr("not chosen by speed"));
    return spec;
}

PlotSpec rangeChart(const Advice& advice, const QList<QPointF>& storedCurve)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-range-test");
    spec.title = QObject::tr("LR range tests, one per batch");
    spec.subtitle = QObject::tr("The smoothed training loss from the base run's checkpoint as the LR rose each step; where each runs away bounds the LRs at its batch");
    spec.xTitle = QObject::tr("learning rate");
    spec.yTitle = QObject::tr("smoothed loss");
    spec.logY = true;
    spec.emptyText = QObject::tr("The range test's run could not be read from the run store.");
    // advice.json's curves; an advice from before it kept them: the one stored run's.
    QList<RangeCurve> curves = advice.rangeTests;
    if (curves.isEmpty() && !storedCurve.isEmpty())
        curves.append({double(advice.gpus) * double(advice.batchPerGpu), 0.0, storedCurve});
    qsizetype index = 0;
    for (const RangeCurve& curve : curves) {
        PlotLine line;
        line.label = QObject::tr("batch %1").arg(number(curve.batch));
        line.color = lineColor(index++);
        line.markers = false;
        for (const QPointF& point : curve.points)
            if (point.x() > 0 && std::isfinite(point.y()) && point.y() > 0)
                line.points.append(point);
        if (!line.points.isEmpty())
            spec.lines.append(line);
    }
    if (!spec.lines.isEmpty() && advice.lr > 0)
        spec.markers.append({advice.lr, QObject::tr("recommended %1").arg(number(advice.lr)), QColor(kRecommendedMarkRgb)});
    return spec;
}

PlotSpec lrScalingChart(const Advice& advice)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-lr-vs-batch");
    spec.title = QObject::tr("The best LR against the batch");
    spec.subtitle = QObject::tr("The branch test's best LR per batch (hollow: each data order's own), with the linear and square-root rules through the base batch's");
    spec.xTitle = QObject::tr("effective batch");
    spec.yTitle = QObject::tr("best learning rate");
    spec.logY = true;
    spec.emptyText = QObject::tr("No batch's LR bracket had three LRs that trained.");
    QList<BatchOptimum> optima = advice.lrOptima;
    std::sort(optima.begin(), optima.end(), [](const BatchOptimum& x, const BatchOptimum& y) { return x.batch < y.batch; });
    PlotLine best;
    best.label = QObject::tr("best LR (mean of data orders)");
    best.color = lineColor(0);
    PlotLine seeds;
    seeds.label = QObject::tr("each data order");
    seeds.color = lineColor(1);
    seeds.markers = true;
    for (const BatchOptimum& optimum : optima) {
        if (optimum.batch > 0 && optimum.bestLr > 0 && std::isfinite(optimum.bestLr))
            best.points.append({optimum.batch, optimum.bestLr});
        if (optimum.bestLrPerSeed.size() > 1)
            for (double lr : optimum.bestLrPerSeed)
                if (lr > 0 && std::isfinite(lr))
                    seeds.points.append({optimum.batch, lr});
    }
    if (best.points.isEmpty())
        return spec;
    spec.lines.append(best);
    if (!seeds.points.isEmpty()) {
        // Points only: the data orders are not a line through the batches.
        std::sort(seeds.points.begin(), seeds.points.end(), [](const QPointF& x, const QPointF& y) { return x.x() < y.x(); });
        seeds.hollow = QList<bool>(seeds.points.size(), true);
        spec.lines.append(seeds);
    }
    const QPointF origin = best.points.first();
    const double last = best.points.last().x() > origin.x() ? best.points.last().x() : origin.x() * 2.0;
    for (const auto& [name, power, rgb] : {std::tuple<const char*, double, QRgb>{"linear rule", 1.0, kLinearRuleRgb},
                                            {"square-root rule", 0.5, kSquareRootRuleRgb}}) {
        PlotLine rule;
        rule.label = QObject::tr(name);
        rule.color = QColor(rgb);
        rule.markers = false;
        rule.dashed = true;
        rule.points = {origin, {last, origin.y() * std::pow(last / origin.x(), power)}};
        spec.lines.append(rule);
    }
    if (std::isfinite(advice.lrExponent))
        spec.notes.append(std::isfinite(advice.lrExponentLow)
                              ? QObject::tr("measured: batch^%1 (%2 to %3 over the data orders)").arg(number(advice.lrExponent), number(advice.lrExponentLow), number(advice.lrExponentHigh))
                              : QObject::tr("measured: batch^%1 (one data order)").arg(number(advice.lrExponent)));
    return spec;
}

PlotSpec stepsChart(const Advice& advice)
{
    const StepsToTarget& fit = advice.stepsFit;
    PlotSpec spec;
    spec.id = QStringLiteral("advice-steps-to-target");
    spec.title = QObject::tr("Steps to the target against the batch (McCandlish et al.)");
    spec.subtitle = QObject::tr("Each branch's optimizer steps from the checkpoint to a training loss of %1, its best LR; dashed: S = S_min (1 + B_crit / B)")
                        .arg(number(fit.target));
    spec.xTitle = QObject::tr("effective batch");
    spec.yTitle = QObject::tr("steps to the target");
    spec.logY = true;
    spec.emptyText = QObject::tr("No branch curve reached a common target.");
    PlotLine measured;
    measured.label = QObject::tr("measured");
    measured.color = lineColor(0);
    measured.points = fit.points;
    std::sort(measured.points.begin(), measured.points.end(), [](const QPointF& x, const QPointF& y) { return x.x() < y.x(); });
    if (measured.points.isEmpty())
        return spec;
    spec.lines.append(measured);
    if (fit.ok && fit.smallestBatch > 0 && std::isfinite(fit.fit.bCrit)) {
        PlotLine curve;
        curve.label = QObject::tr("fit");
        curve.color = lineColor(1);
        curve.markers = false;
        curve.dashed = true;
        constexpr int kSamples = 24;
        for (int i = 0; i <= kSamples; ++i) {
            const double batch = fit.smallestBatch * std::pow(fit.largestBatch / fit.smallestBatch, double(i) / kSamples);
            curve.points.append({batch, fit.fit.stepsAt(batch)});
        }
        spec.lines.append(curve);
        spec.markers.append({fit.fit.bCrit, QObject::tr("B_crit %1 (fit)").arg(number(fit.fit.bCrit)), QColor(kExcessMarkRgb)});
        spec.notes.append(fit.doubts.isEmpty() ? QObject::tr("S_min %1 steps; nothing argues against the fit").arg(number(fit.fit.sMin))
                                               : QObject::tr("S_min %1 steps; not to be trusted: see the advice").arg(number(fit.fit.sMin)));
    }
    if (!advice.noiseScale.isEmpty() && std::isfinite(advice.noiseScale.last().y()) && advice.noiseScale.last().y() > 0)
        spec.markers.append({advice.noiseScale.last().y(), QObject::tr("B_simple %1").arg(number(advice.noiseScale.last().y())), QColor(kMeasuredMarkRgb)});
    return spec;
}

}  // namespace

QList<QPointF> rangeTestCurve(const RunData& run)
{
    QList<QPointF> curve;
    const QJsonArray points = run.rangeTest().value(wire(protocol::field::kPoints)).toArray();
    for (const QJsonValue& value : points) {
        const QJsonObject point = value.toObject();
        curve.append({point.value(wire(protocol::field::kLr)).toDouble(), point.value(wire(protocol::field::kSmoothedLoss)).toDouble()});
    }
    return curve;
}

QList<PlotSpec> adviceCharts(const Advice& advice, const QList<QPointF>& rangeCurve)
{
    // An advice with paired verdicts draws the numbers they were decided on; one from before them,
    // each batch's best over its LRs.
    QList<PlotSpec> charts{lrChart(advice)};
    if (advice.batchVerdicts.isEmpty())
        charts.append(branchChart(advice));
    else
        charts << verdictMeansChart(advice) << verdictChart(advice);
    charts << lrScalingChart(advice) << stepsChart(advice);
    if (!advice.noiseScale.isEmpty())
        charts.append(noiseChart(advice));
    charts.append(rangeChart(advice, rangeCurve));
    if (advice.goodput && !advice.goodput->points.isEmpty())
        charts.append(goodputChart(*advice.goodput, advice.gpus));
    return charts;
}

}  // namespace ddplab::ui
