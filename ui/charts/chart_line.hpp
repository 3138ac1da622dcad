// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a chart draws, one piece at a time, as ChartLines keeps it: a (run, metric) line, raw and
// smoothed, with what was last drawn of it; and a run's effective batch as a level. ChartLines
// makes and feeds them; LineStyle (charts/line_style.hpp) gives them their look.

#include "charts/run_model.hpp"
#include "client/runs/run_data.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/series/series_summary.hpp"
#include "client/series/smoothed_series.hpp"
#include "client/series/x_axis.hpp"

#include <QColor>
#include <QLineSeries>
#include <QSharedPointer>

#include <limits>
#include <memory>
#include <vector>

namespace ddplab::ui {

// The extent of everything a chart draws on its current axes.
struct DataRange {
    double xMin = std::numeric_limits<double>::infinity();
    double xMax = -std::numeric_limits<double>::infinity();
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = -std::numeric_limits<double>::infinity();
    double yMinPositive = std::numeric_limits<double>::infinity();
    bool hasData() const { return xMin <= xMax; }
};

struct ChartLine {
    QSharedPointer<RunData> run;
    QColor runColor;
    QString runLabel;
    MetricInfo metric;
    int metricIndex = 0;
    QLineSeries* raw = nullptr;
    QLineSeries* smooth = nullptr;
    SmoothedSeries smoothing;
    SeriesSummary rawSummary;
    SeriesSummary smoothSummary;
    // The data range seen so far on the current axis, kept up to date incrementally; a
    // diverged run's line only over its sane points (saneCount), once its run has diverged.
    qsizetype scanned = 0;
    qsizetype saneEnd = -1;  // -1: not known yet (the run has not diverged, or not computed)
    DataRange seen;
    // What the drawn lines were made from: redraw only what changed.
    quint64 drawnRevision = std::numeric_limits<quint64>::max();
    QPointF drawnXRange;
    int drawnColumns = -1;
    bool drawnLog = false;
    int retracedBy = 0;  // later runs whose line for this metric covers this one (drawn with a rim)

    // The line's points on `axis`. A step's training loss and accuracy are measured on its
    // mini-batch before its update: per sample seen and per epoch they are drawn where the step
    // began (the samples seen before it), so runs of unlike batches meet where their weights are
    // the same, and a figure measured after the step (validation, w) where it ended.
    const QList<QPointF>& points(XAxis axis) const;
    mutable QList<QPointF> beforeStep;  // the points drawn where their step began, kept as they grow
    mutable XAxis beforeStepAxis = XAxis::Step;
    void forgetDrawn()
    {
        drawnRevision = std::numeric_limits<quint64>::max();
        scanned = 0;
        saneEnd = -1;
        seen = DataRange();
        rawSummary.reset();
        smoothSummary.reset();
        smoothing.reset();
    }
};

// A run's effective batch, drawn as a horizontal level where the chart marks it.
struct BatchLevel {
    QSharedPointer<RunData> run;
    QColor color;
    QString runLabel;
    double value = 0.0;
    QLineSeries* line = nullptr;
    // A modelled throughput (throughput_model.hpp) instead of the effective batch: as many GPUs
    // as the run has ranks, at the bandwidth named.
    bool modelled = false;
    int gpus = 0;
    QString bandwidth;
};

using ChartLineList = std::vector<std::unique_ptr<ChartLine>>;
using BatchLevelList = std::vector<std::unique_ptr<BatchLevel>>;

}  // namespace ddplab::ui
