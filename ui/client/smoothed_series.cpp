#include "smoothed_series.hpp"

#include <algorithm>

namespace ddplab::ui {

void SmoothedSeries::setWeight(double weight)
{
    weight = std::clamp(weight, 0.0, 0.999);
    if (weight == m_weight)
        return;
    m_weight = weight;
    reset();
}

void SmoothedSeries::reset()
{
    m_average = 0.0;
    m_decay = 1.0;
    m_points.clear();
}

const QList<QPointF>& SmoothedSeries::update(const QList<QPointF>& raw)
{
    if (raw.size() < m_points.size())
        reset();
    m_points.reserve(raw.size());
    for (qsizetype i = m_points.size(); i < raw.size(); ++i) {
        const QPointF& point = raw.at(i);
        m_average = m_average * m_weight + (1.0 - m_weight) * point.y();
        m_decay *= m_weight;
        m_points.append(QPointF(point.x(), m_average / (1.0 - m_decay)));
    }
    return m_points;
}

}  // namespace ddplab::ui
