// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An exponential moving average over the x axis, not over points: a point's weight falls with
// how far back along x it lies (time constant `span`, in the axis's own units), so a run that
// logs 32 times as densely smooths to the same curve; the smoothing of one run on the step
// axis and of another on the samples axis means the same thing. Exact for a curve that is
// linear between its points. Kept incrementally: a live run only smooths what is new.

#include <QList>
#include <QPointF>

namespace ddplab::ui {

class SmoothedSeries {
public:
    // 0 leaves the series as it is.
    void setSpan(double span);
    double span() const { return m_span; }

    // Smooths the points of `raw` not seen yet (`raw` only ever grows; call reset() otherwise).
    const QList<QPointF>& update(const QList<QPointF>& raw);
    void reset();

    const QList<QPointF>& points() const { return m_points; }

private:
    double m_span = 0.0;
    double m_value = 0.0;  // the average at the last point
    QList<QPointF> m_points;
};

}  // namespace ddplab::ui
