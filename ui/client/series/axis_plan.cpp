// SPDX-License-Identifier: GPL-3.0-or-later
#include "axis_plan.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {
constexpr int kXTicks = 6;
constexpr int kLogTicksInsideADecade = 4;
// Beyond these magnitudes, plain decimals grow too long: scientific notation instead.
constexpr double kLargestPlain = 1e6;
constexpr double kSmallestPlainStep = 1e-5;
}  // namespace

double niceStep(double raw)
{
    if (!(raw > 0) || !std::isfinite(raw))
        return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (const double step : {1.0, 2.0, 5.0}) {
        if (raw <= step * magnitude * (1 + 1e-9))
            return step * magnitude;
    }
    return 10.0 * magnitude;
}

QString labelFormatFor(double step, double largest)
{
    largest = std::fabs(largest);
    if (!(step > 0) || !std::isfinite(step))
        return QStringLiteral("%g");
    if (largest < kLargestPlain && step >= kSmallestPlainStep) {
        // Decimals down to the step's first digit: 0.25 steps need two, 0.0001 steps four.
        const int decimals = std::max(0, int(std::ceil(-std::log10(step) - 1e-9)));
        const double firstDigit = step / std::pow(10.0, -decimals);
        const int extra = std::fabs(firstDigit - std::round(firstDigit)) > 1e-6 ? 1 : 0;  // 0.25 = 2.5 x 0.1
        return QStringLiteral("%.%1f").arg(decimals + extra);
    }
    // Significant digits enough to tell ticks apart at this magnitude.
    const int digits = std::clamp(int(std::ceil(std::log10(std::max(largest, step) / step) - 1e-9)) + 2, 2, 12);
    return QStringLiteral("%.%1g").arg(digits);
}

LinearAxisPlan planValueAxis(double min, double max, int ticks, bool neverNegative, bool fraction)
{
    LinearAxisPlan plan;
    if (!std::isfinite(min) || !std::isfinite(max)) {
        plan.labelFormat = QStringLiteral("%g");
        return plan;
    }
    double pad = (max - min) * 0.05;
    if (pad == 0)
        pad = min == 0 ? 1.0 : std::fabs(min) * 0.1;
    if (fraction)
        pad = std::min(pad, 0.05);
    const double step = niceStep((max - min + 2 * pad) / (ticks - 1));
    double low = std::floor((min - pad) / step) * step;
    double high = std::ceil((max + pad) / step) * step;
    if (neverNegative && min >= 0)
        low = std::max(low, 0.0);
    if (fraction && max <= 1)
        high = std::min(high, 1.0);
    if (high <= low)
        high = low + step;
    plan.low = low;
    plan.high = high;
    plan.tickCount = int(std::lround((high - low) / step)) + 1;
    plan.labelFormat = labelFormatFor(step, std::max(std::fabs(low), std::fabs(high)));
    return plan;
}

QList<double> planLogTicks(double low, double high)
{
    QList<double> ticks;
    if (!(low > 0) || !(high > low) || !std::isfinite(high))
        return ticks;
    const int first = int(std::floor(std::log10(low)));
    const int last = int(std::ceil(std::log10(high)));
    const int decades = last - first;
    // Inside a single decade 1, 2 and 5 may leave one tick or none: every digit then.
    const QList<double> mantissas = decades <= 1   ? QList<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}
                                    : decades <= 3 ? QList<double>{1, 2, 5}
                                                   : QList<double>{1};
    const int every = std::max(1, decades / 6);
    for (int d = first; d <= last; d += (mantissas.size() > 1 ? 1 : every)) {
        for (double m : mantissas) {
            const double tick = std::pow(10.0, d) * m;
            if (tick >= low && tick <= high)
                ticks.append(tick);
        }
    }
    if (ticks.size() < 3) {
        // A range narrower than 1 to 2 (steps of 12 to 20): evenly spaced round numbers.
        const LinearAxisPlan plan = planValueAxis(low, high, 5, true, false);
        ticks.clear();
        const double step = (plan.high - plan.low) / std::max(1, plan.tickCount - 1);
        for (int i = 0; i < plan.tickCount; ++i) {
            const double tick = plan.low + step * i;
            if (tick >= low && tick <= high && tick > 0)
                ticks.append(tick);
        }
    }
    return ticks;
}

LogAxisPlan logAxisFor(double low, double high)
{
    LogAxisPlan plan;
    if (!(low > 0) || !(high > low)) {
        plan.labelFormat = QStringLiteral("%g");
        return plan;
    }
    plan.low = low;
    plan.high = high;
    const double decades = std::log10(high / low);
    // Inside one decade base 10 would label one tick at most: a base that spaces as many ticks
    // as the planner gives the range (never fewer than kLogTicksInsideADecade intervals).
    const int intervals = std::max(kLogTicksInsideADecade, int(planLogTicks(low, high).size()) - 1);
    plan.base = decades >= 1.0 ? 10.0 : std::pow(high / low, 1.0 / intervals);
    plan.labelFormat = decades >= 1.0 ? QStringLiteral("%g") : QStringLiteral("%.3g");
    return plan;
}

LogAxisPlan planLogAxis(double minPositive, double max)
{
    if (!(minPositive > 0) || !std::isfinite(max) || !(max > 0))
        return logAxisFor(1.0, 10.0);
    double low = std::pow(10.0, std::floor(std::log10(minPositive)));
    double high = std::pow(10.0, std::ceil(std::log10(max)));
    if (high <= low)
        high = low * 10;
    // A hair beyond the decades, so rounding in pow() cannot drop the end labels.
    return logAxisFor(low * (1 - 1e-9), high * (1 + 1e-9));
}

XAxisPlan planXAxis(double min, double max, bool whole)
{
    XAxisPlan plan;
    const double span = std::isfinite(max - min) && max > min ? max - min : 1.0;
    plan.interval = niceStep(span / kXTicks);
    if (whole)
        plan.interval = std::max(1.0, plan.interval);  // never closer than one step or sample
    plan.labelFormat = labelFormatFor(plan.interval, std::max(std::fabs(min), std::fabs(max)));
    return plan;
}

qsizetype saneCount(const QList<QPointF>& points, double divergedAt)
{
    double early = 0.0;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const double size = std::fabs(points[i].y());
        if (points[i].x() >= divergedAt || (early > 0 && size >= kSaneGrowth * early))
            return i;
        if (i < kSaneEarlyPoints)
            early = std::max(early, size);
    }
    return points.size();
}

}  // namespace ddplab::ui
