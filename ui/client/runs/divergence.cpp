#include "divergence.hpp"

#include <cmath>

namespace ddplab::ui {

QString Divergence::describe() const
{
    if (!std::isfinite(loss))
        return QStringLiteral("the loss became NaN at step %1").arg(step);
    return QStringLiteral("the loss grew from %1 to %2 at step %3")
        .arg(QString::number(firstLoss, 'g', 3), QString::number(loss, 'g', 3))
        .arg(step);
}

void DivergenceWatch::observe(qint64 step, const QJsonValue& loss)
{
    if (m_found || !(loss.isDouble() || loss.isNull()))
        return;
    const double value = loss.isDouble() ? loss.toDouble() : std::numeric_limits<double>::quiet_NaN();
    if (!std::isfinite(value) || std::fabs(value) >= kDivergedGrowth * m_firstLoss) {
        m_found = Divergence{step, value, m_firstLoss};
        return;
    }
    if (std::isnan(m_firstLoss) && value != 0.0)
        m_firstLoss = std::fabs(value);
}

}  // namespace ddplab::ui
