// SPDX-License-Identifier: GPL-3.0-or-later
#include "redraw_scheduler.hpp"

#include <algorithm>

namespace ddplab::ui {

void RedrawScheduler::adapt(double frameCostMs)
{
    m_intervalMs = std::clamp(int(frameCostMs / kDrawingShare), kFastestIntervalMs, kSlowestIntervalMs);
}

int RedrawScheduler::tickMs(qsizetype charts) const
{
    return int(m_intervalMs / std::max<qsizetype>(1, charts));
}

qsizetype RedrawScheduler::pick(const QList<bool>& waiting)
{
    for (qsizetype tried = 0; tried < waiting.size(); ++tried) {
        const qsizetype candidate = (m_next + tried) % waiting.size();
        if (waiting.at(candidate)) {
            m_next = (candidate + 1) % waiting.size();
            return candidate;
        }
    }
    return -1;
}

}  // namespace ddplab::ui
