// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's menus and toolbar, made from LabActions (ui/window/lab_actions.hpp) and the
// libraries: File, Run, Presets (grouped by seed), Lessons (with the studies), View (pages,
// panes, theme), Help. What an entry does beyond an action is asked of the window (MenuHooks).

#include "window/theme.hpp"

#include <QList>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QMainWindow;
QT_END_NAMESPACE

namespace ddplab::ui {

class LessonLibrary;
class PresetLibrary;
class StudyLibrary;
struct LabActions;

struct MenuHooks {
    std::function<void()> resetSettings;                       // Setup back to the engine's defaults
    std::function<void(const QString& name)> loadPreset;       // a built-in preset into Setup
    std::function<void(const QString& lessonId)> showLesson;
    std::function<void(const QString& studyId)> showStudy;
    std::function<void(ThemeChoice choice)> setTheme;
    std::function<ThemeChoice()> theme;                        // the one chosen now, ticked in the menu
    std::function<QString(const QString& lessonId)> lessonDuration;  // "about 40 s" here, now
};

struct MenuSources {
    const LabActions& actions;
    const PresetLibrary& presets;
    const LessonLibrary& lessons;
    const StudyLibrary& studies;
    QList<QDockWidget*> docks;  // each has its entry in View
};

void buildWindowMenus(QMainWindow& window, const MenuSources& sources, const MenuHooks& hooks);

}  // namespace ddplab::ui
