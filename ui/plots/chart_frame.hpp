// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every study chart starts with, whether it is a plot or a heatmap: the background (the
// window's colours on screen, the dark theme too; black on white in files), fonts scaled for
// slides, and the title and subtitle at the top.

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QString>

QT_BEGIN_NAMESPACE
class QPainter;
class QPalette;
class QRect;
QT_END_NAMESPACE

namespace ddplab::ui {

struct ChartFrame {
    QColor background;
    QColor text;
    QFont base;
    QFont title;
    QFont small;
    QFontMetricsF titleMetrics;
    QFontMetricsF smallMetrics;
    double pad;
};

// Fills `area` with the background and returns the frame's colours, fonts and padding.
ChartFrame beginChart(QPainter& painter, const QRect& area, double scale, const QPalette* palette);
// Draws the title (elided) and the subtitle (wrapped, two lines at most); returns the y below
// them. Leaves the small font set.
double drawHeading(QPainter& painter, const QRect& area, const ChartFrame& frame, const QString& title, const QString& subtitle);

}  // namespace ddplab::ui
