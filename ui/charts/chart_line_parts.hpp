#pragma once
// ChartLines' insides, shared by its files: chart_lines.cpp (what is drawn),
// chart_lines_style.cpp (how it looks: colours, dashes, legend, style key) and
// chart_lines_marks.cpp (where runs diverged).

#include "charts/chart_lines.hpp"
#include "client/runs/run_data.hpp"
#include "client/series/series_summary.hpp"
#include "client/series/smoothed_series.hpp"

#include <QColor>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSharedPointer>

#include <limits>

namespace ddplab::ui {

struct ChartLines::Line {
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
    int retracedBy = 0;  // later runs whose line for this metric is the same as this one

    const QList<QPointF>& points(XAxis axis) const { return run->series(metric.name, axis); }
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

// Where a run diverged: a triangle at the top of the plot, labelled with the step.
struct ChartLines::Mark {
    QSharedPointer<RunData> run;
    QColor color;
    QScatterSeries* point = nullptr;
};

struct ChartLines::Level {
    QSharedPointer<RunData> run;
    QColor color;
    QString runLabel;
    double value = 0.0;
    QLineSeries* line = nullptr;
};

// One run, several metrics: the colour of its metricIndex-th line (the first keeps the run's).
QColor metricColor(const QColor& runColor, int metricIndex);

}  // namespace ddplab::ui
