// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The page of charts: one ChartPanel per chart that the displayed runs have data for (or, for
// a lesson, exactly the lesson's charts), laid out in a grid that follows the width. One x axis
// and one smoothing for the whole page; any chart can be enlarged to the whole page (in
// presentation mode, the others stay beside it as thumbnails).

#include "client/series/redraw_scheduler.hpp"
#include "client/runs/throughput_model.hpp"
#include "client/series/chart_catalog.hpp"
#include "client/series/x_axis.hpp"

#include <QHash>
#include <QList>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QScrollArea;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartPanel;
class RunModel;

class ChartGrid : public QWidget {
    Q_OBJECT

public:
    // As TensorBoard's default: noise visibly tamed, trends still prompt.
    static constexpr double kDefaultSmoothing = 0.6;

    explicit ChartGrid(RunModel& model, QWidget* parent = nullptr);

    // A lesson's charts; an empty list shows every catalog chart that has data.
    void setFocusCharts(const QList<ChartDefinition>& charts);
    const QList<ChartPanel*>& panels() const { return m_panels; }
    ChartPanel* panel(const QString& chartId) const;

    void setXAxis(XAxis axis);
    XAxis xAxis() const { return m_xAxis; }
    // 0 to 0.99 (the slider): the window of a density-independent moving average, as a share
    // of how far the runs on display reach on the x axis (smoothingSpan()).
    void setSmoothing(double weight);
    double smoothing() const { return m_smoothing; }
    double smoothingSpan() const;
    void setUseOpenGL(bool useOpenGL);
    // A lesson about speed: its throughput chart draws each run's model of as many GPUs.
    void setThroughputModel(const std::optional<ThroughputModel>& model);
    // Linear/log choices the user made, by chart id (remembered between sessions).
    void setLogScaleChoices(const QHash<QString, bool>& choices);
    QHash<QString, bool> logScaleChoices() const { return m_logChoices; }

    // Presentation: every chart's lines `lineScale` times thicker (fonts follow the window's);
    // an enlarged chart keeps the others as small thumbnails below it.
    void setPresentation(bool on, double lineScale);
    bool presentation() const { return m_presentation; }
    // One chart over the whole page (nullptr: all of them).
    void setEnlarged(ChartPanel* panel);
    ChartPanel* enlarged() const;

    void redrawAllNow();
    void resetAllViews();

signals:
    void exportRequested(ddplab::ui::ChartPanel* panel);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QList<ChartDefinition> wantedCharts() const;
    void syncPanels();
    void relayout();
    void applySmoothing();
    // What one frame of every chart costs (handing over the series plus painting them): the
    // scheduler spaces the turns by it.
    double frameCostMs() const;
    void adaptRedrawInterval();
    void requestRedraw();
    QList<bool> waitingPanels() const;
    void redrawNextPanel();
    int columnsForWidth(int width) const;

    RunModel& m_model;
    QList<ChartDefinition> m_focus;
    QList<ChartPanel*> m_panels;
    QGridLayout* m_layout = nullptr;
    QLabel* m_placeholder = nullptr;
    QScrollArea* m_strip = nullptr;  // presentation: the thumbnails below the enlarged chart
    QHBoxLayout* m_stripLayout = nullptr;
    int m_columns = 0;
    XAxis m_xAxis = XAxis::Step;
    double m_smoothing = kDefaultSmoothing;
    double m_span = -1.0;
    bool m_useOpenGL = false;
    std::optional<ThroughputModel> m_throughputModel;
    bool m_presentation = false;
    double m_lineScale = 1.0;
    QPointer<ChartPanel> m_enlarged;
    RedrawScheduler m_scheduler;
    QTimer m_turnTimer;  // one chart redraws per tick
    QHash<QString, bool> m_logChoices;
};

}  // namespace ddplab::ui
