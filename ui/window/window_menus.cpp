// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_menus.hpp"

#include "client/library/lesson_library.hpp"
#include "client/library/preset_library.hpp"
#include "client/study/study_library.hpp"
#include "window/lab_actions.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QHash>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>

namespace ddplab::ui {

void buildWindowMenus(QMainWindow& window, const MenuSources& sources, const MenuHooks& hooks)
{
    const LabActions& a = sources.actions;
    QMenuBar* bar = window.menuBar();
    QMenu* file = bar->addMenu(QObject::tr("&File"));
    file->addActions({a.openPreset, a.savePreset, a.copyScript});
    file->addSeparator();
    file->addActions({a.exportAll, a.exportCsv, a.exportTensorBoard, a.streamTensorBoard});
    file->addSeparator();
    file->addAction(a.quit);
    // What an entry does beyond its name (what Export Runs to TensorBoard… takes with no run
    // selected, where runs stream), on hover.
    file->setToolTipsVisible(true);

    QMenu* run = bar->addMenu(QObject::tr("&Run"));
    run->addActions({a.run, a.stop, a.runLesson});
    run->addSeparator();
    run->addAction(QObject::tr("Reset Settings to the Engine's Defaults"), &window, hooks.resetSettings);

    // One entry per experiment of the seeds (resources/presets), grouped by seed; choosing one
    // puts its settings in Setup.
    QMenu* presets = bar->addMenu(QObject::tr("&Presets"));
    QHash<QString, QMenu*> presetGroups;
    for (const BuiltInPreset& preset : sources.presets.presets()) {
        QMenu* group = presets;
        if (!preset.group.isEmpty()) {
            if (!presetGroups.contains(preset.group))
                presetGroups.insert(preset.group, presets->addMenu(preset.group));
            group = presetGroups.value(preset.group);
        }
        const QString name = preset.name;
        QAction* action = group->addAction(preset.title, &window, [load = hooks.loadPreset, name] { load(name); });
        action->setToolTip(name);
    }
    presets->setToolTipsVisible(true);

    QMenu* lessons = bar->addMenu(QObject::tr("&Lessons"));
    lessons->setObjectName(QStringLiteral("lessonsMenu"));
    QList<QPair<QAction*, QString>> lessonEntries;
    for (const Lesson& lesson : sources.lessons.lessons()) {
        const QString id = lesson.id;
        QAction* entry = lessons->addAction(lessonMenuTitle(lesson), &window, [show = hooks.showLesson, id] { show(id); });
        entry->setData(id);
        lessonEntries.append({entry, entry->text()});
    }
    // How long each takes here, as the machine is now (its recent runs measure it): said each
    // time the menu opens.
    const auto sayDurations = [lessonEntries, duration = hooks.lessonDuration] {
        for (const auto& [entry, title] : lessonEntries) {
            const QString took = duration ? duration(entry->data().toString()) : QString();
            entry->setText(took.isEmpty() ? title : QStringLiteral("%1 (%2)").arg(title, took));
        }
    };
    QObject::connect(lessons, &QMenu::aboutToShow, lessons, sayDurations);
    sayDurations();
    lessons->addSeparator();
    lessons->addAction(a.runLesson);
    // Studies answer the lessons' questions as curves; they open on the Study page.
    lessons->addSeparator();
    QMenu* studies = lessons->addMenu(QObject::tr("Studies"));
    for (const StudySpec& study : sources.studies.studies()) {
        const QString id = study.id;
        studies->addAction(study.title, &window, [show = hooks.showStudy, id] { show(id); });
    }

    QMenu* view = bar->addMenu(QObject::tr("&View"));
    view->addAction(a.presentation);
    view->addActions({a.predictFirst, a.reveal});
    view->addSeparator();
    view->addActions(a.pages);
    view->addSeparator();
    for (QDockWidget* dock : sources.docks)
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    QMenu* theme = view->addMenu(QObject::tr("&Theme"));
    auto* themes = new QActionGroup(&window);
    for (const auto& [choice, label] : {std::pair{ThemeChoice::System, QObject::tr("&System")},
                                        std::pair{ThemeChoice::Light, QObject::tr("&Light")},
                                        std::pair{ThemeChoice::Dark, QObject::tr("&Dark")}}) {
        QAction* action = theme->addAction(label);
        action->setCheckable(true);
        action->setData(themeName(choice));
        themes->addAction(action);
        QObject::connect(action, &QAction::triggered, &window, [set = hooks.setTheme, choice = choice] { set(choice); });
    }
    QObject::connect(theme, &QMenu::aboutToShow, &window, [current = hooks.theme, themes] {
        for (QAction* action : themes->actions())
            action->setChecked(action->data().toString() == themeName(current()));
    });
    view->addActions({a.keepRuns, a.openGl, a.resetViews});
    window.addAction(a.leavePresentation);  // Esc works without a menu entry

    QMenu* help = bar->addMenu(QObject::tr("&Help"));
    help->addActions({a.gettingStarted, a.shortcuts, a.about});
    help->addAction(QObject::tr("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* toolbar = window.addToolBar(QObject::tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setMovable(false);
    toolbar->addActions({a.run, a.stop});
    toolbar->addSeparator();
    toolbar->addAction(a.runLesson);
    toolbar->addSeparator();
    toolbar->addActions({a.openPreset, a.savePreset, a.exportAll});
}

}  // namespace ddplab::ui
