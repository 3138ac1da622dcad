// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether Run can start now and, when it cannot, why, where a person will see it: the Run
// action's tooltip (on the toolbar, the menu and its status tip) and the status bar, which stays
// in sight when Setup does not (presentation mode, a closed pane).

#include <QString>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QAction;
QT_END_NAMESPACE

namespace ddplab::ui {

class StatusArea;

class RunGate {
public:
    RunGate(QAction& run, StatusArea& status);

    // `busyWords`: what the lab is busy with ("a study is running"; "" when idle, LabActivity);
    // `settingProblems`: what the Setup pane marks, in its words ("GPUs (ranks) must be ...").
    void update(const QString& busyWords, const QStringList& settingProblems);
    // "" when Run can start.
    const QString& reason() const { return m_reason; }

private:
    QAction& m_run;
    StatusArea& m_status;
    QString m_readyTip;
    QString m_reason;
};

}  // namespace ddplab::ui
