// SPDX-License-Identifier: GPL-3.0-or-later
#include "divergence.hpp"

#include <cmath>

namespace ddplab::ui {

QString Divergence::describe() const
{
    if (!std::isfinite(loss))
        return QStringLiteral("the loss became NaN at step %1").arg(step);
    return QStringLiteral("the loss grew from %1 to %2 at step %3")
        .arg(QString::number(earlyLoss, 'g', 3), QString::number(loss, 'g', 3))
        .arg(step);
}

void DivergenceWatch::observe(qint64 step, const QJsonValue& loss)
{
    if (m_found || !(loss.isDouble() || loss.isNull()))
        return;
    const double value = loss.isDouble() ? loss.toDouble() : std::numeric_limits<double>::quiet_NaN();
    if (!std::isfinite(value) || (m_earlyLoss > 0 && std::fabs(value) >= kDivergedGrowth * m_earlyLoss)) {
        m_found = Divergence{step, value, m_earlySteps > 0 ? m_earlyLoss : std::numeric_limits<double>::quiet_NaN()};
        return;
    }
    if (m_earlySteps < kEarlySteps) {
        m_earlyLoss = std::max(m_earlyLoss, std::fabs(value));
        ++m_earlySteps;
    }
}

}  // namespace ddplab::ui
