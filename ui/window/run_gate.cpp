// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_gate.hpp"

#include "window/status_area.hpp"

#include <QAction>
#include <QObject>

namespace ddplab::ui {

RunGate::RunGate(QAction& run, StatusArea& status) : m_run(run), m_status(status), m_readyTip(run.toolTip())
{
}

void RunGate::update(const QString& busyWords, const QStringList& settingProblems)
{
    const bool somethingRuns = !busyWords.isEmpty();
    if (somethingRuns) {
        m_reason = QObject::tr("Something is running (%1); Run waits until it ends (or Stop ends it)").arg(busyWords);
    } else if (!settingProblems.isEmpty()) {
        m_reason = settingProblems.size() == 1
                       ? QObject::tr("Run waits for a setting: %1").arg(settingProblems.first())
                       : QObject::tr("Run waits for %1 settings: %2").arg(settingProblems.size()).arg(settingProblems.join(QStringLiteral("; ")));
    } else {
        m_reason.clear();
    }
    m_run.setEnabled(m_reason.isEmpty());
    m_run.setToolTip(m_reason.isEmpty() ? m_readyTip : m_reason);
    m_run.setStatusTip(m_reason);
    // While something runs the status bar says what; a setting to fix it says itself.
    m_status.setRunBlocked(somethingRuns ? QString() : m_reason);
}

}  // namespace ddplab::ui
