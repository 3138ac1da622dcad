// SPDX-License-Identifier: GPL-3.0-or-later
#include "range_test.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab {
namespace {

// The points the suggestions look at: fastai's [n / 10 : -5], or all of them when that leaves
// fewer than 5.
std::pair<size_t, size_t> trimmed(size_t count)
{
    const size_t first = count / 10;
    if (count >= first + 5 + 5)
        return {first, count - 5};
    return {0, count};
}

}  // namespace

bool RangeTest::add(double lr, double loss)
{
    if (!std::isfinite(loss)) {
        m_notFinite = true;
        return true;
    }
    m_average = kSmoothing * m_average + (1.0 - kSmoothing) * loss;
    const double smoothed = m_average / (1.0 - std::pow(kSmoothing, double(m_points.size() + 1)));
    m_points.push_back({lr, loss, smoothed});
    if (m_points.size() == 1 || smoothed < m_best)
        m_best = smoothed;
    m_diverged = smoothed > kDivergence * m_best;
    return m_diverged;
}

protocol::RangeTestReport RangeTest::report(bool reachedLastStep) const
{
    protocol::RangeTestReport report;
    report.points = m_points;
    namespace reason = protocol::stop_reason;
    report.stopReason = m_notFinite ? reason::kNotFinite : m_diverged ? reason::kDiverged : reachedLastStep ? reason::kSteps : reason::kStopped;
    if (m_points.empty())
        return report;

    const auto [first, end] = trimmed(m_points.size());
    size_t minimum = first;
    for (size_t i = first; i < end; ++i) {
        if (m_points[i].smoothedLoss < m_points[minimum].smoothedLoss)
            minimum = i;
    }
    report.minimumLr = m_points[minimum].lr;
    report.minimumLoss = m_points[minimum].smoothedLoss;
    report.minimumTenth = m_points[minimum].lr / 10.0;

    if (end - first >= 2) {
        size_t steepest = first;
        double fastest = INFINITY;
        for (size_t i = first; i + 1 < end; ++i) {
            const double slope = (m_points[i + 1].smoothedLoss - m_points[i].smoothedLoss) /
                                 (std::log(m_points[i + 1].lr) - std::log(m_points[i].lr));
            if (slope < fastest) {
                fastest = slope;
                steepest = i;
            }
        }
        if (fastest < 0)
            report.steepest = m_points[steepest].lr;
    }

    // fastai's valley: the longest decreasing subsequence of the smoothed loss; the suggestion
    // lies two thirds of the way from its start to its end.
    const size_t n = end - first;
    std::vector<size_t> longest(n, 1);
    size_t valleyStart = 0, valleyEnd = 0;
    for (size_t i = 1; i < n; ++i) {
        for (size_t j = 0; j < i; ++j) {
            if (m_points[first + i].smoothedLoss < m_points[first + j].smoothedLoss && longest[i] < longest[j] + 1)
                longest[i] = longest[j] + 1;
        }
        if (longest[valleyEnd] < longest[i]) {
            valleyEnd = i;
            // fastai's max_end - lds[max_end], never before the first point.
            valleyStart = longest[i] > i ? 0 : i - longest[i];
        }
    }
    if (valleyEnd > valleyStart) {
        const double sections = double(valleyEnd - valleyStart) / 3.0;
        const size_t index = valleyStart + size_t(sections) + size_t(sections / 2.0);
        report.valley = m_points[first + std::min(index, n - 1)].lr;
    }
    return report;
}

}  // namespace ddplab
