#include "chart_catalog.hpp"

namespace ddplab::ui {
namespace {

MetricInfo metric(const char* name, const char* label, bool smoothable = true, bool markers = false)
{
    return {QString::fromLatin1(name), QString::fromUtf8(label), smoothable, markers};
}

QList<ChartDefinition> buildCatalog()
{
    QList<ChartDefinition> charts;
    charts.append({QStringLiteral("loss"), QStringLiteral("Loss"), QStringLiteral("loss"),
                   {metric("loss", "train"), metric("val_loss", "validation", false, true)}});
    charts.append({QStringLiteral("accuracy"), QStringLiteral("Accuracy"), QStringLiteral("fraction correct"),
                   {metric("accuracy", "train"), metric("val_accuracy", "validation", false, true)}});
    charts.append({QStringLiteral("weight"), QStringLiteral("Weight trajectory"), QStringLiteral("mean w over experiments"),
                   {metric("w_mean", "w", false)}});
    charts.append({QStringLiteral("update_variance"), QStringLiteral("Update variance"), QStringLiteral("variance per parameter"),
                   {metric("update_var", "empirical"), metric("update_var_estimate", "estimated")},
                   true});
    charts.append({QStringLiteral("noise_scale"), QStringLiteral("Gradient noise scale B_simple"), QStringLiteral("samples"),
                   {metric("noise_scale", "B_simple", false)},
                   true,
                   true});
    charts.append({QStringLiteral("lr"), QStringLiteral("Learning rate"), QStringLiteral("lr"), {metric("lr", "lr", false)}});
    charts.append({QStringLiteral("throughput"), QStringLiteral("Throughput"), QStringLiteral("samples / s"),
                   {metric("samples_per_sec", "per step"), metric("epoch_samples_per_sec", "per epoch", false, true)}});
    charts.append({QStringLiteral("grad_norm"), QStringLiteral("Gradient norm"), QStringLiteral("‖g‖"),
                   {metric("grad_norm", "‖g‖")}});
    charts.append({QStringLiteral("step_time"), QStringLiteral("Time per step"), QStringLiteral("ms"),
                   {metric("compute_ms", "forward + backward"), metric("comm_ms", "waiting on all-reduce"),
                    metric("step_ms", "whole step")}});
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
