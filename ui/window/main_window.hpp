// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lab's window. It assembles the panes and wires their signals, nothing more: settings on
// the left (every engine key, and what follows from them), the charts in the middle (with the
// sharding view and the comparison table as pages), the lesson and the stored runs on the
// right, the engine's log below, progress and status at the bottom. Runs go through a
// LabSession; the window never links the engine itself.
// What it assembles owns its own job: the panes (window/window_panes.hpp), the menus and the
// toolbar (window/window_menus.hpp), starting runs and saying how they ended
// (window/run_starter.hpp), StoredRuns (the Runs list's actions), LabFiles (presets and
// exports), StatusArea (the status bar), LabSession (whatever runs).

#include "charts/run_model.hpp"
#include "client/engine/device_inventory.hpp"
#include "client/library/lesson_library.hpp"
#include "client/library/preset_library.hpp"
#include "client/runs/run_record.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/launch_options.hpp"
#include "client/study/study_estimate.hpp"
#include "window/theme.hpp"
#include "window/window_panes.hpp"

#include <QJsonObject>
#include <QMainWindow>
#include <QSharedPointer>

#include <memory>

QT_BEGIN_NAMESPACE
class QTabWidget;
QT_END_NAMESPACE

namespace ddplab::ui {

class ChartGrid;
class ChartPage;
class ChartPanel;
class ComparisonTable;
class DerivedPanel;
class LabFiles;
class LabSession;
class LessonPanel;
class LogPanel;
class ModelInspector;
class NoticeBar;
class ParameterPanel;
class PresentationMode;
class RunGate;
class RunData;
class RunListPanel;
class RunStarter;
class RunTargetBox;
class ShardingView;
class StatusArea;
class StoredRuns;
class StudyPage;
class TensorBoardFiles;
struct LabActions;
struct QueryResult;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(const LaunchOptions& options = LaunchOptions(), QWidget* parent = nullptr);
    ~MainWindow() override;

    void startRun();
    void startLesson(const QString& lessonId);
    // Predict first (View menu): the lesson's charts and what to look for, shown once guessed (F9).
    void revealOutcome();
    void stopRun();
    bool isRunning() const;
    void setPresentationMode(bool on);
    bool isPresenting() const;
    // Every chart (PNG + SVG) and every displayed run's CSV into `directory`.
    bool exportEverything(const QString& directory, QSize imageSize, double scale, QString* error);

    ParameterPanel* parameterPanel() const { return m_panes.parameters; }
    DerivedPanel* derivedPanel() const { return m_panes.derived; }
    ModelInspector* modelInspector() const { return m_panes.inspector; }
    ChartGrid* chartGrid() const;
    ChartPage* chartPage() const { return m_panes.chartPage; }
    RunListPanel* runList() const { return m_panes.runList; }
    RunModel& runModel() { return m_model; }
    LabSession* session() const { return m_session; }
    NoticeBar* notice() const { return m_panes.notice; }
    LogPanel* log() const { return m_panes.log; }
    ShardingView* shardingView() const { return m_panes.sharding; }
    StudyPage* studyPage() const { return m_panes.studyPage; }
    // The Study page with the built-in study `id` chosen.
    void showStudy(const QString& id);
    const LabActions& actions() const { return *m_actions; }
    // Why Run is disabled ("" when it is not), as its tooltip and the status bar say.
    QString runBlockedReason() const;
    StoredRuns* storedRuns() const { return m_storedRuns; }
    QTabWidget* pages() const { return m_panes.tabs; }
    QString statusText() const;
    QString progressText() const;

signals:
    // A run or lesson ended (after its files are written and the window updated).
    void sequenceDone(bool allSucceeded);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void connectPanes();
    void restoreSettings();
    void saveSettings() const;
    void applyLaunchOptions(const LaunchOptions& options);

    void onSequenceFinished(bool allSucceeded);
    void onDevices(const QueryResult& result);
    void updateActions();
    // What the engine will do, with your own model's inspection when there is one.
    void updateDerived();
    void onInspected();
    void showLesson(const QString& lessonId);
    void setTheme(ThemeChoice choice);
    // How long a lesson takes here ("about 40 s"), and every lesson's, measured again.
    QString lessonDuration(const QString& lessonId) const;
    void refreshDurations();

    QString m_enginePath;
    LessonLibrary m_lessons;
    PresetLibrary m_presets;
    RunStore m_store;
    RunModel m_model;
    LabSession* m_session = nullptr;
    DeviceInventory m_inventory;
    MachineSpeed m_speed;  // this machine against the estimator's constants
    ThemeChoice m_theme = ThemeChoice::System;
    LaunchOptions m_pendingExport;  // --export DIR: what to write when the runs end
    std::unique_ptr<LabActions> m_actions;
    std::unique_ptr<PresentationMode> m_presentation;
    std::unique_ptr<RunGate> m_runGate;

    WindowPanes m_panes;
    RunStarter* m_runs = nullptr;
    StatusArea* m_status = nullptr;
    StoredRuns* m_storedRuns = nullptr;
    LabFiles* m_files = nullptr;
    TensorBoardFiles* m_tensorBoard = nullptr;
};

}  // namespace ddplab::ui
