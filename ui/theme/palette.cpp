// SPDX-License-Identifier: GPL-3.0-or-later
#include "palette.hpp"

#include <algorithm>

namespace ddplab::ui {

QColor viridis(double t)
{
    static const QColor kStops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b), QColor(0x21, 0x91, 0x8c),
                                    QColor(0x5e, 0xc9, 0x62), QColor(0xfd, 0xe7, 0x25)};
    t = std::clamp(t, 0.0, 1.0) * 4.0;
    const int i = std::min(3, int(t));
    const double f = t - i;
    const QColor& a = kStops[i];
    const QColor& b = kStops[i + 1];
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f), float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor statusColor(RunStatus status)
{
    switch (status) {
    case RunStatus::Running: return QColor(0x2e, 0x86, 0xc1);
    case RunStatus::Finished: return QColor(0x2e, 0x9d, 0x4a);
    case RunStatus::Failed: return QColor(0xd6, 0x45, 0x41);
    case RunStatus::Cancelled:
    case RunStatus::Interrupted:
    case RunStatus::Incomplete: return QColor(0xc4, 0x8a, 0x1c);
    case RunStatus::Damaged: return QColor(0xc0, 0x39, 0x2b);
    case RunStatus::Diverged: return QColor(0xb0, 0x3a, 0x8c);
    }
    return QColor();
}

QColor sampleColor(int sample, int examples)
{
    return QColor::fromHsvF(0.83 * double(sample) / double(std::max(1, examples)), 0.38, 0.97);
}

}  // namespace ddplab::ui
