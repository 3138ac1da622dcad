// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling_fit.hpp"

#include <QMap>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct LogPoint {
    double batch;
    double logSteps;
};

// For a given B_crit, the best log S_min is the mean residual; returns the squared error and
// that log S_min.
double squaredError(const QList<LogPoint>& points, double bCrit, double* logSMin)
{
    double sum = 0.0;
    for (const LogPoint& point : points)
        sum += point.logSteps - std::log1p(bCrit / point.batch);
    *logSMin = sum / points.size();
    double error = 0.0;
    for (const LogPoint& point : points) {
        const double residual = point.logSteps - *logSMin - std::log1p(bCrit / point.batch);
        error += residual * residual;
    }
    return error;
}

}  // namespace

CriticalBatchFit fitCriticalBatch(const QList<QPointF>& batchAndSteps)
{
    CriticalBatchFit fit;
    QList<LogPoint> points;
    QSet<double> batches;
    for (const QPointF& point : batchAndSteps) {
        if (point.x() > 0 && point.y() > 0 && std::isfinite(point.x()) && std::isfinite(point.y())) {
            points.append({point.x(), std::log(point.y())});
            batches.insert(point.x());
        }
    }
    if (points.size() < 3 || batches.size() < 2)
        return fit;
    const auto [smallest, largest] = std::minmax_element(batches.begin(), batches.end());
    // Search log B_crit over a wide range around the batches: a grid, then golden sections
    // around its best cell (the error is smooth and, in practice, has one valley).
    const double low = std::log(*smallest) - 8.0;
    const double high = std::log(*largest) + 8.0;
    constexpr int kGrid = 400;
    double bestU = low, bestError = std::numeric_limits<double>::infinity(), logSMin = 0.0;
    for (int i = 0; i <= kGrid; ++i) {
        const double u = low + (high - low) * i / kGrid;
        const double error = squaredError(points, std::exp(u), &logSMin);
        if (error < bestError) {
            bestError = error;
            bestU = u;
        }
    }
    double a = std::max(low, bestU - (high - low) / kGrid), b = std::min(high, bestU + (high - low) / kGrid);
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
        const double c = b - ratio * (b - a), d = a + ratio * (b - a);
        if (squaredError(points, std::exp(c), &logSMin) < squaredError(points, std::exp(d), &logSMin))
            b = d;
        else
            a = c;
    }
    fit.bCrit = std::exp((a + b) / 2.0);
    const double error = squaredError(points, fit.bCrit, &logSMin);
    fit.sMin = std::exp(logSMin);
    fit.rmsLogError = std::sqrt(error / points.size());
    fit.ok = true;
    return fit;
}

ExcessStepsBatch batchAtExcessSteps(const QList<QPointF>& batchAndSteps, double excess)
{
    ExcessStepsBatch result;
    QMap<double, QList<double>> byBatch;
    for (const QPointF& point : batchAndSteps) {
        if (point.x() > 0 && point.y() > 0 && std::isfinite(point.x()) && std::isfinite(point.y()))
            byBatch[point.x()].append(point.y());
    }
    if (byBatch.size() < 2)
        return result;
    result.ok = true;
    result.referenceBatch = byBatch.firstKey();
    const double referenceSamples = meanAndError(byBatch.first()).mean * result.referenceBatch;
    double previousBatch = result.referenceBatch, previousExcess = 0.0;
    for (auto at = std::next(byBatch.begin()); at != byBatch.end(); ++at) {
        const double over = meanAndError(at.value()).mean * at.key() / referenceSamples - 1.0;
        if (over >= excess) {
            // Where the excess crosses the share, on a log-batch line between the two batches.
            const double share = (excess - previousExcess) / (over - previousExcess);
            result.batch = previousBatch * std::pow(at.key() / previousBatch, share);
            return result;
        }
        previousBatch = at.key();
        previousExcess = over;
    }
    result.beyond = true;
    result.batch = byBatch.lastKey();
    return result;
}

PowerLawFit fitPowerLaw(const QList<QPointF>& points)
{
    PowerLawFit fit;
    QList<QPointF> logs;
    QSet<double> xs;
    for (const QPointF& point : points) {
        if (point.x() > 0 && point.y() > 0 && std::isfinite(point.x()) && std::isfinite(point.y())) {
            logs.append({std::log(point.x()), std::log(point.y())});
            xs.insert(point.x());
        }
    }
    if (logs.size() < 2 || xs.size() < 2)
        return fit;
    double meanX = 0, meanY = 0;
    for (const QPointF& point : logs) {
        meanX += point.x();
        meanY += point.y();
    }
    meanX /= logs.size();
    meanY /= logs.size();
    double sxx = 0, sxy = 0, syy = 0;
    for (const QPointF& point : logs) {
        sxx += (point.x() - meanX) * (point.x() - meanX);
        sxy += (point.x() - meanX) * (point.y() - meanY);
        syy += (point.y() - meanY) * (point.y() - meanY);
    }
    fit.exponent = sxy / sxx;
    fit.prefactor = std::exp(meanY - fit.exponent * meanX);
    fit.rSquared = syy > 0 ? sxy * sxy / (sxx * syy) : 1.0;
    fit.ok = true;
    return fit;
}

MeanAndError meanAndError(const QList<double>& values)
{
    MeanAndError result;
    double sum = 0.0;
    for (double value : values) {
        if (std::isfinite(value)) {
            sum += value;
            ++result.count;
        }
    }
    if (result.count == 0) {
        result.mean = kNaN;
        return result;
    }
    result.mean = sum / result.count;
    if (result.count > 1) {
        double squares = 0.0;
        for (double value : values) {
            if (std::isfinite(value))
                squares += (value - result.mean) * (value - result.mean);
        }
        result.standardError = std::sqrt(squares / (result.count - 1)) / std::sqrt(double(result.count));
    }
    return result;
}

}  // namespace ddplab::ui
