// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lines of one chart: a raw and a smoothed line per (run, metric) that has data, and each
// run's effective batch as a level where the chart marks it (charts/chart_line.hpp). It keeps
// them in step with the runs on display and hands each the points to draw on the chosen x
// axis, reduced to the plot's pixel columns. How they look is LineStyle's
// (charts/line_style.hpp); where a run diverged is marked by DivergenceMarks
// (charts/divergence_marks.hpp), and its blow-up does not set the y range.

#include "charts/chart_line.hpp"
#include "charts/batch_change_marks.hpp"
#include "charts/divergence_marks.hpp"
#include "charts/line_style.hpp"
#include "charts/run_model.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/runs/throughput_model.hpp"
#include "client/series/x_axis.hpp"

#include <QColor>
#include <QList>
#include <QSharedPointer>
#include <QStringList>

#include <optional>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QLineSeries;
QT_END_NAMESPACE

namespace ddplab::ui {

class RunData;
struct ReadoutLine;

class ChartLines {
public:
    ChartLines(QChart* chart, ChartDefinition definition);
    ~ChartLines();

    void setRuns(const QList<DisplayedRun>& runs);
    // New lines for (run, metric) pairs that have data now; true when any was added.
    bool sync(QAbstractAxis* xAxis, QAbstractAxis* yAxis);
    void reattach(QAbstractAxis* xAxis, QAbstractAxis* yAxis);  // after an axis was replaced

    void setXAxis(XAxis axis);
    void setSmoothingSpan(double span);  // in the x axis's units; 0: none
    void setLineScale(double scale);     // thicker lines for a projector
    void setUseOpenGL(bool useOpenGL);
    bool smoothed(const MetricInfo& metric) const { return m_style.smoothed(metric); }

    // The y range covers the lines' sane points only (axis_plan.hpp saneCount).
    DataRange range(bool positiveOnly);
    // Reduces every line that changed to `columns` pixel columns of [xMin, xMax].
    void update(double xMin, double xMax, int columns, bool logScale);
    // Puts each diverged run's mark at the top of the y range shown, at its divergence, and
    // each change of a run's batch across that range.
    void placeDivergenceMarks(double yLow, double yHigh, bool logScale);
    // Where each run's batch grew: each dashed mark's two ends (batch_change_marks.hpp).
    QList<QList<QPointF>> batchChangeMarks() const { return m_batchMarks.drawn(); }
    // The marks' labels, in the order of the runs: "diverged at step 28".
    QStringList divergenceLabels() const;
    QList<QRectF> divergenceLabelRects() const;
    // The divergence labels' font, and whether they are drawn (not in a thumbnail).
    void setDivergenceLabels(const QFont& font, bool visible);

    // For the hover read-out: each line's value nearest to x (and the x it is at).
    QList<ReadoutLine> readout(double x) const;
    bool hasAnyData() const;
    // Runs on display that have none of this chart's metrics.
    QList<QSharedPointer<RunData>> runsWithoutData() const;

    // Legend: what each entry the exported legend shows is called, in order; and, when lines
    // differ by dash or colour as well, what each means ("dashed: validation"), as HTML for the
    // title bar or as plain text for an export's title.
    const QStringList& legendLabels() const { return m_legendLabels; }
    QString styleKey(bool html = true) const;
    void setLegendVisible(bool inExports);

    QList<QPointF> drawnPoints(const QString& runId, const QString& metric, bool smoothed) const;
    double lineWidth(const QString& runId, const QString& metric) const;  // its strong line's pen, in pixels
    QColor lineColor(const QString& runId, const QString& metric) const;
    double levelOf(const QString& runId) const;  // NaN when none is drawn
    // The throughput chart: each run's modelled throughput on as many GPUs as it has ranks, as a
    // dash-dot level in its colour (none: no model drawn).
    void setThroughputModel(const std::optional<ThroughputModel>& model);
    QStringList levelNames() const;
    QList<QPointF> levelDrawn(const QString& runId) const;  // its points: a staircase where the batch grew

private:
    void restyle();
    void updateRetracing();
    void updateModelledLevels();

    QChart* m_chart;
    ChartDefinition m_definition;
    LineStyle m_style;
    DivergenceMarks m_marks;
    BatchChangeMarks m_batchMarks;
    QList<DisplayedRun> m_runs;
    ChartLineList m_lines;
    BatchLevelList m_levels;
    std::optional<ThroughputModel> m_model;
    XAxis m_axis = XAxis::Step;
    bool m_useOpenGL = false;
    bool m_legendInExports = false;
    QStringList m_legendLabels;
};

}  // namespace ddplab::ui
