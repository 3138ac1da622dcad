// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An append-only summary of a long series for drawing: per bucket of consecutive points its
// first, lowest, highest and last point. The bucket size doubles whenever the summary would
// exceed kMaxBuckets, so however long a run grows, a redraw reduces a few thousand points,
// not millions, and every spike is still among them.

#include <QList>
#include <QPointF>

namespace ddplab::ui {

class SeriesSummary {
public:
    static constexpr qsizetype kMaxBuckets = 4096;

    // Takes in the points of `series` not seen yet (it only ever grows; reset() otherwise).
    void update(const QList<QPointF>& series);
    void reset();

    qsizetype bucketSize() const { return m_bucketSize; }
    qsizetype bucketCount() const { return m_buckets.size(); }
    // Each bucket's first, lowest, highest and last point, in x order, each once.
    const QList<QPointF>& points() const;

private:
    struct Bucket {
        QPointF first;
        QPointF low;
        QPointF high;
        QPointF last;
        qsizetype count = 0;
    };
    void mergePairs();

    QList<Bucket> m_buckets;
    qsizetype m_bucketSize = 1;
    qsizetype m_consumed = 0;
    mutable QList<QPointF> m_points;
    mutable bool m_pointsStale = false;
};

}  // namespace ddplab::ui
