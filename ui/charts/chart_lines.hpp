#pragma once
// The lines of one chart: a raw and a smoothed line per (run, metric) that has data, and each
// run's effective batch as a level where the chart marks it. It keeps them in step with the
// runs on display, styles them (a run's colour; with one run and several metrics, a colour per
// metric, so that nothing is told apart by dash pattern alone), and hands each the points to
// draw on the chosen x axis, reduced to the plot's pixel columns. A run that diverged gets a
// mark at the top edge where it did, and its blow-up does not set the y range.

#include "charts/run_model.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/series/series_summary.hpp"
#include "client/series/smoothed_series.hpp"
#include "client/series/x_axis.hpp"

#include <QColor>
#include <QList>
#include <QSharedPointer>
#include <QStringList>

#include <limits>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QLineSeries;
QT_END_NAMESPACE

namespace ddplab::ui {

class RunData;
struct ReadoutLine;

// The extent of everything a chart draws on its current axes.
struct DataRange {
    double xMin = std::numeric_limits<double>::infinity();
    double xMax = -std::numeric_limits<double>::infinity();
    double yMin = std::numeric_limits<double>::infinity();
    double yMax = -std::numeric_limits<double>::infinity();
    double yMinPositive = std::numeric_limits<double>::infinity();
    bool hasData() const { return xMin <= xMax; }
};

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
    bool smoothed(const MetricInfo& metric) const { return m_span > 0 && metric.smoothable; }

    // The y range covers the lines' sane points only (axis_plan.hpp saneCount).
    DataRange range(bool positiveOnly);
    // Reduces every line that changed to `columns` pixel columns of [xMin, xMax].
    void update(double xMin, double xMax, int columns, bool logScale);
    // Puts each diverged run's mark at the top of the y range shown, at its divergence.
    void placeDivergenceMarks(double yLow, double yHigh, bool logScale);
    // The marks' labels, in the order of the runs: "diverged at step 28".
    QStringList divergenceLabels() const;

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
    double levelOf(const QString& runId) const;  // NaN when none is drawn

private:
    struct Line;
    struct Level;
    struct Mark;

    bool colourByMetric() const;
    void restyle();
    void style(Line& line);
    void styleLevel(Level& level);
    void styleMark(Mark& mark);
    bool syncMarks(QAbstractAxis* xAxis, QAbstractAxis* yAxis);  // true when one was added
    qsizetype saneEnd(Line& line, const QList<QPointF>& data) const;
    QString legendName(const Line& line) const;
    bool standsForItsRun(const Line& line) const;
    void updateRetracing();

    QChart* m_chart;
    ChartDefinition m_definition;
    QList<DisplayedRun> m_runs;
    std::vector<std::unique_ptr<Line>> m_lines;
    std::vector<std::unique_ptr<Level>> m_levels;
    std::vector<std::unique_ptr<Mark>> m_marks;
    XAxis m_axis = XAxis::Step;
    double m_span = 0.0;
    double m_lineScale = 1.0;
    bool m_useOpenGL = false;
    bool m_legendInExports = false;
    QStringList m_legendLabels;
};

}  // namespace ddplab::ui
