// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_catalog.hpp"

#include "client/wire.hpp"

#include <QObject>

namespace ddplab::ui {
namespace {

MetricInfo metric(const char* name, const char* label, bool smoothable = true, bool markers = false)
{
    return {QString::fromLatin1(name), QString::fromUtf8(label), smoothable, markers};
}

QList<ChartDefinition> buildCatalog()
{
    // A chart's id names its export (loss.png); where it charts one metric, it is that metric's name.
    QList<ChartDefinition> charts;
    charts.append({wire(field::kLoss), QObject::tr("Loss"), QObject::tr("loss"),
                   {metric(field::kLoss, "train"), metric(field::kValLoss, "validation", false, true)}});
    charts.last().blowsUp = true;
    charts.append({wire(field::kAccuracy), QObject::tr("Accuracy"), QObject::tr("fraction correct"),
                   {metric(field::kAccuracy, "train"), metric(field::kValAccuracy, "validation", false, true)},
                   false,
                   false,
                   true});
    charts.append({QStringLiteral("weight"), QObject::tr("Weight trajectory"), QObject::tr("mean w"),
                   {metric(field::kWMean, "w", false)}});
    charts.append({QStringLiteral("update_variance"), QObject::tr("Update variance"), QObject::tr("variance per parameter"),
                   {metric(field::kUpdateVar, "empirical"), metric(field::kUpdateVarEstimate, "estimated")},
                   true});
    charts.last().blowsUp = true;
    charts.append({wire(field::kNoiseScale), QObject::tr("Gradient noise scale B_simple"), QObject::tr("samples"),
                   {metric(field::kNoiseScale, "B_simple", false)},
                   true,
                   true});
    charts.append({wire(field::kLr), QObject::tr("Learning rate"), QObject::tr("lr"), {metric(field::kLr, "lr", false)}});
    charts.append({wire(field::kEffectiveBatch), QObject::tr("Effective batch"), QObject::tr("samples per step"),
                   {metric(field::kEffectiveBatch, "effective batch", false)},
                   true});
    charts.last().onlyWhenItMoves = true;
    charts.append({QStringLiteral("throughput"), QObject::tr("Throughput"), QObject::tr("samples / s"),
                   {metric(field::kSamplesPerSec, "per step"), metric("epoch_samples_per_sec", "per epoch", false, true)}});
    charts.last().fromZero = true;
    charts.append({wire(field::kSamples), QObject::tr("Samples per step"), QObject::tr("samples (all ranks)"),
                   {metric(field::kSamples, "per step", false, true)}});
    charts.last().fromZero = true;
    charts.last().onlyWhenNamed = true;
    charts.append({wire(field::kGradNorm), QObject::tr("Gradient norm"), QStringLiteral("‖g‖"),
                   {metric(field::kGradNorm, "‖g‖")}});
    charts.last().blowsUp = true;
    charts.append({QStringLiteral("step_time"), QObject::tr("Time per step"), QObject::tr("ms"),
                   {metric(field::kComputeMs, "forward + backward"), metric(field::kCommMs, "waiting on all-reduce"),
                    metric(field::kStepMs, "whole step")}});
    charts.last().fromZero = true;
    return charts;
}

}  // namespace

QStringList ChartDefinition::metricNames() const
{
    QStringList names;
    for (const MetricInfo& info : metrics)
        names.append(info.name);
    return names;
}

const QList<ChartDefinition>& chartCatalog()
{
    static const QList<ChartDefinition> catalog = buildCatalog();
    return catalog;
}

ChartDefinition chartForMetric(const QString& metricName)
{
    for (const ChartDefinition& chart : chartCatalog()) {
        if (chart.metricNames().contains(metricName))
            return chart;
    }
    ChartDefinition adHoc;
    adHoc.id = metricName;
    adHoc.title = metricName;
    adHoc.yTitle = metricName;
    adHoc.metrics = {MetricInfo{metricName, metricName, true, false}};
    return adHoc;
}

QList<ChartDefinition> chartsForMetrics(const QStringList& metrics)
{
    QList<ChartDefinition> charts;
    for (const QString& name : metrics) {
        const ChartDefinition chart = chartForMetric(name);
        const bool known = std::any_of(charts.begin(), charts.end(), [&](const ChartDefinition& c) { return c.id == chart.id; });
        if (!known)
            charts.append(chart);
    }
    return charts;
}

int catalogOrder(const QString& metricName)
{
    int position = 0;
    for (const ChartDefinition& chart : chartCatalog()) {
        for (const MetricInfo& info : chart.metrics) {
            if (info.name == metricName)
                return position;
            ++position;
        }
    }
    return position;
}

}  // namespace ddplab::ui
