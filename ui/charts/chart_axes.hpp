// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The two axes of one live chart: x linear on the chosen x axis, y linear or logarithmic. They
// fit the data (ticks and labels planned by client/series/axis_plan.hpp) until a person zooms or pans,
// and then only their ticks and labels follow what is shown. A log y axis is a new axis object
// (Qt Charts cannot switch one), so the chart's lines are attached to it again by ChartLines.

#include "charts/chart_line.hpp"
#include "client/series/x_axis.hpp"

#include <QPointF>
#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChart;
class QFont;
class QPalette;
class QValueAxis;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartAxes {
public:
    // `fraction`: the y values are fractions (0 to 1) and the linear axis is planned as such.
    // `fromZero`: a linear y axis always starts at 0 (rates: a range from 500 makes 1.5x look like 3x).
    ChartAxes(QChart* chart, QString yTitle, bool fraction, bool fromZero = false);

    QValueAxis* x() const { return m_x; }
    QAbstractAxis* y() const { return m_y; }

    void setXAxis(XAxis axis);  // its title
    // Replaces the y axis by a linear or a log one; the series are detached from the old one.
    // `decorated`: titles and tick labels shown (a thumbnail has neither: words smaller than
    // the enlarged chart's would be unreadable from the back of a room).
    void makeYAxis(bool logScale, bool decorated);
    void setDecorated(bool decorated);
    // The y title as drawn: on two lines where one would be longer than the plot is high (Qt
    // Charts would cut it to "variance per par…"), on one otherwise.
    void wrapYTitle(double plotHeight);
    QString yTitleShown() const;

    // Both axes around `range`; `compact` plans fewer y ticks (a thumbnail).
    void fit(const DataRange& range, XAxis axis, bool logScale, bool compact);
    // After a zoom or pan: ticks and labels for the ranges shown now.
    void followZoom(XAxis axis, bool logScale);
    QPointF yRange() const;  // (low, high)

    void applyColors(const QPalette& colors, bool dark);
    void applyFont(const QFont& font);

private:
    QChart* m_chart;
    QString m_yTitle;
    bool m_fraction;
    bool m_fromZero;
    bool m_decorated = true;
    QValueAxis* m_x = nullptr;
    QAbstractAxis* m_y = nullptr;
};

}  // namespace ddplab::ui
