// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One study chart on screen: whatever paint function it is given (a plot or a heatmap, the same
// functions that draw PNG and SVG exports), drawn in the window's own colours.

#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QPainter;
QT_END_NAMESPACE

namespace ddplab::ui {

class StudyChartView : public QWidget {
    Q_OBJECT

public:
    using Paint = std::function<void(QPainter& painter, const QRect& area, const QPalette& palette)>;

    explicit StudyChartView(QWidget* parent = nullptr);
    // What it draws, and what its tooltip says (the chart's subtitle).
    void show(Paint paint, const QString& toolTip);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override { return {520, 360}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    Paint m_paint;
};

}  // namespace ddplab::ui
