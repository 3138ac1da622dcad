// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab_activity.hpp"

namespace ddplab::ui {

QString LabActivity::busyWords() const
{
    switch (m_busy) {
    case Busy::Idle:
        return {};
    case Busy::Runs:
        return QStringLiteral("a run is running");
    case Busy::Study:
        return QStringLiteral("a study is running");
    case Busy::Advice:
        return QStringLiteral("an advice is running");
    }
    return {};
}

bool LabActivity::claim(Busy what, QString* refusal)
{
    if (isBusy() || what == Busy::Idle) {
        if (refusal)
            *refusal = isBusy() ? busyWords() : QStringLiteral("nothing to claim the lab for");
        return false;
    }
    m_busy = what;
    emit changed(m_busy);
    return true;
}

void LabActivity::handOver(Busy what, Busy next)
{
    if (m_busy != what || what == Busy::Idle || next == what)
        return;
    m_busy = next;
    emit changed(m_busy);
}

}  // namespace ddplab::ui
