// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A study's chart, drawn with QPainter: lines of points on linear or log axes (over the data's
// own range), a band of ± one standard error around each, hollow marks for points that never
// reached the target or diverged, fitted curves, vertical markers (the critical batch, the
// measured B_simple; an arrow at the edge for one outside the data) with labels that do not
// overlap, shaded bands of x, and a few lines of notes (fitted exponents). The same paint serves the screen, PNG
// and SVG.

#include "client/series/plot_axis.hpp"  // tickLabelRows, for those who test the layout

#include <QColor>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QPainter;
class QPalette;
class QRect;
QT_END_NAMESPACE

namespace ddplab::ui {

struct PlotLine {
    QString label;          // in the legend; "" keeps it out
    QColor color;
    QList<QPointF> points;  // by x; a NaN y leaves a gap
    QList<double> errors;   // ± per point (standard error), or empty
    QList<bool> hollow;     // per point: drawn hollow (not reached, diverged), or empty
    bool markers = true;
    bool dashed = false;    // fits and reference slopes
};

struct PlotMarker {
    double x = 0.0;  // a vertical line at x
    QString label;
    QColor color;
};

// A band of x values shaded behind the data (the advisor's safe LR range).
struct PlotSpan {
    double low = 0.0, high = 0.0;
    QColor color;  // drawn faint
};

struct PlotSpec {
    QString id;        // file name on export: "figure-vs-batch"
    QString title;
    QString subtitle;  // what was measured, in one line
    QString xTitle;
    QString yTitle;
    bool logX = true;
    bool logY = false;
    QList<PlotLine> lines;
    QList<PlotMarker> markers;
    QList<PlotSpan> spans;
    QStringList notes;  // below the legend: "slope -0.99 (none)", "B_crit 140 (fit)"
    QString emptyText;  // shown when no line has a point
};

// Draws `spec` into `area`; `scale` enlarges fonts and lines (exports for slides). Without a
// palette, black on white (files).
void paintPlot(QPainter& painter, const QRect& area, const PlotSpec& spec, double scale = 1.0, const QPalette* palette = nullptr);

// The x range `spec` is drawn over: its lines' own (with a little room), never stretched to a
// marker outside them.
QPointF plotXRange(const PlotSpec& spec);
// The markers the x axis does not reach, as notes ("B_simple 6390: beyond the x axis (16 to 1024), not
// drawn"): paintPlot adds them to the notes and draws no arrow at the edge for them.
QStringList outsideMarkerNotes(const PlotSpec& spec);

}  // namespace ddplab::ui
