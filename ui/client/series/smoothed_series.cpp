// SPDX-License-Identifier: GPL-3.0-or-later
#include "smoothed_series.hpp"

#include <cmath>

namespace ddplab::ui {

void SmoothedSeries::setSpan(double span)
{
    span = std::isfinite(span) && span > 0 ? span : 0.0;
    if (span == m_span)
        return;
    m_span = span;
    reset();
}

void SmoothedSeries::reset()
{
    m_value = 0.0;
    m_points.clear();
}

const QList<QPointF>& SmoothedSeries::update(const QList<QPointF>& raw)
{
    if (raw.size() < m_points.size())
        reset();
    m_points.reserve(raw.size());
    for (qsizetype i = m_points.size(); i < raw.size(); ++i) {
        const QPointF& point = raw.at(i);
        if (i == 0 || m_span <= 0) {
            m_value = point.y();
        } else {
            // ds/dx = (y(x) - s) / span with y linear from the previous point to this one:
            //   s1 = e (s0 - y0) + y1 - (y1 - y0) (1 - e) / r,   r = h / span, e = exp(-r)
            const QPointF& previous = raw.at(i - 1);
            const double r = std::max(0.0, point.x() - previous.x()) / m_span;
            const double e = std::exp(-r);
            const double averageOfRamp = r > 0 ? -std::expm1(-r) / r : 1.0;
            m_value = e * (m_value - previous.y()) + point.y() - (point.y() - previous.y()) * averageOfRamp;
        }
        m_points.append(QPointF(point.x(), m_value));
    }
    return m_points;
}

}  // namespace ddplab::ui
