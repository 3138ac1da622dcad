// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_axis.hpp"

#include "client/series/axis_plan.hpp"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {

void Range::take(double value, bool log)
{
    if (!std::isfinite(value) || (log && value <= 0))
        return;
    low = std::min(low, value);
    high = std::max(high, value);
}

double Axis::fraction(double value) const
{
    if (log)
        return (std::log10(value) - std::log10(low)) / (std::log10(high) - std::log10(low));
    return (value - low) / (high - low);
}

Axis makeAxis(Range range, bool log)
{
    Axis axis;
    axis.log = log;
    if (!range.valid())
        range = log ? Range{1.0, 10.0} : Range{0.0, 1.0};
    if (log) {
        // A little room around the data; the ticks are the one log planner's.
        axis.low = range.low / 1.35;
        axis.high = range.high * 1.35;
        axis.ticks = planLogTicks(axis.low, axis.high);
        return axis;
    }
    // Data never below zero (samples seen, steps) gets no axis below it: a noise-scale chart ran from -5000 samples.
    const LinearAxisPlan plan = planValueAxis(range.low, range.high, 5, range.low >= 0, false);
    axis.low = plan.low;
    axis.high = plan.high;
    axis.format = plan.labelFormat;
    for (int i = 0; i < plan.tickCount; ++i)
        axis.ticks.append(plan.low + (plan.high - plan.low) * i / std::max(1, plan.tickCount - 1));
    return axis;
}

QString tickText(double value, const Axis& axis)
{
    if (axis.log) {
        // As few significant digits as keep neighbouring ticks apart and say each tick's value:
        // 0.002, never 0.00200000001. Apart alone was not enough: a study's chosen batches 16,
        // 32, ... 1024 read "2e+01, 3e+01, ... 1e+03" (distinct at one digit, none of them true).
        const auto says = [](double tick, const QString& label) {
            return std::fabs(label.toDouble() - tick) <= 1e-3 * std::fabs(tick);
        };
        // And plain where plain is short: 200, not 2e+02 (a noise scale's axis read "5e+01, 1e+02, 2e+02").
        const auto label = [](double tick, int digits) {
            const QString text = QString::number(tick, 'g', digits);
            const double magnitude = std::fabs(tick);
            return text.contains(QLatin1Char('e')) && magnitude >= 1.0 && magnitude < 1e6 ? QString::number(tick, 'f', 0) : text;
        };
        for (int digits = 1; digits < 6; ++digits) {
            QStringList labels;
            bool allTrue = true;
            for (double tick : axis.ticks) {
                labels.append(label(tick, digits));
                allTrue = allTrue && says(tick, labels.last());
            }
            labels.removeDuplicates();
            if (allTrue && labels.size() == axis.ticks.size())
                return label(value, digits);
        }
        return label(value, 6);
    }
    return QString::asprintf(qPrintable(axis.format), value);
}

QList<int> tickLabelRows(const QList<double>& centres, const QList<double>& widths, double gap)
{
    QList<int> rows;
    double endOf[2] = {-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    for (qsizetype i = 0; i < centres.size(); ++i) {
        const double start = centres[i] - widths[i] / 2;
        int row = -1;
        for (int candidate : {0, 1}) {
            if (start >= endOf[candidate] + gap) {
                row = candidate;
                break;
            }
        }
        if (row >= 0)
            endOf[row] = centres[i] + widths[i] / 2;
        rows.append(row);
    }
    return rows;
}

}  // namespace ddplab::ui
