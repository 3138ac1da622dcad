// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which charts the lab draws and which metrics go on each: the one place that names them.
// A lesson lists metric names; each maps to the chart that holds it (a metric this table does
// not know gets a chart of its own, so new engine metrics still show).

#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct MetricInfo {
    QString name;       // as in RunData ("loss", "val_accuracy")
    QString label;      // in legends and read-outs ("validation")
    bool smoothable = true;  // noisy per-step figures; sparse or already smoothed ones are not
    bool markers = false;    // sparse series (evaluations, epochs) show their points
};

struct ChartDefinition {
    QString id;     // file names of exports ("loss" -> loss.png)
    QString title;
    QString yTitle;
    QList<MetricInfo> metrics;
    bool logByDefault = false;
    bool marksEffectiveBatch = false;  // draw each run's effective batch as a level line
    bool fraction = false;             // values lie in [0, 1] (accuracy): the axis never goes past 1
    // Rates and durations: a linear y axis from 0, so that its heights compare (a throughput axis
    // from 500 drew 574 against 361 images/s as more than twice as high).
    bool fromZero = false;
    // A run that diverges explodes here (loss, gradient norm, update variance): its blow-up is
    // left out of the y range and marked at the edge instead (client/series/axis_plan.hpp saneCount).
    bool blowsUp = false;
    // Shown only for runs whose metric moves (the effective batch under a batch schedule): a
    // flat line on every other run would be a chart that says nothing.
    bool onlyWhenItMoves = false;
    // Shown only where a lesson names it (the samples of each step: padding and drop_last), not
    // among every run's charts.
    bool onlyWhenNamed = false;

    QStringList metricNames() const;
};

const QList<ChartDefinition>& chartCatalog();

// The chart that shows `metric` (an ad-hoc one for metrics the catalog does not know).
ChartDefinition chartForMetric(const QString& metric);

// Charts for a lesson's metric list, each once, in the order the lesson names them.
QList<ChartDefinition> chartsForMetrics(const QStringList& metrics);

// Position of a metric in the catalog, for ordering CSV columns (unknown ones sort last).
int catalogOrder(const QString& metric);

}  // namespace ddplab::ui
