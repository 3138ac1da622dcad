#pragma once
// One chart of the lab (the wrapper that keeps Qt Charts out of everything else): a title bar
// with linear/log, reset and export, and the chart itself with every displayed run overlaid.
// Data arrival and drawing are separate: scheduleRedraw() only asks (redrawWanted) and the grid
// decides when (RedrawScheduler); the redraw smooths what is new, reduces each series to the
// plot's pixel columns and hands it over with one replace() per series.

#include "charts/run_model.hpp"
#include "client/chart_catalog.hpp"

#include <QWidget>

#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QAbstractAxis;
class QValueAxis;
class QHBoxLayout;
class QLabel;
class QToolButton;
class QPainter;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartCanvas;

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

    const ChartDefinition& definition() const { return m_definition; }

    void setRuns(const QList<DisplayedRun>& runs);
    // Marks the chart as out of date and asks its grid for a turn (redrawWanted).
    void scheduleRedraw();
    void redrawNow();
    bool needsRedraw() const { return m_needsRedraw; }

    void setSmoothing(double weight);
    void setLogScale(bool logScale);
    bool logScale() const { return m_logScale; }
    void resetView();
    void setUseOpenGL(bool useOpenGL);

    // Draws the chart, with its title, into `size` device pixels of `painter` (PNG and SVG export).
    void render(QPainter& painter, const QSize& size);

    // What is drawn now, for tests: the points of the raw (or smoothed) line of one run's metric.
    QList<QPointF> drawnPoints(const QString& runId, const QString& metric, bool smoothed = false) const;
    // The entries the chart's legend (drawn in exports) is told to show, in order.
    const QStringList& legendLabels() const { return m_legendLabels; }
    double effectiveBatchMark(const QString& runId) const;  // NaN when not drawn
    RedrawStats redrawStats() const;

signals:
    void redrawWanted();
    void exportRequested(ddplab::ui::ChartPanel* panel);
    void logScaleToggled(bool logScale);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct SeriesEntry;
    struct LevelEntry;

    QHBoxLayout* buildHeader();
    void syncEntries();
    void createYAxis();
    void applyTheme();
    void styleEntry(SeriesEntry& entry);
    void styleLevel(LevelEntry& level);
    void restyleAll();
    void updateLegendVisibility();
    void fitAxesToData();
    void updateRetracing();
    void updateSeries(int columns);
    void updateEmptyNote();
    void showReadout(const QPointF& value);
    void showContextMenu(const QPoint& globalPosition);
    QString legendName(const SeriesEntry& entry) const;
    bool legendNamesRunsOnly() const;
    QString lineStyleKey() const;

    ChartDefinition m_definition;
    QList<DisplayedRun> m_runs;
    QChart* m_chart = nullptr;
    ChartCanvas* m_canvas = nullptr;
    QValueAxis* m_xAxis = nullptr;
    QAbstractAxis* m_yAxis = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_emptyNote = nullptr;
    QLabel* m_styleKey = nullptr;
    QToolButton* m_logButton = nullptr;
    std::vector<std::unique_ptr<SeriesEntry>> m_entries;
    std::vector<std::unique_ptr<LevelEntry>> m_levels;
    double m_smoothing = 0.0;
    bool m_logScale = false;
    bool m_followData = true;     // axes fit the data until the user zooms or pans
    bool m_useOpenGL = false;
    bool m_needsRedraw = false;
    RedrawStats m_stats;
    QStringList m_legendLabels;
};

}  // namespace ddplab::ui
