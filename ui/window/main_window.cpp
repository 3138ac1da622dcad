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
#include "client/wire.hpp"
#include "lessons/lesson_panel.hpp"
#include "runs/comparison_table.hpp"
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
#include "window/screen_fit.hpp"
#include "window/status_area.hpp"
#include "window/stored_runs.hpp"
#include "window/tensorboard_files.hpp"
#include "window/window_settings.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>

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

    setCentralWidget(createCentralArea());
    createDocks();
    createMenus();
    createStatusBar();
    m_runGate = std::make_unique<RunGate>(*m_actions->run, *m_status);
    m_storedRuns = new StoredRuns(m_store, m_model, *m_session, m_lessons, {*m_runList, *m_parameters, *m_chartPage, *m_log, *m_notice}, this);
    m_files = new LabFiles(m_model, {*m_parameters, *chartGrid(), *m_lessonPanel, *m_log, *m_notice}, this);
    m_tensorBoard = new TensorBoardFiles(m_store, *m_session, *m_actions, {*m_runList, *m_log}, this);
    connectPanes();
    m_presentation = std::make_unique<PresentationMode>(*this, *chartGrid(), QList<QDockWidget*>{m_setupDock, m_runsDock, m_logDock},
                                                        *m_lessonDock);

    restoreSettings();
    m_storedRuns->reload();
    updateDerived();
    m_sharding->setEnginePath(m_enginePath);
    m_runTarget->check();
    for (const QString& problem : m_lessons.problems())
        m_log->appendMessage(tr("Lesson skipped: %1").arg(problem), true);
    for (const QString& problem : m_presets.problems())
        m_log->appendMessage(tr("Preset skipped: %1").arg(problem), true);
    m_log->appendMessage(tr("Engine: %1 · runs stored in %2").arg(m_enginePath, m_store.root()));
    updateActions();
    m_status->refresh();
    applyLaunchOptions(options);
}

MainWindow::~MainWindow() = default;

ChartGrid* MainWindow::chartGrid() const
{
    return m_chartPage->grid();
}

void MainWindow::connectPanes()
{
    const LabActions& a = *m_actions;
    connect(a.run, &QAction::triggered, this, &MainWindow::startRun);
    connect(a.stop, &QAction::triggered, this, &MainWindow::stopRun);
    connect(a.runLesson, &QAction::triggered, this, [this] { startLesson(m_lessonPanel->currentLessonId()); });
    connect(a.openPreset, &QAction::triggered, m_files, &LabFiles::openPreset);
    connect(a.savePreset, &QAction::triggered, m_files, &LabFiles::savePreset);
    connect(a.copyScript, &QAction::triggered, m_files, &LabFiles::copyScript);
    connect(a.exportAll, &QAction::triggered, m_files, &LabFiles::exportEverythingInteractively);
    connect(a.exportCsv, &QAction::triggered, m_storedRuns, &StoredRuns::exportCsvOfChosenRun);
    for (qsizetype page = 0; page < a.pages.size(); ++page)
        connect(a.pages.at(page), &QAction::triggered, this, [this, page] { m_tabs->setCurrentIndex(int(page)); });
    connect(a.quit, &QAction::triggered, this, &QWidget::close);
    connect(a.openGl, &QAction::toggled, this, [this](bool on) { chartGrid()->setUseOpenGL(on); });
    connect(a.resetViews, &QAction::triggered, this, [this] { chartGrid()->resetAllViews(); });
    connect(a.presentation, &QAction::toggled, this, &MainWindow::setPresentationMode);
    connect(a.leavePresentation, &QAction::triggered, this, [this] { setPresentationMode(false); });
    connect(a.gettingStarted, &QAction::triggered, this, [this] { showGettingStarted(this); });
    connect(a.shortcuts, &QAction::triggered, this, [this] { showShortcuts(this, *m_actions); });
    connect(a.about, &QAction::triggered, this, [this] { showAbout(this, m_inventory, m_enginePath, m_store.root()); });

    connect(m_session, &LabSession::runStarted, this, &MainWindow::onRunStarted);
    connect(m_session, &LabSession::runFinished, this, &MainWindow::onRunFinished);
    m_model.follow(*m_session);  // after onRunStarted: a run's row exists before its colour is given
    connect(m_session, &LabSession::sequenceFinished, this, &MainWindow::onSequenceFinished);
    connect(m_session, &LabSession::runningChanged, this, &MainWindow::updateActions);
    connect(m_session, &LabSession::stderrReceived, m_log, &LogPanel::appendEngineOutput);
    connect(m_session, &LabSession::logMessage, m_log, &LogPanel::appendMessage);

    connect(m_parameters, &ParameterPanel::changed, this, [this] {
        m_inspector->inspect(m_parameters->values());
        updateDerived();
        updateActions();
    });
    connect(m_inspector, &ModelInspector::changed, this, &MainWindow::onInspected);
    connect(chartGrid(), &ChartGrid::exportRequested, m_files, &LabFiles::exportChart);
    connect(m_sharding, &ShardingView::useRunSettingsRequested, this, [this] { m_sharding->showConfig(m_parameters->config()); });
    connect(&m_model, &RunModel::runsChanged, this, [this] {
        for (const DisplayedRun& run : m_model.runs())
            m_runList->setRunColor(run.data->id(), run.color);
    });
    connect(m_runTarget, &RunTargetBox::checked, this, &MainWindow::onDevices);

    connect(m_lessonPanel, &LessonPanel::lessonSelected, this, [this](const QString& id) {
        const Lesson* lesson = m_lessons.find(id);
        if (lesson && lesson->sharding) {
            ShardRequest request;
            request.numExamples = lesson->sharding->numExamples;
            request.worldSize = lesson->sharding->worldSize;
            request.batchSize = lesson->sharding->batchSize;
            request.shuffle = lesson->sharding->shuffle;
            request.dropLast = lesson->sharding->dropLast;
            m_sharding->setRequest(request);
        }
        updateActions();
    });
    connect(m_lessonPanel, &LessonPanel::runLessonRequested, this, &MainWindow::startLesson);
    connect(m_studyPage, &StudyPage::runsStored, m_storedRuns, &StoredRuns::reload);
    connect(m_studyPage, &StudyPage::showRunsRequested, m_storedRuns, &StoredRuns::showOnCharts);
    connect(m_storedRuns, &StoredRuns::chartsWanted, this, [this] { m_tabs->setCurrentWidget(m_chartPage); });
    connect(m_studyPage, &StudyPage::logMessage, m_log, &LogPanel::appendMessage);

    // The Advise page, beside Study (Ctrl+5): it asks Setup for its settings, and fills Setup
    // with its recommendation when told to.
    auto* advise = new AdvisePage(m_store, *m_session, [this] { return m_parameters->config(); });
    m_tabs->addTab(advise, tr("Advise"));
    m_tabs->setTabToolTip(m_tabs->indexOf(advise), a.pages.last()->shortcut().toString(QKeySequence::NativeText));
    connect(advise, &AdvisePage::useSettingsRequested, this,
            [this](const ddplab::Config& config) { m_parameters->setValues(presetFromCoreConfig(config)); });
    connect(advise, &AdvisePage::runsStored, m_storedRuns, &StoredRuns::reload);
    connect(advise, &AdvisePage::logMessage, m_log, &LogPanel::appendMessage);
}

// ---------------------------------------------------------------------------------------
// Settings between sessions
// ---------------------------------------------------------------------------------------

void MainWindow::restoreSettings()
{
    const WindowSettings settings = WindowSettings::load();
    if (settings.geometry.isEmpty() || !restoreGeometry(settings.geometry) || !restoreState(settings.dockState))
        arrangeForScreen(*this, {m_setupDock, m_lessonDock, m_runsDock, m_logDock});
    keepOnScreen(*this);
    m_theme = settings.theme;
    if (m_theme != ThemeChoice::System)
        applyTheme(m_theme);
    if (settings.parameters) {
        m_parameters->setValues(*settings.parameters);
    } else if (const BuiltInPreset* firstRun = m_presets.find(kFirstRunPreset)) {
        m_parameters->setValues(firstRun->config);
    }
    m_chartPage->setSmoothing(settings.smoothing);
    m_chartPage->setXAxis(settings.xAxis);
    chartGrid()->setLogScaleChoices(settings.logScales);
    m_actions->openGl->setChecked(settings.openGl);
    m_actions->keepRuns->setChecked(settings.keepEarlierRuns);
    m_tensorBoard->restore(settings);
    m_lessonPanel->selectLesson(settings.lesson.isEmpty() ? firstLessonId() : settings.lesson);
}

void MainWindow::saveSettings() const
{
    WindowSettings settings;
    settings.geometry = saveGeometry();
    // Presentation mode is a moment, not a layout: what is kept is the layout it will restore.
    settings.dockState = saveState();
    settings.theme = m_theme;
    settings.parameters = m_parameters->values();
    settings.smoothing = m_chartPage->smoothing();
    settings.xAxis = m_chartPage->xAxis();
    settings.logScales = chartGrid()->logScaleChoices();
    settings.openGl = m_actions->openGl->isChecked();
    settings.keepEarlierRuns = m_actions->keepRuns->isChecked();
    m_tensorBoard->saveInto(settings);
    settings.lesson = m_lessonPanel->currentLessonId();
    settings.save();
}

void MainWindow::applyLaunchOptions(const LaunchOptions& options)
{
    m_pendingExport = options;
    if (options.runOn.isRemote())
        m_runTarget->chooseTarget(options.runOn.text(), options.runOn.remoteEngine);
    if (!options.launch.isEmpty())
        m_runTarget->chooseLaunch(options.launch);
    if (options.present)
        QTimer::singleShot(0, this, [this] { setPresentationMode(true); });  // once the window is laid out
    if (!options.study.isEmpty() || !options.resumeStudy.isEmpty()) {
        // The window on the Study page: the study chosen (and run with --run), or resumed.
        m_tabs->setCurrentWidget(m_studyPage);
        if (!options.resumeStudy.isEmpty()) {
            QTimer::singleShot(0, this, [this, options] { m_studyPage->resumeStudy(options.resumeStudy); });
            return;
        }
        QString error;
        if (!m_studyPage->chooseStudy(options.study, &error)) {
            m_notice->showNotice(NoticeBar::Kind::Error, tr("Cannot open the study \"%1\"").arg(options.study), error);
            return;
        }
        if (options.run)
            QTimer::singleShot(0, this, [this, options] { m_studyPage->runStudy(options.yes); });
        return;
    }
    if (options.preset.isEmpty())
        return;
    const ResolvedPreset resolved = resolvePreset(options.preset, m_lessons, m_presets);
    if (!resolved.error.isEmpty()) {
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Cannot load \"%1\"").arg(options.preset), resolved.error);
        return;
    }
    if (m_lessons.find(resolved.lessonId))
        showLesson(resolved.lessonId);
    else if (resolved.lessonId.isEmpty())
        m_parameters->setValues(presetFromCoreConfig(resolved.runs.first().config));
    if (!options.run)
        return;
    // Start once the window is up, so the first events have somewhere to go.
    QTimer::singleShot(0, this, [this, resolved] {
        if (resolved.lessonId.isEmpty())
            startRun();
        else
            startSequence(resolved.runs, resolved.chartMetrics, resolved.xAxis);
    });
}

// ---------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------

bool MainWindow::isRunning() const
{
    return m_session->isRunning();
}

void MainWindow::startRun()
{
    if (isRunning())
        return;
    if (!m_parameters->isValid()) {
        m_notice->showNotice(NoticeBar::Kind::Warning, tr("Some settings need attention before Run"),
                             tr("The fields marked in the Setup panel say what the engine allows."));
        return;
    }
    const QString name = defaultRunName(m_parameters->values());
    startSequence({{name, name, QString(), m_parameters->config()}});
}

void MainWindow::startLesson(const QString& lessonId)
{
    if (isRunning())
        return;
    const ResolvedPreset resolved = resolvePreset(lessonId, m_lessons, PresetLibrary());
    if (!resolved.error.isEmpty() || resolved.lessonId.isEmpty()) {
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Cannot run the lesson \"%1\"").arg(lessonId), resolved.error);
        return;
    }
    showLesson(lessonId);
    startSequence(resolved.runs, resolved.chartMetrics, resolved.xAxis);
}

void MainWindow::startSequence(const QList<RunRequest>& requests, const QStringList& chartMetrics, std::optional<XAxis> xAxis)
{
    m_notice->dismiss();
    if (!m_actions->keepRuns->isChecked()) {
        for (const DisplayedRun& run : m_model.runs()) {
            m_runList->setShown(run.data->id(), false);
            m_runList->setRunColor(run.data->id(), QColor());
        }
        m_model.clear();
    }
    chartGrid()->setFocusCharts(chartsForMetrics(chartMetrics));
    if (xAxis)
        m_chartPage->setXAxis(*xAxis);
    m_tabs->setCurrentIndex(0);
    m_session->start(requests);
}

void MainWindow::stopRun()
{
    // The toolbar's Stop stops whatever runs: a run, a lesson or a study.
    m_session->stop();
}

void MainWindow::onRunStarted(int, const QSharedPointer<RunData>& run)
{
    // The row first, so that the colour the model gives the run lands on it.
    m_storedRuns->update(run->record());
    if (run->record().belongsToStudy())
        return;  // the Study page draws a study's runs; the chart page shows them when asked
    m_runList->setShown(run->id(), true);  // the model shows it next (RunModel::follow)
}

void MainWindow::onRunFinished(int, const QSharedPointer<RunData>& run)
{
    const RunRecord& record = run->record();
    m_storedRuns->update(record);
    if (record.belongsToStudy())
        return;  // the Study page reports its runs
    m_comparison->refresh();
    m_storedRuns->reportReadingProblems(*run);
    if (record.status == RunStatus::Failed) {
        QString details = record.error;
        if (record.exitCode > 0)
            details += tr("\n(engine exit code %1; its messages are in the Log below and in %2)")
                           .arg(record.exitCode)
                           .arg(RunStore::stderrPath(record));
        m_notice->showNotice(NoticeBar::Kind::Error, tr("Run \"%1\" failed").arg(run->label()), details);
        const QString key = run->error().value(wire(field::kKey)).toString();
        if (!key.isEmpty() && m_parameters->editor(key))
            m_parameters->showEngineProblem(key, record.error);
    } else if (record.status == RunStatus::Cancelled) {
        m_notice->showNotice(NoticeBar::Kind::Information, tr("Run \"%1\" stopped").arg(run->label()),
                             tr("%1 steps were recorded; the run stays in the Runs list.").arg(run->stepCount()));
    }
}

void MainWindow::onSequenceFinished(bool allSucceeded)
{
    const QSharedPointer<RunData> last = m_session->runs().isEmpty() ? nullptr : m_session->runs().last();
    m_status->sequenceEnded(last ? last->record().status : RunStatus::Finished);
    updateActions();
    if (last && last->record().belongsToStudy())
        return;  // a study's end is the Study page's to report
    chartGrid()->redrawAllNow();
    if (!m_pendingExport.exportDirectory.isEmpty()) {
        QString error;
        if (m_files->exportEverything(m_pendingExport.exportDirectory, {m_pendingExport.imageSize, m_pendingExport.imageScale}, &error))
            m_log->appendMessage(tr("Exported the charts and CSVs to %1").arg(m_pendingExport.exportDirectory));
        else
            m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
        m_pendingExport.exportDirectory.clear();
    }
    emit sequenceDone(allSucceeded);
}

void MainWindow::onDevices(const QueryResult& result)
{
    if (!result.ok) {
        m_log->appendMessage(result.error, true);
        // A run's own failure, if one came first, says more than this.
        if (!m_notice->isVisible())
            m_notice->showNotice(NoticeBar::Kind::Error, tr("The training engine cannot be used"), result.error);
        return;
    }
    m_inventory = DeviceInventory::fromJson(result.object);
    m_parameters->setDeviceInventory(m_inventory);
    m_status->refresh();
}

void MainWindow::updateDerived()
{
    // Your own model's samples are known once the engine has read the data: until then the
    // figures that depend on them wait for the inspection.
    Config config = m_parameters->config();
    const bool ownModel = config.workload == WorkloadKind::TorchScript;
    const std::optional<ModelInspection>& inspection = m_inspector->inspection();
    if (ownModel && inspection)
        config.trainSamples = inspection->trainSamples;
    m_derived->setConfig(config, m_parameters->isValid() && (!ownModel || inspection));

    QString note;
    if (!m_inspector->applies())
        note = tr("choose the model file and the training data: the engine then loads them and says what they are");
    else if (m_inspector->isRunning())
        note = tr("the engine is loading the model and the data…");
    else if (m_inspector->problem())
        note = tr("not usable: see the message in Setup");
    m_derived->setInspection(ownModel, m_inspector->isRunning() ? nullptr : (inspection ? &*inspection : nullptr), note);
}

void MainWindow::onInspected()
{
    const std::optional<InspectionProblem>& problem = m_inspector->problem();
    if (!m_inspector->isRunning())
        m_parameters->setInspectionProblem(problem ? problem->key : QString(), problem ? problem->message : QString());
    updateDerived();
    updateActions();
}

void MainWindow::updateActions()
{
    const bool running = isRunning();
    m_runGate->update(running, m_parameters->problemSentences());
    m_actions->stop->setEnabled(running);
    m_actions->runLesson->setEnabled(!running && m_lessons.find(m_lessonPanel->currentLessonId()));
    m_actions->openPreset->setEnabled(!running);
    m_actions->leavePresentation->setEnabled(isPresenting());
    m_lessonPanel->setRunning(running);
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
    m_lessonPanel->selectLesson(lessonId);
    m_lessonDock->show();
    m_lessonDock->raise();
}

void MainWindow::showStudy(const QString& id)
{
    m_studyPage->chooseStudy(id, nullptr);
    m_tabs->setCurrentWidget(m_studyPage);
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
        m_log->appendMessage(m_studyPage->isRunning() ? tr("Closing: stopping the study…") : tr("Closing: stopping the run…"));
        m_session->stopAndWait(kCloseStopTimeoutMs);
    }
    setPresentationMode(false);  // the layout kept is the one it would restore
    saveSettings();
    event->accept();
}

}  // namespace ddplab::ui
