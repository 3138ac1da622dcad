// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a chart's axes end and what their ticks say: ends on whole steps of 1, 2 or 5 times a
// power of ten, labels with just enough decimals that neighbouring ticks never read the same,
// a fraction (accuracy) never above 1, a log axis with several ticks even inside one decade,
// a y range that a diverged run cannot blow up. Pure arithmetic, so that each rule has a test.

#include <QList>
#include <QPointF>
#include <QString>

namespace ddplab::ui {

// The smallest of 1, 2 or 5 times a power of ten that is at least `raw`.
double niceStep(double raw);

// printf format for tick labels `step` apart on an axis reaching `largest` in magnitude.
QString labelFormatFor(double step, double largest);

struct LinearAxisPlan {
    double low = 0.0;
    double high = 1.0;
    int tickCount = 2;
    QString labelFormat;
};
// A value axis for data from `min` to `max`, about `ticks` ticks. Values that are never
// negative (a loss, a rate) get no axis below zero; fractions no axis above one.
LinearAxisPlan planValueAxis(double min, double max, int ticks, bool neverNegative, bool fraction);

struct LogAxisPlan {
    double low = 1.0;
    double high = 10.0;
    double base = 10.0;  // ticks at base^n: 10 over decades, finer inside a single one
    QString labelFormat;
};
// The one log-axis tick planner, for the live charts and the study charts alike: the ticks
// inside [low, high] (low > 0): the decades (every few over many), with 2 and 5 between them
// over up to three decades, every digit inside one, and evenly spaced round numbers where even
// that leaves fewer than three. The study charts draw these ticks; the live charts' log axis
// (Qt Charts ticks only at powers of one base) takes as many from logAxisFor.
QList<double> planLogTicks(double low, double high);

// A log axis over whole decades around [minPositive, max].
LogAxisPlan planLogAxis(double minPositive, double max);
// A log axis showing exactly [low, high] (after a zoom): several ticks even inside one decade.
LogAxisPlan logAxisFor(double low, double high);

struct XAxisPlan {
    double interval = 1.0;  // between ticks, anchored at 0
    QString labelFormat;
};
// About six ticks over [min, max]; whole-numbered axes (steps, samples) tick on whole numbers.
XAxisPlan planXAxis(double min, double max, bool whole);

// A blow-up must not flatten every other curve: a diverged run's line counts for the y range
// only while it is sane, i.e. before x `divergedAt` and while it stays below kSaneGrowth times
// its early level (the largest of its first kSaneEarlyPoints values). Returns how many of
// `points` (in x order) that is; what lies beyond is drawn off the edge and marked there.
inline constexpr double kSaneGrowth = 3.0;
inline constexpr int kSaneEarlyPoints = 3;
qsizetype saneCount(const QList<QPointF>& points, double divergedAt);

}  // namespace ddplab::ui
