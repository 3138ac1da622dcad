#pragma once
// Debiased exponential moving average (as TensorBoard's smoothing slider): the average starts
// at zero and is divided by 1 - w^n, so the first points are not pulled towards zero. Kept
// incrementally: a live run only smooths the points that arrived since the last redraw.

#include <QList>
#include <QPointF>

namespace ddplab::ui {

class SmoothedSeries {
public:
    // weight 0 leaves the series as it is; 0.99 is very smooth.
    void setWeight(double weight);

    // Smooths the points of `raw` not seen yet (`raw` only ever grows; call reset() otherwise).
    const QList<QPointF>& update(const QList<QPointF>& raw);
    void reset();

    const QList<QPointF>& points() const { return m_points; }

private:
    double m_weight = 0.0;
    double m_average = 0.0;
    double m_decay = 1.0;  // weight^n
    QList<QPointF> m_points;
};

}  // namespace ddplab::ui
