// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every command of the window as a QAction, made in one place: menus, the toolbar and the
// Keyboard and Mouse help all take them from here, so a shortcut is written once.

#include <QList>
#include <QString>

QT_BEGIN_NAMESPACE
class QAction;
class QObject;
QT_END_NAMESPACE

namespace ddplab::ui {

struct LabActions {
    explicit LabActions(QObject* owner);

    QAction* run = nullptr;
    QAction* stop = nullptr;
    QAction* runLesson = nullptr;
    QAction* openPreset = nullptr;
    QAction* savePreset = nullptr;
    QAction* copyScript = nullptr;  // Setup's settings as a PyTorch script, on the clipboard
    QAction* exportAll = nullptr;
    QAction* exportCsv = nullptr;
    QAction* exportTensorBoard = nullptr;
    QAction* streamTensorBoard = nullptr;  // checkable: new runs write TensorBoard files as they stream
    QAction* quit = nullptr;
    QAction* keepRuns = nullptr;
    QAction* openGl = nullptr;
    QAction* resetViews = nullptr;
    // The pages in the middle, in their order: Charts, Sharding, Compare, Study, Advise (Ctrl+1 to 5).
    QList<QAction*> pages;
    QAction* presentation = nullptr;
    QAction* leavePresentation = nullptr;
    // Checkable: a lesson's outcome (its charts, what to look for, its explanation) stays hidden
    // until the class has guessed; `reveal` (F9) shows it.
    QAction* predictFirst = nullptr;
    QAction* reveal = nullptr;
    QAction* gettingStarted = nullptr;
    QAction* shortcuts = nullptr;
    QAction* about = nullptr;

    // The help table: every action above that has a shortcut, then the charts' and the run
    // list's mouse and key gestures.
    QString shortcutHelpHtml() const;

private:
    QList<QAction*> all() const;
};

}  // namespace ddplab::ui
