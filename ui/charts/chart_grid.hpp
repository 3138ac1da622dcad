#pragma once
// The page of charts: one ChartPanel per chart that the displayed runs have data for (or,
// for a lesson, exactly the lesson's charts), laid out in a grid that follows the width.

#include "charts/redraw_scheduler.hpp"
#include "client/chart_catalog.hpp"

#include <QHash>
#include <QList>
#include <QTimer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QGridLayout;
class QLabel;
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

    void setSmoothing(double weight);
    double smoothing() const { return m_smoothing; }
    void setUseOpenGL(bool useOpenGL);
    // Linear/log choices the user made, by chart id (remembered between sessions).
    void setLogScaleChoices(const QHash<QString, bool>& choices);
    QHash<QString, bool> logScaleChoices() const { return m_logChoices; }

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
    int m_columns = 0;
    double m_smoothing = kDefaultSmoothing;
    bool m_useOpenGL = false;
    RedrawScheduler m_scheduler;
    QTimer m_turnTimer;  // one chart redraws per tick
    QHash<QString, bool> m_logChoices;
};

}  // namespace ddplab::ui
