// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One chart of the lab (with ChartLines and ChartCanvas, the only code that touches Qt
// Charts): a title bar with linear/log, enlarge, reset and export, and the chart itself with
// every displayed run overlaid on the chosen x axis. Data arrival and drawing are separate:
// scheduleRedraw() only asks (redrawWanted) and the grid decides when (RedrawScheduler); the
// redraw smooths what is new, reduces each line to the plot's pixel columns and hands it over
// with one replace() per line. Its pieces: the lines (charts/chart_lines.hpp), the axes
// (charts/chart_axes.hpp), the hover read-out's words (charts/chart_readout.hpp) and the view
// (charts/chart_canvas.hpp); the panel holds the title bar and decides when each is redrawn.

#include "charts/run_model.hpp"
#include "client/runs/throughput_model.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/series/x_axis.hpp"

#include <QWidget>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QHBoxLayout;
class QLabel;
class QPainter;
class QToolButton;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartAxes;
class ChartCanvas;
class ChartLines;

struct RedrawStats {
    qint64 redraws = 0;
    double totalMs = 0.0;     // handing the series over (smoothing, reduction, replace())
    double longestMs = 0.0;
    double lastMs = 0.0;
    double totalPaintMs = 0.0;  // Qt Charts painting them
    double lastPaintMs = 0.0;
};

class ChartPanel : public QWidget {
    Q_OBJECT

public:
    explicit ChartPanel(ChartDefinition definition, QWidget* parent = nullptr);
    ~ChartPanel() override;

    // The wrapped key and notes fit in whatever height the grid gives: without this, the page's
    // scroll area would ask every chart for its full preferred height and show a row at a time.
    bool hasHeightForWidth() const override { return false; }

    const ChartDefinition& definition() const { return m_definition; }

    void setRuns(const QList<DisplayedRun>& runs);
    const QList<DisplayedRun>& runs() const { return m_runs; }
    // Marks the chart as out of date and asks its grid for a turn (redrawWanted).
    void scheduleRedraw();
    void redrawNow();
    bool needsRedraw() const { return m_needsRedraw; }

    void setXAxis(XAxis axis);
    XAxis xAxis() const { return m_xAxis; }
    // The smoothing window, in the x axis's own units (0: none).
    void setSmoothingSpan(double span);
    void setLogScale(bool logScale);
    bool logScale() const { return m_logScale; }
    // Lines for the back of a room (1: normal); fonts follow the widget's own font.
    void setLineScale(double scale);
    double lineScale() const { return m_lineScale; }
    void setEnlarged(bool enlarged);  // only the enlarge button's look; the grid lays it out
    // A thumbnail (presentation mode's strip): its title at the window's font and the enlarge
    // button; no axis titles, tick labels, notes or divergence words, which would be smaller
    // than the enlarged chart's and unreadable from the back of a room.
    void setCompact(bool compact);
    bool isCompact() const { return m_compact; }
    void resetView();
    void setUseOpenGL(bool useOpenGL);
    // The throughput chart's model of GPUs (other charts ignore it).
    void setThroughputModel(const std::optional<ThroughputModel>& model);
    QStringList levelNames() const;  // the dash-dot levels' legend entries

    // Draws the chart, with its title and legend, into `size` device pixels of `painter`
    // (PNG and SVG export), at `scale` times the application's normal fonts and lines; with
    // `textPixels` (a slide) its smallest words (ticks, legend, axis titles) are that many
    // pixels high whatever the screen's font, and its title a little larger.
    void render(QPainter& painter, const QSize& size, double scale = 1.0, int textPixels = 0);

    // What is drawn now, for tests: the points of the raw (or smoothed) line of one run's metric.
    QList<QPointF> drawnPoints(const QString& runId, const QString& metric, bool smoothed = false) const;
    // The width of a run's line for a metric (wider than the others where a later run covers it).
    double lineWidth(const QString& runId, const QString& metric) const;
    QColor lineColor(const QString& runId, const QString& metric) const;
    // The entries the chart's legend (drawn in exports) is told to show, in order.
    QStringList legendLabels() const;
    double effectiveBatchMark(const QString& runId) const;  // NaN when not drawn
    QList<QPointF> effectiveBatchLine(const QString& runId) const;  // as drawn: rises where the batch grew
    QPointF yAxisRange() const;  // (low, high) of the y axis shown
    // Where diverged runs are marked at the top edge: "diverged at step 28", one per run.
    QStringList divergenceLabels() const;
    QList<QRectF> divergenceLabelRects() const;  // in the chart's coordinates, as plotArea()
    // Where runs' batches grew: each dashed mark's two ends, in data coordinates.
    QList<QList<QPointF>> batchChangeMarks() const;
    QRectF plotArea() const;
    // The plot area of the last render(), in the rendered image's pixels (for tests: where its
    // tick labels must be).
    QRectF exportedPlotArea() const { return m_exportedPlotArea; }
    QString yTitleShown() const;  // the y title as drawn (wrapped with <br> when long)
    bool tickLabelsShown() const;
    RedrawStats redrawStats() const;

signals:
    void redrawWanted();
    void exportRequested(ddplab::ui::ChartPanel* panel);
    void enlargeRequested(ddplab::ui::ChartPanel* panel);
    void logScaleToggled(bool logScale);

protected:
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QHBoxLayout* buildHeader();
    void createYAxis();
    void applyTheme();
    void applyFonts(const QFont& base, double lineScale);
    void updateEmptyNote();
    void showReadout(const QPointF& value);
    void showContextMenu(const QPoint& globalPosition);

    ChartDefinition m_definition;
    QList<DisplayedRun> m_runs;
    QChart* m_chart = nullptr;
    ChartCanvas* m_canvas = nullptr;
    std::unique_ptr<ChartLines> m_lines;
    std::unique_ptr<ChartAxes> m_axes;
    QLabel* m_title = nullptr;
    QLabel* m_emptyNote = nullptr;
    QLabel* m_styleKey = nullptr;
    QToolButton* m_logButton = nullptr;
    QToolButton* m_enlargeButton = nullptr;
    QToolButton* m_resetButton = nullptr;
    QToolButton* m_exportButton = nullptr;
    XAxis m_xAxis = XAxis::Step;
    bool m_logScale = false;
    double m_lineScale = 1.0;
    bool m_compact = false;
    bool m_followData = true;  // axes fit the data until the user zooms or pans
    bool m_needsRedraw = false;
    bool m_exporting = false;  // render(): the chart has the export's size, not yet its layout
    QRectF m_exportedPlotArea;
    RedrawStats m_stats;
};

}  // namespace ddplab::ui
