// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.hpp"

#include "advisor/advise_page.hpp"
#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "client/engine/engine_locator.hpp"
#include "client/engine/model_inspector.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/session/lab_session.hpp"
#include "client/session/preset_resolver.hpp"
#include "client/session/run_progress.hpp"
#include "client/study/study_estimate.hpp"
#include "core/workload_table.hpp"
#include "lessons/lesson_panel.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/derived_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "setup/run_target_box.hpp"
#include "sharding/sharding_view.hpp"
#include "study/study_page.hpp"
#include "window/chart_page.hpp"
#include "window/help.hpp"
#include "window/lab_actions.hpp"
#include "window/lab_files.hpp"
#include "window/log_panel.hpp"
#include "window/notice_bar.hpp"
#include "window/presentation_mode.hpp"
#include "window/run_gate.hpp"
#include "window/run_starter.hpp"
#include "window/screen_fit.hpp"
#include "window/status_area.hpp"
#include "window/stored_runs.hpp"
#include "window/tensorboard_files.hpp"
#include "window/window_menus.hpp"
#include "window/window_settings.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>

namespace ddplab::ui {
namespace {

constexpr int kCloseStopTimeoutMs = 3000;  // closing the window waits this long for the engine
// What a newcomer's first Run does (resources/presets/first-run.json): a few seconds of seed
// 000's noisy neuron, where every chart draws a line worth reading.
const QString kFirstRunPreset = QStringLiteral("first-run");

}  // namespace

MainWindow::MainWindow(const LaunchOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_enginePath(locateEngine(options.enginePath))
    , m_lessons(LessonLibrary::load())
    , m_presets(PresetLibrary::load())
    , m_actions(std::make_unique<LabActions>(this))
{
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    m_session = new LabSession(m_store, m_enginePath, this);

    m_panes = buildWindowPanes(*this, {m_model, m_store, *m_session, *m_actions, m_lessons, m_enginePath,
                                       [this] { return m_panes.parameters->values(); }});
    connect(m_panes.runTarget, &RunTargetBox::targetChanged, this, [this](const EngineTarget& target) {
        m_session->setTarget(target);
        m_panes.inspector->setTarget(target);
        m_panes.log->appendMessage(tr("Runs go to %1").arg(target.describe()));
    });
    createMenus();
    m_status = new StatusArea(*statusBar(), *m_session, m_inventory, m_model);
    m_runGate = std::make_unique<RunGate>(*m_actions->run, *m_status);
    m_storedRuns = new StoredRuns(m_store, m_model, *m_session, m_lessons, {*m_panes.runList, *m_panes.parameters, *m_panes.chartPage, *m_panes.log, *m_panes.notice}, this);
    m_files = new LabFiles(m_model, {*m_panes.parameters, *chartGrid(), *m_panes.lessonPanel, *m_panes.log, *m_panes.notice}, this);
    m_tensorBoard = new TensorBoardFiles(m_store, *m_session, *m_actions, {*m_panes.runList, *m_panes.log}, this);
    m_runs = new RunStarter(*m_session, m_model, m_lessons, *m_actions->keepRuns,
                            {*m_panes.parameters, *m_panes.notice, *m_panes.runList, *m_panes.chartPage, *m_panes.tabs,
                             *m_panes.comparison, *m_storedRuns},
                            [this](const QString& lessonId) { showLesson(lessonId); }, this);
    connectPanes();
    m_presentation = std::make_unique<PresentationMode>(*this, *chartGrid(), QList<QDockWidget*>{m_panes.setupDock, m_panes.runsDock, m_panes.logDock},
                                                        *m_panes.lessonDock);

    restoreSettings();
    m_storedRuns->reload();
    refreshDurations();
    updateDerived();
    m_panes.sharding->setEnginePath(m_enginePath);
    m_panes.runTarget->check();
    for (const QString& problem : m_lessons.problems())
        m_panes.log->appendMessage(tr("Lesson skipped: %1").arg(problem), true);
    for (const QString& problem : m_presets.problems())
        m_panes.log->appendMessage(tr("Preset skipped: %1").arg(problem), true);
    m_panes.log->appendMessage(tr("Engine: %1 · runs stored in %2").arg(m_enginePath, m_store.root()));
    updateActions();
    m_status->refresh();
    applyLaunchOptions(options);
}

MainWindow::~MainWindow() = default;

ChartGrid* MainWindow::chartGrid() const
{
    return m_panes.chartPage->grid();
}

void MainWindow::createMenus()
{
    MenuHooks hooks;
    hooks.resetSettings = [this] { m_panes.parameters->setValues(QJsonObject()); };
    hooks.loadPreset = [this](const QString& name) {
        if (const BuiltInPreset* chosen = m_presets.find(name)) {
            m_panes.parameters->setValues(chosen->config);
            m_panes.log->appendMessage(tr("Loaded the preset %1").arg(name));
        }
    };
    hooks.showLesson = [this](const QString& lessonId) { showLesson(lessonId); };
    hooks.showStudy = [this](const QString& studyId) { showStudy(studyId); };
    hooks.setTheme = [this](ThemeChoice choice) { setTheme(choice); };
    hooks.theme = [this] { return m_theme; };
    hooks.lessonDuration = [this](const QString& lessonId) { return lessonDuration(lessonId); };
    buildWindowMenus(*this, {*m_actions, m_presets, m_lessons, m_panes.studyPage->library(), m_panes.docks()}, hooks);
}

void MainWindow::connectPanes()
{
    const LabActions& a = *m_actions;
    connect(a.run, &QAction::triggered, this, &MainWindow::startRun);
    connect(a.stop, &QAction::triggered, this, &MainWindow::stopRun);
    connect(a.runLesson, &QAction::triggered, this, [this] { startLesson(m_panes.lessonPanel->currentLessonId()); });
    connect(a.openPreset, &QAction::triggered, m_files, &LabFiles::openPreset);
    connect(a.savePreset, &QAction::triggered, m_files, &LabFiles::savePreset);
    connect(a.copyScript, &QAction::triggered, m_files, &LabFiles::copyScript);
    connect(a.exportAll, &QAction::triggered, m_files, &LabFiles::exportEverythingInteractively);
    connect(a.exportCsv, &QAction::triggered, m_storedRuns, &StoredRuns::exportCsvOfChosenRun);
    for (qsizetype page = 0; page < a.pages.size(); ++page)
        connect(a.pages.at(page), &QAction::triggered, this, [this, page] { m_panes.tabs->setCurrentIndex(int(page)); });
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.openGl, &QAction::toggled, this, [this](bool on) { chartGrid()->setUseOpenGL(on); });
    connect(a.resetViews, &QAction::triggered, this, [this] { chartGrid()->resetAllViews(); });
    connect(a.presentation, &QAction::toggled, this, &MainWindow::setPresentationMode);
    connect(a.leavePresentation, &QAction::triggered, this, [this] { setPresentationMode(false); });
    connect(a.reveal, &QAction::triggered, this, &MainWindow::revealOutcome);
    connect(m_panes.chartPage, &ChartPage::revealRequested, this, &MainWindow::revealOutcome);
    connect(a.predictFirst, &QAction::toggled, this, [this](bool on) {
        if (!on)
            revealOutcome();  // nothing stays hidden once the mode is off
    });
    connect(a.gettingStarted, &QAction::triggered, this, [this] { showGettingStarted(this); });
    connect(a.shortcuts, &QAction::triggered, this, [this] { showShortcuts(this, *m_actions); });
    connect(a.about, &QAction::triggered, this, [this] { showAbout(this, m_inventory, m_enginePath, m_store.root()); });

    m_model.follow(*m_session);  // after RunStarter's: a run's row exists before its colour is given
    connect(m_session, &LabSession::sequenceFinished, this, &MainWindow::onSequenceFinished);
    connect(&m_session->activity(), &LabActivity::changed, this, &MainWindow::updateActions);
    connect(m_session, &LabSession::stderrLines, m_panes.log, &LogPanel::appendEngineLines);
    connect(m_session, &LabSession::logMessage, m_panes.log, &LogPanel::appendMessage);

    connect(m_panes.parameters, &ParameterPanel::changed, this, [this] {
        m_panes.inspector->inspect(m_panes.parameters->values());
        updateDerived();
        updateActions();
    });
    connect(m_panes.inspector, &ModelInspector::changed, this, &MainWindow::onInspected);
    connect(chartGrid(), &ChartGrid::exportRequested, m_files, &LabFiles::exportChart);
    connect(m_panes.notice, &NoticeBar::briefNotice, this, [this](const QString& text) {
        constexpr int kBriefNoticeMs = 10000;  // long enough to read it from the back of a room
        statusBar()->showMessage(text, kBriefNoticeMs);
    });
    connect(m_panes.sharding, &ShardingView::useRunSettingsRequested, this, [this] { m_panes.sharding->showConfig(m_panes.parameters->config()); });
    connect(&m_model, &RunModel::runsChanged, this, [this] {
        for (const DisplayedRun& run : m_model.runs())
            m_panes.runList->setRunColor(run.data->id(), run.color);
    });
    connect(m_panes.runTarget, &RunTargetBox::checked, this, &MainWindow::onDevices);

    connect(m_panes.lessonPanel, &LessonPanel::lessonSelected, this, [this](const QString& id) {
        const Lesson* lesson = m_lessons.find(id);
        if (lesson && lesson->sharding)
            m_panes.sharding->setRequest(*lesson->sharding);
        updateActions();
    });
    connect(m_panes.lessonPanel, &LessonPanel::runLessonRequested, this, &MainWindow::startLesson);
    connect(m_panes.studyPage, &StudyPage::runsStored, m_storedRuns, &StoredRuns::reload);
    connect(m_panes.studyPage, &StudyPage::showRunsRequested, m_storedRuns, &StoredRuns::showOnCharts);
    connect(m_storedRuns, &StoredRuns::chartsWanted, this, [this] { m_panes.tabs->setCurrentWidget(m_panes.chartPage); });
    connect(m_panes.studyPage, &StudyPage::logMessage, m_panes.log, &LogPanel::appendMessage);

    // The Advise page, beside Study (Ctrl+5): it asks Setup for its settings, and fills Setup
    // with its recommendation when told to.
    auto* advise = new AdvisePage(m_store, *m_session, [this] { return m_panes.parameters->config(); });
    m_panes.tabs->addTab(advise, tr("Advise"));
    m_panes.tabs->setTabToolTip(m_panes.tabs->indexOf(advise), a.pages.last()->shortcut().toString(QKeySequence::NativeText));
    advise->setMemorySources([this] { return m_inventory; }, [this]() -> const ModelInspection* {
        const std::optional<ModelInspection>& inspection = m_panes.inspector->inspection();
        return inspection ? &*inspection : nullptr;
    });
    connect(advise, &AdvisePage::useSettingsRequested, this,
            [this](const ddplab::Config& config) { m_panes.parameters->setValues(presetFromCoreConfig(config)); });
    connect(advise, &AdvisePage::runsStored, m_storedRuns, &StoredRuns::reload);
    connect(advise, &AdvisePage::logMessage, m_panes.log, &LogPanel::appendMessage);
}

// ---------------------------------------------------------------------------------------
// Settings between sessions
// ---------------------------------------------------------------------------------------

void MainWindow::restoreSettings()
{
    const WindowSettings settings = WindowSettings::load();
    if (settings.geometry.isEmpty() || !restoreGeometry(settings.geometry) || !restoreState(settings.dockState))
        arrangeForScreen(*this, {m_panes.setupDock, m_panes.lessonDock, m_panes.runsDock, m_panes.logDock});
    keepOnScreen(*this);
    m_theme = settings.theme;
    if (m_theme != ThemeChoice::System)
        applyTheme(m_theme);
    if (settings.parameters) {
        m_panes.parameters->setValues(*settings.parameters);
    } else if (const BuiltInPreset* firstRun = m_presets.find(kFirstRunPreset)) {
        m_panes.parameters->setValues(firstRun->config);
    }
    m_panes.chartPage->setSmoothing(settings.smoothing);
    m_panes.chartPage->setXAxis(settings.xAxis);
    chartGrid()->setLogScaleChoices(settings.logScales);
    m_actions->openGl->setChecked(settings.openGl);
    m_actions->keepRuns->setChecked(settings.keepEarlierRuns);
    m_tensorBoard->restore(settings);
    m_panes.lessonPanel->selectLesson(settings.lesson.isEmpty() ? firstLessonId() : settings.lesson);
}

void MainWindow::saveSettings() const
{
    WindowSettings settings;
    settings.geometry = saveGeometry();
    // Presentation mode is a moment, not a layout: what is kept is the layout it will restore.
    settings.dockState = saveState();
    settings.theme = m_theme;
    settings.parameters = m_panes.parameters->values();
    settings.smoothing = m_panes.chartPage->smoothing();
    settings.xAxis = m_panes.chartPage->xAxis();
    settings.logScales = chartGrid()->logScaleChoices();
    settings.openGl = m_actions->openGl->isChecked();
    settings.keepEarlierRuns = m_actions->keepRuns->isChecked();
    m_tensorBoard->saveInto(settings);
    settings.lesson = m_panes.lessonPanel->currentLessonId();
    settings.save();
}

void MainWindow::applyLaunchOptions(const LaunchOptions& options)
{
    m_pendingExport = options;
    if (options.runOn.isRemote())
        m_panes.runTarget->chooseTarget(options.runOn.text(), options.runOn.remoteEngine);
    if (!options.launch.isEmpty())
        m_panes.runTarget->chooseLaunch(options.launch);
    if (options.present)
        QTimer::singleShot(0, this, [this] { setPresentationMode(true); });  // once the window is laid out
    if (!options.study.isEmpty() || !options.resumeStudy.isEmpty()) {
        // The window on the Study page: the study chosen (and run with --run), or resumed.
        m_panes.tabs->setCurrentWidget(m_panes.studyPage);
        if (!options.resumeStudy.isEmpty()) {
            QTimer::singleShot(0, this, [this, options] { m_panes.studyPage->resumeStudy(options.resumeStudy); });
            return;
        }
        QString error;
        if (!m_panes.studyPage->chooseStudy(options.study, &error)) {
            m_panes.notice->showNotice(NoticeBar::Kind::Error, tr("Cannot open the study \"%1\"").arg(options.study), error);
            return;
        }
        if (options.run)
            QTimer::singleShot(0, this, [this, options] { m_panes.studyPage->runStudy(options.yes); });
        return;
    }
    if (options.preset.isEmpty())
        return;
    const ResolvedPreset resolved = resolvePreset(options.preset, m_lessons, m_presets);
    if (!resolved.error.isEmpty()) {
        m_panes.notice->showNotice(NoticeBar::Kind::Error, tr("Cannot load \"%1\"").arg(options.preset), resolved.error);
        return;
    }
    if (m_lessons.find(resolved.lessonId))
        showLesson(resolved.lessonId);
    else if (resolved.lessonId.isEmpty())
        m_panes.parameters->setValues(presetFromCoreConfig(resolved.runs.first().config));
    if (!options.run)
        return;
    // Start once the window is up, so the first events have somewhere to go.
    QTimer::singleShot(0, this, [this, resolved] {
        if (resolved.lessonId.isEmpty())
            startRun();
        else
            m_runs->startSequence(resolved.runs, resolved.chartMetrics, resolved.xAxis);
    });
}

// ---------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------

bool MainWindow::isRunning() const
{
    return m_session->activity().isBusy();
}

void MainWindow::startRun()
{
    m_runs->startRun();
}

void MainWindow::startLesson(const QString& lessonId)
{
    const bool started = !isRunning();
    m_runs->startLesson(lessonId);
    // Predict first: the class guesses before it sees; the runs go on under the question.
    const Lesson* lesson = m_lessons.find(lessonId);
    if (started && isRunning() && lesson && m_actions->predictFirst->isChecked()) {
        m_panes.chartPage->cover(lesson->prediction.isEmpty() ? tr("What will the charts show?") : lesson->prediction);
        m_panes.lessonPanel->setOutcomeHidden(true);
        m_actions->reveal->setEnabled(true);
    }
}

void MainWindow::revealOutcome()
{
    m_panes.chartPage->uncover();
    m_panes.lessonPanel->setOutcomeHidden(false);
    m_actions->reveal->setEnabled(false);
}

void MainWindow::stopRun()
{
    // The toolbar's Stop stops whatever runs: a run, a lesson or a study.
    m_session->stop();
}

void MainWindow::onSequenceFinished(bool allSucceeded)
{
    const QSharedPointer<RunData> last = m_session->runs().isEmpty() ? nullptr : m_session->runs().last();
    m_status->sequenceEnded(last ? last->record().status : RunStatus::Finished);
    updateActions();
    refreshDurations();  // the runs just ended measured the machine again
    if (last && last->record().belongsToStudy())
        return;  // a study's end is the Study page's to report
    chartGrid()->redrawAllNow();
    if (!m_pendingExport.exportDirectory.isEmpty()) {
        QString error;
        const ImageFormat format{m_pendingExport.imageSize, m_pendingExport.imageScale, m_pendingExport.slides, m_files->slideTitle()};
        if (m_files->exportEverything(m_pendingExport.exportDirectory, format, &error))
            m_panes.log->appendMessage(tr("Exported the charts and CSVs to %1").arg(m_pendingExport.exportDirectory));
        else
            m_panes.notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
        m_pendingExport.exportDirectory.clear();
    }
    emit sequenceDone(allSucceeded);
}

void MainWindow::onDevices(const QueryResult& result)
{
    if (!result.ok) {
        m_panes.log->appendMessage(result.error, true);
        // A run's own failure, if one came first, says more than this.
        if (!m_panes.notice->isVisible())
            m_panes.notice->showNotice(NoticeBar::Kind::Error, tr("The training engine cannot be used"), result.error);
        return;
    }
    m_inventory = DeviceInventory::fromJson(result.object);
    m_panes.parameters->setDeviceInventory(m_inventory);
    m_status->refresh();
}

void MainWindow::updateDerived()
{
    // Your own model's samples are known once the engine has read the data: until then the
    // figures that depend on them wait for the inspection.
    Config config = m_panes.parameters->config();
    const bool ownModel = traitsOf(config).ownModel;
    const std::optional<ModelInspection>& inspection = m_panes.inspector->inspection();
    if (ownModel && inspection)
        config.trainSamples = inspection->trainSamples;
    m_panes.derived->setConfig(config, m_panes.parameters->isValid() && (!ownModel || inspection));

    QString note;
    if (!m_panes.inspector->applies())
        note = tr("choose the model file and the training data: the engine then loads them and says what they are");
    else if (m_panes.inspector->isRunning())
        note = tr("the engine is loading the model and the data…");
    else if (m_panes.inspector->problem())
        note = tr("not usable: see the message in Setup");
    m_panes.derived->setInspection(ownModel, m_panes.inspector->isRunning() ? nullptr : (inspection ? &*inspection : nullptr), note);
}

void MainWindow::onInspected()
{
    const std::optional<InspectionProblem>& problem = m_panes.inspector->problem();
    if (!m_panes.inspector->isRunning())
        m_panes.parameters->setInspectionProblem(problem ? problem->key : QString(), problem ? problem->message : QString());
    updateDerived();
    updateActions();
}

void MainWindow::updateActions()
{
    // The lab's one busy state (a run, a lesson, a study or an advice) gates every start.
    const bool running = isRunning();
    m_runGate->update(m_session->activity().busyWords(), m_panes.parameters->problemSentences());
    m_actions->stop->setEnabled(running);
    m_actions->runLesson->setEnabled(!running && m_lessons.find(m_panes.lessonPanel->currentLessonId()));
    m_actions->openPreset->setEnabled(!running);
    m_actions->leavePresentation->setEnabled(isPresenting());
    m_panes.lessonPanel->setRunning(running);
    // The platform adds the application's name ("Running — DDP Lab"; idle: the name alone).
    setWindowTitle(running ? tr("Running") : QString());
}

QString MainWindow::runBlockedReason() const
{
    return m_runGate->reason();
}

QString MainWindow::statusText() const
{
    return m_status->statusText();
}

QString MainWindow::progressText() const
{
    return m_status->progressText();
}

bool MainWindow::exportEverything(const QString& directory, QSize imageSize, double scale, QString* error)
{
    return m_files->exportEverything(directory, {imageSize, scale}, error);
}

void MainWindow::showLesson(const QString& lessonId)
{
    m_panes.lessonPanel->selectLesson(lessonId);
    m_panes.lessonDock->show();
    m_panes.lessonDock->raise();
}

QString MainWindow::lessonDuration(const QString& lessonId) const
{
    const Lesson* lesson = m_lessons.find(lessonId);
    return lesson ? durationText(estimatedSeconds(*lesson, m_speed)) : QString();
}

void MainWindow::refreshDurations()
{
    m_speed = MachineSpeed::measure(m_store);
    QHash<QString, QString> durations;
    for (const Lesson& lesson : m_lessons.lessons())
        durations.insert(lesson.id, lessonDuration(lesson.id));
    m_panes.lessonPanel->setDurations(durations);
}

void MainWindow::showStudy(const QString& id)
{
    m_panes.studyPage->chooseStudy(id, nullptr);
    m_panes.tabs->setCurrentWidget(m_panes.studyPage);
}

// ---------------------------------------------------------------------------------------
// Look, presentation, closing
// ---------------------------------------------------------------------------------------

void MainWindow::setTheme(ThemeChoice choice)
{
    m_theme = choice;
    applyTheme(choice);
}

void MainWindow::setPresentationMode(bool on)
{
    if (on)
        m_presentation->enter();
    else
        m_presentation->leave();
    // An export's notice in the status bar: the strip above the charts would squeeze the lead chart.
    m_panes.notice->setBrief(on);
    const QSignalBlocker blocker(m_actions->presentation);
    m_actions->presentation->setChecked(on);
    updateActions();
}

bool MainWindow::isPresenting() const
{
    return m_presentation && m_presentation->isOn();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isRunning()) {
        // What streamed so far is on disk already; the run in progress is marked as cancelled
        // (a study resumes from its folder next time).
        m_panes.log->appendMessage(m_session->activity().busy() == Busy::Study ? tr("Closing: stopping the study…") : tr("Closing: stopping the run…"));
        m_session->stopAndWait(kCloseStopTimeoutMs);
    }
    setPresentationMode(false);  // the layout kept is the one it would restore
    saveSettings();
    event->accept();
}

}  // namespace ddplab::ui
