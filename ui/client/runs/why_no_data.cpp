// SPDX-License-Identifier: GPL-3.0-or-later
#include "why_no_data.hpp"

#include "client/runs/run_data.hpp"
#include "client/wire.hpp"

#include <QObject>

namespace ddplab::ui {

QString whyNoMetric(const QString& metric, const RunData& run)
{
    if (run.hasMetric(metric))
        return QString();
    const QJsonObject config = run.effectiveConfig();
    const QString workload = config.value(wire(key::kWorkload)).toString();
    const bool classifier = workload == wire(choice::workload::kFashionMnist);
    const bool vectorised = workload == wire(choice::workload::kToy) || workload == wire(choice::workload::kLinreg);
    if (metric == wire(field::kUpdateVar) || metric == wire(field::kUpdateMean)) {
        if (!vectorised)
            return QObject::tr("update variance is measured on the toy and linreg workloads");
        if (config.value(wire(key::kExperiments)).toInt(1) < 2)
            return QObject::tr("update variance needs Experiments ≥ 2");
    }
    if (metric == wire(field::kNoiseScale) || metric == wire(field::kUpdateVarEstimate)) {
        if (config.value(wire(key::kWorldSize)).toInt(1) < 2)
            return QObject::tr("noise scale needs 2 ranks or more");
    }
    if ((metric == wire(field::kAccuracy) || metric.startsWith(QStringLiteral("val_"))) && !classifier && !workload.isEmpty())
        return QObject::tr("%1 needs a classifier (workload fashion_mnist)").arg(metric.startsWith(QStringLiteral("val_"))
                                                                                     ? QObject::tr("validation")
                                                                                     : QObject::tr("accuracy"));
    if (metric == wire(field::kWMean) && workload != wire(choice::workload::kToy) && !workload.isEmpty())
        return QObject::tr("the weight trajectory is the toy workload's");
    return QString();
}

QString whyNotDrawn(const QString& metric, const RunData& run)
{
    if (metric != wire(field::kUpdateVarEstimate))
        return QString();
    const QString optimizer = run.effectiveConfig().value(wire(key::kOptimizer)).toString();
    if (optimizer.isEmpty() || optimizer == wire(choice::optimizer::kSgd))
        return QString();
    return QObject::tr("the estimate (lr² · noise / batch) holds for SGD only: not drawn for %1").arg(optimizer);
}

QString whyNoData(const ChartDefinition& chart, const RunData& run)
{
    QString reason;
    for (const MetricInfo& metric : chart.metrics) {
        if (run.hasMetric(metric.name))
            return QString();
        if (reason.isEmpty())
            reason = whyNoMetric(metric.name, run);
    }
    return reason;
}

}  // namespace ddplab::ui
