// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Charts page: the x axis and smoothing for every chart, the legend of the runs on
// display, and the grid of charts (scrolling when they do not fit). Predicting first, a card
// with the lesson's question covers the charts (they fill in beneath it) until it is revealed.

#include "client/series/x_axis.hpp"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QScrollArea;
class QSlider;
class QStackedWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartGrid;
class RunModel;

class ChartPage : public QWidget {
    Q_OBJECT

public:
    ChartPage(RunModel& model, QAction* resetViews, QWidget* parent = nullptr);

    ChartGrid* grid() const { return m_grid; }
    void setXAxis(XAxis axis);
    XAxis xAxis() const;
    void setSmoothing(double weight);  // 0 to 0.99
    double smoothing() const;

    // The question over the charts; uncover() shows them.
    void cover(const QString& question);
    void uncover();
    bool isCovered() const;

signals:
    void revealRequested();

private:
    void showSmoothing();

    ChartGrid* m_grid = nullptr;
    QComboBox* m_xAxis = nullptr;
    QSlider* m_smoothing = nullptr;
    QLabel* m_smoothingValue = nullptr;
    QStackedWidget* m_stack = nullptr;  // the charts, or the question over them
    QLabel* m_question = nullptr;
};

}  // namespace ddplab::ui
