// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The axes of a study's plot (plots/study_plot): a value range gathered from the data, linear
// or log, with the ticks axis_plan plans for both chart stacks, and their labels; and where the
// x tick labels go so that none runs into a neighbour. Pure arithmetic: the plot paints them.

#include <QList>
#include <QString>

#include <limits>

namespace ddplab::ui {

// The smallest and largest finite value taken (positive only, for a log axis).
struct Range {
    double low = std::numeric_limits<double>::infinity();
    double high = -std::numeric_limits<double>::infinity();
    void take(double value, bool log);
    bool valid() const { return low <= high; }
};

// Where an axis puts a value, and its ticks.
struct Axis {
    bool log = false;
    double low = 0.0, high = 1.0;  // in data units
    QList<double> ticks;
    QString format = QStringLiteral("%g");

    double fraction(double value) const;  // 0 at low, 1 at high
};

// An axis over `range` with a little room around it (1 to 10, or 0 to 1, when it is empty).
Axis makeAxis(Range range, bool log);
// A tick's label: a few significant digits on a log axis, the axis's own format on a linear one.
QString tickText(double value, const Axis& axis);

// The row (0 or 1) of each x tick label centred at `centres` with `widths`, so that no label
// runs into a neighbour (`gap` apart at least): every label is shown, in a second row where
// the first has no room; -1 only where neither row has.
QList<int> tickLabelRows(const QList<double>& centres, const QList<double>& widths, double gap);

}  // namespace ddplab::ui
