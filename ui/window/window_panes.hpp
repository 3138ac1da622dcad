// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The panes the lab's window is made of, built once: the pages in the middle (Charts, Sharding,
// Compare, Study) under the notice bar, and the docks around them: Setup (where runs go, every
// key, what the engine will do) on the left, the lesson and the stored runs on the right, the
// engine's log below the middle. The window wires them (ui/window/main_window.cpp).

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QDockWidget;
class QMainWindow;
class QTabWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartPage;
class ComparisonTable;
class DerivedPanel;
class LabSession;
class LessonLibrary;
class LessonPanel;
class LogPanel;
class ModelInspector;
class NoticeBar;
class ParameterPanel;
class RunListPanel;
class RunModel;
class RunStore;
class RunTargetBox;
class ShardingView;
class StudyPage;
struct LabActions;

struct WindowPanes {
    NoticeBar* notice = nullptr;
    QTabWidget* tabs = nullptr;
    ChartPage* chartPage = nullptr;
    ShardingView* sharding = nullptr;
    ComparisonTable* comparison = nullptr;
    StudyPage* studyPage = nullptr;
    RunTargetBox* runTarget = nullptr;
    ParameterPanel* parameters = nullptr;
    DerivedPanel* derived = nullptr;
    ModelInspector* inspector = nullptr;  // a QObject of the window's
    LessonPanel* lessonPanel = nullptr;
    RunListPanel* runList = nullptr;
    LogPanel* log = nullptr;
    QDockWidget* setupDock = nullptr;
    QDockWidget* lessonDock = nullptr;
    QDockWidget* runsDock = nullptr;
    QDockWidget* logDock = nullptr;

    QList<QDockWidget*> docks() const { return {setupDock, lessonDock, runsDock, logDock}; }
};

// What the panes show and use, given by the window that owns them.
struct PaneSources {
    RunModel& model;
    RunStore& store;
    LabSession& session;
    const LabActions& actions;
    const LessonLibrary& lessons;
    QString enginePath;
    // Setup's settings when the Study page asks (Setup is built after the pages).
    std::function<QJsonObject()> setupSettings;
};

// Builds the panes into `window`: its central widget and its docks.
WindowPanes buildWindowPanes(QMainWindow& window, const PaneSources& sources);

}  // namespace ddplab::ui
