// MainWindow, continued: the menus and the toolbar, made from LabActions.

#include "window/main_window.hpp"

#include "study/study_page.hpp"

#include "client/library/preset_library.hpp"
#include "lessons/lesson_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "window/lab_actions.hpp"
#include "window/log_panel.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>

namespace ddplab::ui {

void MainWindow::createMenus()
{
    const LabActions& a = *m_actions;
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addActions({a.openPreset, a.savePreset, a.copyScript});
    file->addSeparator();
    file->addActions({a.exportAll, a.exportCsv, a.exportTensorBoard, a.streamTensorBoard});
    file->addSeparator();
    file->addAction(a.quit);
    // What an entry does beyond its name (what Export Runs to TensorBoard… takes with no run
    // selected, where runs stream), on hover.
    file->setToolTipsVisible(true);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addActions({a.run, a.stop, a.runLesson});
    run->addSeparator();
    run->addAction(tr("Reset Settings to the Engine's Defaults"), this, [this] { m_parameters->setValues(QJsonObject()); });

    // One entry per experiment of the seeds (resources/presets), grouped by seed; choosing one
    // puts its settings in Setup.
    QMenu* presets = menuBar()->addMenu(tr("&Presets"));
    QHash<QString, QMenu*> presetGroups;
    for (const BuiltInPreset& preset : m_presets.presets()) {
        QMenu* group = presets;
        if (!preset.group.isEmpty()) {
            if (!presetGroups.contains(preset.group))
                presetGroups.insert(preset.group, presets->addMenu(preset.group));
            group = presetGroups.value(preset.group);
        }
        const QString name = preset.name;
        QAction* action = group->addAction(preset.title, this, [this, name] {
            if (const BuiltInPreset* chosen = m_presets.find(name)) {
                m_parameters->setValues(chosen->config);
                m_log->appendMessage(tr("Loaded the preset %1").arg(name));
            }
        });
        action->setToolTip(name);
    }
    presets->setToolTipsVisible(true);

    QMenu* lessons = menuBar()->addMenu(tr("&Lessons"));
    for (const Lesson& lesson : m_lessons.lessons()) {
        const QString id = lesson.id;
        const QString source = lesson.source.section(QLatin1Char(' '), 0, 1);
        lessons->addAction(source.isEmpty() ? lesson.title : QStringLiteral("%1 · %2").arg(source, lesson.title), this,
                           [this, id] { showLesson(id); });
    }
    lessons->addSeparator();
    lessons->addAction(a.runLesson);
    // Studies answer the lessons' questions as curves; they open on the Study page.
    lessons->addSeparator();
    QMenu* studies = lessons->addMenu(tr("Studies"));
    for (const StudySpec& study : m_studyPage->library().studies()) {
        const QString id = study.id;
        studies->addAction(study.title, this, [this, id] { showStudy(id); });
    }

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(a.presentation);
    view->addSeparator();
    view->addActions(a.pages);
    view->addSeparator();
    for (QDockWidget* dock : {m_setupDock, m_lessonDock, m_runsDock, m_logDock})
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    QMenu* theme = view->addMenu(tr("&Theme"));
    auto* themes = new QActionGroup(this);
    for (const auto& [choice, label] : {std::pair{ThemeChoice::System, tr("&System")}, std::pair{ThemeChoice::Light, tr("&Light")},
                                        std::pair{ThemeChoice::Dark, tr("&Dark")}}) {
        QAction* action = theme->addAction(label);
        action->setCheckable(true);
        action->setData(themeName(choice));
        themes->addAction(action);
        connect(action, &QAction::triggered, this, [this, choice = choice] { setTheme(choice); });
    }
    connect(theme, &QMenu::aboutToShow, this, [this, themes] {
        for (QAction* action : themes->actions())
            action->setChecked(action->data().toString() == themeName(m_theme));
    });
    view->addActions({a.keepRuns, a.openGl, a.resetViews});
    addAction(a.leavePresentation);  // Esc works without a menu entry

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addActions({a.gettingStarted, a.shortcuts, a.about});
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* toolbar = addToolBar(tr("Main"));
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
