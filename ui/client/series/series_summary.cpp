// SPDX-License-Identifier: GPL-3.0-or-later
#include "series_summary.hpp"

namespace ddplab::ui {

void SeriesSummary::reset()
{
    m_buckets.clear();
    m_bucketSize = 1;
    m_consumed = 0;
    m_points.clear();
    m_pointsStale = false;
}

void SeriesSummary::update(const QList<QPointF>& series)
{
    if (series.size() < m_consumed)
        reset();
    for (qsizetype i = m_consumed; i < series.size(); ++i) {
        const QPointF& point = series.at(i);
        if (m_buckets.isEmpty() || m_buckets.last().count >= m_bucketSize) {
            if (m_buckets.size() == kMaxBuckets)
                mergePairs();
        }
        if (m_buckets.isEmpty() || m_buckets.last().count >= m_bucketSize) {
            m_buckets.append({point, point, point, point, 1});
            continue;
        }
        Bucket& bucket = m_buckets.last();
        if (point.y() < bucket.low.y())
            bucket.low = point;
        if (point.y() > bucket.high.y())
            bucket.high = point;
        bucket.last = point;
        ++bucket.count;
    }
    if (series.size() != m_consumed)
        m_pointsStale = true;
    m_consumed = series.size();
}

void SeriesSummary::mergePairs()
{
    QList<Bucket> merged;
    merged.reserve(m_buckets.size() / 2 + 1);
    for (qsizetype i = 0; i < m_buckets.size(); i += 2) {
        Bucket bucket = m_buckets.at(i);
        if (i + 1 < m_buckets.size()) {
            const Bucket& next = m_buckets.at(i + 1);
            if (next.low.y() < bucket.low.y())
                bucket.low = next.low;
            if (next.high.y() > bucket.high.y())
                bucket.high = next.high;
            bucket.last = next.last;
            bucket.count += next.count;
        }
        merged.append(bucket);
    }
    m_buckets = merged;
    m_bucketSize *= 2;
}

const QList<QPointF>& SeriesSummary::points() const
{
    if (!m_pointsStale)
        return m_points;
    m_points.clear();
    m_points.reserve(m_buckets.size() * 4);
    for (const Bucket& bucket : m_buckets) {
        // Lowest and highest in the order they occurred; first and last around them.
        const bool lowFirst = bucket.low.x() <= bucket.high.x();
        const QPointF picks[] = {bucket.first, lowFirst ? bucket.low : bucket.high, lowFirst ? bucket.high : bucket.low,
                                 bucket.last};
        for (const QPointF& pick : picks) {
            if (m_points.isEmpty() || m_points.last().x() != pick.x() || m_points.last().y() != pick.y())
                m_points.append(pick);
        }
    }
    m_pointsStale = false;
    return m_points;
}

}  // namespace ddplab::ui
