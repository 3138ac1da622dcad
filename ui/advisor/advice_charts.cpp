#include "advisor/advice_charts.hpp"

#include "client/advisor/advice.hpp"
#include "client/runs/run_data.hpp"
#include "client/wire.hpp"
#include "theme/palette.hpp"

#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

// The advisor's phase names (advisor.cpp's PlannedRun::phase), as advice.json lists them.
const QString kConfirmation = QStringLiteral("confirmation");
const QString kBranch = QStringLiteral("branch");
const QString kBranchRepeat = QStringLiteral("branch repeat");

QString number(double value)
{
    return QString::number(value, 'g', 3);
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
    spec.subtitle = QObject::tr("The confirmation runs over %1 samples, each seed a line; shaded: the safe range (within 10 % of the best)")
                        .arg(qRound64(advice.horizonSamples));
    spec.xTitle = QObject::tr("learning rate (log)");
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
    if (advice.lr > 0)
        spec.markers.append({advice.lr, QObject::tr("recommended %1").arg(number(advice.lr)), QColor(kRecommendedMarkRgb)});
    if (advice.safeLow > 0 && advice.safeHigh > advice.safeLow)
        spec.spans.append({advice.safeLow, advice.safeHigh, QColor(kSafeRangeRgb)});
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
    spec.xTitle = QObject::tr("effective batch (log)");
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
    if (advice.criticalBatch > 0 && std::isfinite(advice.criticalBatch))
        spec.markers.append({advice.criticalBatch,
                             advice.criticalBatchBeyond ? QObject::tr("critical batch ≥ %1").arg(number(advice.criticalBatch))
                                                        : QObject::tr("critical batch %1").arg(number(advice.criticalBatch)),
                             QColor(kExcessMarkRgb)});
    return spec;
}

PlotSpec noiseChart(const Advice& advice)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-noise-scale");
    spec.title = QObject::tr("Noise scale B_simple as the base run went");
    spec.subtitle = QObject::tr("McCandlish et al.: it grows as the loss falls; corroboration, not a decision (BatchNorm biases it)");
    spec.xTitle = QObject::tr("samples seen");
    spec.yTitle = QObject::tr("B_simple (log)");
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

PlotSpec rangeChart(const Advice& advice, const QList<QPointF>& curve)
{
    PlotSpec spec;
    spec.id = QStringLiteral("advice-range-test");
    spec.title = QObject::tr("LR range test at %1 GPUs × the base's batch per GPU").arg(advice.gpus);
    spec.subtitle = QObject::tr("The smoothed training loss as the LR rose each step; where it runs away bounds the LRs tried");
    spec.xTitle = QObject::tr("learning rate (log)");
    spec.yTitle = QObject::tr("smoothed loss (log)");
    spec.logY = true;
    spec.emptyText = QObject::tr("The range test's run could not be read from the run store.");
    PlotLine line;
    line.label = QString();
    line.color = lineColor(3);
    line.markers = false;
    for (const QPointF& point : curve)
        if (point.x() > 0 && std::isfinite(point.y()) && point.y() > 0)
            line.points.append(point);
    if (!line.points.isEmpty()) {
        spec.lines.append(line);
        if (advice.lr > 0)
            spec.markers.append({advice.lr, QObject::tr("recommended %1").arg(number(advice.lr)), QColor(kRecommendedMarkRgb)});
    }
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
    QList<PlotSpec> charts{lrChart(advice), branchChart(advice)};
    if (!advice.noiseScale.isEmpty())
        charts.append(noiseChart(advice));
    charts.append(rangeChart(advice, rangeCurve));
    return charts;
}

}  // namespace ddplab::ui
