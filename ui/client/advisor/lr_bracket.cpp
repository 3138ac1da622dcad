// SPDX-License-Identifier: GPL-3.0-or-later
#include "lr_bracket.hpp"

#include "client/study/scaling_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

double meanOf(const QList<double>& values)
{
    double sum = 0.0;
    for (double value : values) {
        if (!std::isfinite(value))
            return std::numeric_limits<double>::infinity();  // one diverged seed spoils the LR
        sum += value;
    }
    return values.isEmpty() ? std::numeric_limits<double>::infinity() : sum / double(values.size());
}

// The vertex of the parabola through three points (x in log LR), when it is a bowl and its
// bottom lies between the outer two; else nullopt.
bool parabolaVertex(double x0, double y0, double x1, double y1, double x2, double y2, double* vertex)
{
    const double denominator = (x0 - x1) * (x0 - x2) * (x1 - x2);
    if (denominator == 0.0)
        return false;
    const double a = (x2 * (y1 - y0) + x1 * (y0 - y2) + x0 * (y2 - y1)) / denominator;
    const double b = (x2 * x2 * (y0 - y1) + x1 * x1 * (y2 - y0) + x0 * x0 * (y1 - y2)) / denominator;
    if (!(a > 0.0))
        return false;
    *vertex = -b / (2.0 * a);
    return *vertex > std::min(x0, x2) && *vertex < std::max(x0, x2);
}

}  // namespace

BracketOptimum findBracketOptimum(QList<BracketPoint> points)
{
    BracketOptimum result;
    std::sort(points.begin(), points.end(), [](const BracketPoint& a, const BracketPoint& b) { return a.lr < b.lr; });
    QList<double> means;
    int finite = 0;
    result.seeds = points.isEmpty() ? 0 : int(points.front().measures.size());
    for (const BracketPoint& point : points) {
        means.append(meanOf(point.measures));
        finite += std::isfinite(means.last()) ? 1 : 0;
        result.seeds = std::min(result.seeds, int(point.measures.size()));
    }
    if (finite < 3)
        return result;
    const auto best = int(std::min_element(means.begin(), means.end()) - means.begin());
    result.ok = true;
    result.measuredBestLr = result.bestLr = points[best].lr;
    result.bestMeasure = means[best];
    result.bestStandardError = meanAndError(points[best].measures).standardError;
    result.atLowEdge = best == 0;
    result.atHighEdge = best == points.size() - 1;
    if (!result.atLowEdge && !result.atHighEdge && std::isfinite(means[best - 1]) && std::isfinite(means[best + 1])) {
        double vertex = 0.0;
        if (parabolaVertex(std::log(points[best - 1].lr), means[best - 1], std::log(points[best].lr), means[best],
                           std::log(points[best + 1].lr), means[best + 1], &vertex))
            result.bestLr = std::exp(vertex);
    }
    // The safe range: contiguous around the best, each LR's mean within the share of the best.
    const double limit = result.bestMeasure * (1.0 + kSafeShare);
    int low = best, high = best;
    while (low > 0 && means[low - 1] <= limit)
        --low;
    while (high + 1 < points.size() && means[high + 1] <= limit)
        ++high;
    result.safeLow = points[low].lr;
    result.safeHigh = points[high].lr;
    // The runner-up against the best, in the best's and its own standard errors.
    double runnerUp = std::numeric_limits<double>::infinity();
    int runnerUpIndex = -1;
    for (int i = 0; i < means.size(); ++i) {
        if (i != best && means[i] < runnerUp) {
            runnerUp = means[i];
            runnerUpIndex = i;
        }
    }
    if (runnerUpIndex >= 0 && std::isfinite(runnerUp)) {
        const double spread = std::hypot(result.bestStandardError, meanAndError(points[runnerUpIndex].measures).standardError);
        result.withinNoise = result.seeds < 2 || runnerUp - result.bestMeasure <= 2.0 * spread;
    }
    return result;
}

namespace {

// The LR with the lowest mean of `points` (all seeds finite): false when none has one.
bool bestOf(const QList<BracketPoint>& points, double* lr, double* mean, double* error)
{
    bool found = false;
    for (const BracketPoint& point : points) {
        const double value = meanOf(point.measures);
        if (std::isfinite(value) && (!found || value < *mean)) {
            found = true;
            *lr = point.lr;
            *mean = value;
            *error = meanAndError(point.measures).standardError;
        }
    }
    return found;
}

}  // namespace

WarmupComparison compareWarmup(const QList<BracketPoint>& without, const QList<BracketPoint>& with)
{
    WarmupComparison result;
    if (!bestOf(without, &result.lrWithout, &result.bestWithout, &result.errorWithout) ||
        !bestOf(with, &result.lrWith, &result.bestWith, &result.errorWith))
        return result;
    result.ok = true;
    const double spread = 2.0 * std::hypot(result.errorWithout, result.errorWith);
    result.helped = result.bestWith < result.bestWithout - spread;
    result.hurt = result.bestWith > result.bestWithout + spread;
    return result;
}

}  // namespace ddplab::ui
