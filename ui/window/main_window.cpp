#include "main_window.hpp"

#include "client/wire.hpp"

#include "charts/chart_grid.hpp"
#include "charts/chart_panel.hpp"
#include "charts/run_legend.hpp"
#include "client/engine_locator.hpp"
#include "client/engine_query.hpp"
#include "client/preset_resolver.hpp"
#include "client/run_data.hpp"
#include "client/run_progress.hpp"
#include "lessons/lesson_panel.hpp"
#include "runs/comparison_table.hpp"
#include "runs/run_list_panel.hpp"
#include "setup/derived_panel.hpp"
#include "setup/parameter_panel.hpp"
#include "sharding/sharding_view.hpp"
#include "window/log_panel.hpp"
#include "window/notice_bar.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDockWidget>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUrl>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

constexpr int kStatusRefreshMs = 250;       // progress and time remaining, between events
constexpr int kCloseStopTimeoutMs = 3000;   // closing the window waits this long for the engine

QIcon icon(const char* name)
{
    return QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name)));
}

}  // namespace

MainWindow::MainWindow(const LaunchOptions& options, QWidget* parent)
    : QMainWindow(parent)
    , m_enginePath(locateEngine(options.enginePath))
    , m_lessons(LessonLibrary::load())
    , m_presets(PresetLibrary::load())
{
    setWindowTitle(QStringLiteral("DDP Lab"));
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);
    m_session = new LabSession(m_store, m_enginePath, this);
    m_devicesQuery = new EngineQuery(this);

    createActions();
    setCentralWidget(createCentralArea());
    createDocks();
    createMenus();
    createStatusBar();
    connectSequence();

    connect(m_parameters, &ParameterPanel::changed, this, [this] {
        m_derived->setConfig(m_parameters->config(), m_parameters->isValid());
        updateActions();
    });
    connect(m_charts, &ChartGrid::exportRequested, this, &MainWindow::exportChart);
    connect(m_sharding, &ShardingView::useRunSettingsRequested, this, [this] { m_sharding->showConfig(m_parameters->config()); });
    connect(&m_model, &RunModel::runsChanged, this, [this] {
        for (const DisplayedRun& run : m_model.runs())
            m_runList->setRunColor(run.data->id(), run.color);
    });
    connect(m_devicesQuery, &EngineQuery::finished, this, &MainWindow::onDevices);
    m_statusTimer.setInterval(kStatusRefreshMs);
    connect(&m_statusTimer, &QTimer::timeout, this, &MainWindow::updateStatus);

    restoreSettings();
    reloadRunList();
    m_derived->setConfig(m_parameters->config(), m_parameters->isValid());
    m_sharding->setEnginePath(m_enginePath);
    m_devicesQuery->start(m_enginePath, {QStringLiteral("devices")});
    for (const QString& problem : m_lessons.problems())
        m_log->appendMessage(tr("Lesson skipped: %1").arg(problem), true);
    for (const QString& problem : m_presets.problems())
        m_log->appendMessage(tr("Preset skipped: %1").arg(problem), true);
    m_log->appendMessage(tr("Engine: %1 · runs stored in %2").arg(m_enginePath, m_store.root()));
    updateActions();
    updateStatus();
    applyLaunchOptions(options);
}

MainWindow::~MainWindow() = default;

// ---------------------------------------------------------------------------------------
// Building the window
// ---------------------------------------------------------------------------------------

void MainWindow::createActions()
{
    m_runAction = new QAction(icon("run"), tr("&Run"), this);
    m_runAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)});
    m_runAction->setToolTip(tr("Run with the settings on the left (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startRun);

    m_stopAction = new QAction(icon("stop"), tr("&Stop"), this);
    m_stopAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Period), QKeySequence(Qt::SHIFT | Qt::Key_F5)});
    m_stopAction->setToolTip(tr("Stop the run: the engine stops every rank (Ctrl+.)"));
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::stopRun);

    m_runLessonAction = new QAction(icon("lesson"), tr("Run the &Lesson"), this);
    m_runLessonAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_runLessonAction->setToolTip(tr("Run every run of the selected lesson and overlay them (Ctrl+L)"));
    connect(m_runLessonAction, &QAction::triggered, this, [this] { startLesson(m_lessonPanel->currentLessonId()); });

    m_openPresetAction = new QAction(icon("open"), tr("&Open Preset…"), this);
    m_openPresetAction->setShortcut(QKeySequence::Open);
    m_openPresetAction->setToolTip(tr("Load settings from a preset file (an engine config JSON)"));
    connect(m_openPresetAction, &QAction::triggered, this, &MainWindow::openPreset);

    m_savePresetAction = new QAction(icon("save"), tr("&Save Settings as Preset…"), this);
    m_savePresetAction->setShortcut(QKeySequence::Save);
    m_savePresetAction->setToolTip(tr("Save the settings as a preset (ddplab-engine run --config FILE runs it)"));
    connect(m_savePresetAction, &QAction::triggered, this, &MainWindow::savePreset);

    m_exportAllAction = new QAction(icon("export"), tr("&Export Charts and CSVs…"), this);
    m_exportAllAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAllAction->setToolTip(tr("Every chart as PNG and SVG, and every displayed run's metrics as CSV, into a folder (Ctrl+E)"));
    connect(m_exportAllAction, &QAction::triggered, this, &MainWindow::exportEverythingInteractively);

    m_exportCsvAction = new QAction(tr("Export Run Metrics as &CSV…"), this);
    m_exportCsvAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(m_exportCsvAction, &QAction::triggered, this, [this] {
        const QList<RunRecord> selected = m_runList->selectedRuns();
        if (!selected.isEmpty())
            exportRunCsv(selected.first());
        else if (!m_model.runs().isEmpty())
            exportRunCsv(m_model.runs().last().data->record());
    });

    m_keepRunsAction = new QAction(tr("&Keep Earlier Runs on the Charts"), this);
    m_keepRunsAction->setCheckable(true);
    m_keepRunsAction->setToolTip(tr("A new run is added to the charts instead of replacing what they show"));

    m_openGlAction = new QAction(tr("Draw Charts with &OpenGL"), this);
    m_openGlAction->setCheckable(true);
    connect(m_openGlAction, &QAction::toggled, this, [this](bool on) { m_charts->setUseOpenGL(on); });
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openPresetAction);
    file->addAction(m_savePresetAction);
    file->addSeparator();
    file->addAction(m_exportAllAction);
    file->addAction(m_exportCsvAction);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_stopAction);
    run->addAction(m_runLessonAction);
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
    lessons->addAction(m_runLessonAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
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
    view->addAction(m_keepRunsAction);
    view->addAction(m_openGlAction);
    view->addAction(tr("&Reset All Chart Views"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] { m_charts->resetAllViews(); });

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard and Mouse"), QKeySequence::HelpContents, this, &MainWindow::showShortcuts);
    help->addAction(tr("&About DDP Lab"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setMovable(false);
    toolbar->addAction(m_runAction);
    toolbar->addAction(m_stopAction);
    toolbar->addSeparator();
    toolbar->addAction(m_runLessonAction);
    toolbar->addSeparator();
    toolbar->addAction(m_openPresetAction);
    toolbar->addAction(m_savePresetAction);
    toolbar->addAction(m_exportAllAction);
}

QWidget* MainWindow::createCentralArea()
{
    m_notice = new NoticeBar;
    m_charts = new ChartGrid(m_model);

    auto* chartsPage = new QWidget;
    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(8, 6, 8, 0);
    auto* smoothingLabel = new QLabel(tr("Smoothing"));
    m_smoothing = new QSlider(Qt::Horizontal);
    m_smoothing->setRange(0, 99);
    m_smoothing->setFixedWidth(160);
    m_smoothing->setToolTip(tr("Debiased exponential moving average; the raw curve stays faint beneath"));
    smoothingLabel->setBuddy(m_smoothing);
    m_smoothingValue = new QLabel;
    m_smoothingValue->setMinimumWidth(m_smoothingValue->fontMetrics().horizontalAdvance(QStringLiteral("0.00")) + 4);
    connect(m_smoothing, &QSlider::valueChanged, this, [this](int value) {
        const double weight = value / 100.0;
        m_smoothingValue->setText(QString::number(weight, 'f', 2));
        m_charts->setSmoothing(weight);
    });
    auto* hint = new QLabel(tr("Drag to zoom · Ctrl+wheel · Shift+drag to pan · double-click resets · hover reads values"));
    hint->setForegroundRole(QPalette::PlaceholderText);
    auto* resetViews = new QPushButton(icon("fit"), tr("Reset Views"));
    resetViews->setToolTip(tr("Fit every chart to its data (Ctrl+0)"));
    connect(resetViews, &QPushButton::clicked, this, [this] { m_charts->resetAllViews(); });
    controls->addWidget(smoothingLabel);
    controls->addWidget(m_smoothing);
    controls->addWidget(m_smoothingValue);
    controls->addSpacing(16);
    controls->addWidget(hint, 1);
    controls->addWidget(resetViews);
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_charts);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* legend = new RunLegend(m_model);
    legend->setContentsMargins(10, 2, 10, 0);
    auto* chartsLayout = new QVBoxLayout(chartsPage);
    chartsLayout->setContentsMargins(0, 0, 0, 0);
    chartsLayout->addLayout(controls);
    chartsLayout->addWidget(legend);
    chartsLayout->addWidget(scroll, 1);

    m_sharding = new ShardingView;
    m_comparison = new ComparisonTable(m_model);
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(chartsPage, tr("Charts"));
    m_tabs->addTab(m_sharding, tr("Sharding"));
    m_tabs->addTab(m_comparison, tr("Compare"));

    auto* central = new QWidget;
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 0);
    layout->setSpacing(4);
    layout->addWidget(m_notice);
    layout->addWidget(m_tabs, 1);
    return central;
}

void MainWindow::createDocks()
{
    m_parameters = new ParameterPanel;
    m_derived = new DerivedPanel;
    auto* derivedBox = new QGroupBox(tr("What the engine will do"));
    auto* derivedLayout = new QVBoxLayout(derivedBox);
    derivedLayout->setContentsMargins(0, 4, 0, 0);
    derivedLayout->addWidget(m_derived);
    auto* setup = new QSplitter(Qt::Vertical);
    setup->setObjectName(QStringLiteral("setupSplitter"));
    setup->addWidget(m_parameters);
    setup->addWidget(derivedBox);
    setup->setStretchFactor(0, 1);
    setup->setChildrenCollapsible(false);

    const auto dock = [this](const QString& title, const char* name, QWidget* content, Qt::DockWidgetArea area) {
        auto* widget = new QDockWidget(title, this);
        widget->setObjectName(QString::fromLatin1(name));
        widget->setWidget(content);
        widget->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetFloatable);
        addDockWidget(area, widget);
        return widget;
    };
    QDockWidget* setupDock = dock(tr("Setup"), "setupDock", setup, Qt::LeftDockWidgetArea);
    setupDock->setMinimumWidth(360);

    m_lessonPanel = new LessonPanel(m_lessons);
    QDockWidget* lessonDock = dock(tr("Lesson"), "lessonDock", m_lessonPanel, Qt::RightDockWidgetArea);
    m_runList = new RunListPanel;
    QDockWidget* runsDock = dock(tr("Runs"), "runsDock", m_runList, Qt::RightDockWidgetArea);
    splitDockWidget(lessonDock, runsDock, Qt::Vertical);
    lessonDock->setMinimumWidth(280);

    m_log = new LogPanel;
    QDockWidget* logDock = dock(tr("Log"), "logDock", m_log, Qt::BottomDockWidgetArea);
    resizeDocks({logDock}, {110}, Qt::Vertical);
    resizeDocks({setupDock, lessonDock}, {400, 350}, Qt::Horizontal);
    resizeDocks({lessonDock, runsDock}, {560, 300}, Qt::Vertical);

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

    connect(m_runList, &RunListPanel::shownChanged, this, &MainWindow::setRunShown);
    connect(m_runList, &RunListPanel::renameRequested, this, &MainWindow::renameRun);
    connect(m_runList, &RunListPanel::deleteRequested, this, &MainWindow::deleteRuns);
    connect(m_runList, &RunListPanel::exportCsvRequested, this, &MainWindow::exportRunCsv);
    connect(m_runList, &RunListPanel::exportPresetRequested, this, &MainWindow::exportRunPreset);
    connect(m_runList, &RunListPanel::loadSettingsRequested, this, &MainWindow::loadRunSettings);
    connect(m_runList, &RunListPanel::openFolderRequested, this,
            [](const RunRecord& run) { QDesktopServices::openUrl(QUrl::fromLocalFile(run.directory)); });
}

void MainWindow::createStatusBar()
{
    m_statusLabel = new QLabel;
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setTextVisible(true);
    m_progress->setMinimumWidth(380);
    statusBar()->addWidget(m_statusLabel, 1);
    statusBar()->addPermanentWidget(m_progress);
}

void MainWindow::connectSequence()
{
    connect(m_session, &LabSession::runStarted, this, &MainWindow::onRunStarted);
    connect(m_session, &LabSession::runUpdated, this,
            [this](const QSharedPointer<RunData>& run) { m_model.notifyDataAppended(run->id()); });
    connect(m_session, &LabSession::runFinished, this, &MainWindow::onRunFinished);
    connect(m_session, &LabSession::sequenceFinished, this, &MainWindow::onSequenceFinished);
    connect(m_session, &LabSession::stderrReceived, m_log, &LogPanel::appendEngineOutput);
    connect(m_session, &LabSession::logMessage, m_log, &LogPanel::appendMessage);
}

// ---------------------------------------------------------------------------------------
// Settings between sessions
// ---------------------------------------------------------------------------------------

void MainWindow::restoreSettings()
{
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1600, 1000);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    m_theme = themeFromName(settings.value(QStringLiteral("view/theme")).toString());
    if (m_theme != ThemeChoice::System)
        applyTheme(m_theme);
    const QJsonObject values = QJsonDocument::fromJson(settings.value(QStringLiteral("parameters/values")).toByteArray()).object();
    m_parameters->setValues(values);
    m_smoothing->setValue(int(settings.value(QStringLiteral("charts/smoothing"), ChartGrid::kDefaultSmoothing).toDouble() * 100 + 0.5));
    m_smoothingValue->setText(QString::number(m_smoothing->value() / 100.0, 'f', 2));
    m_charts->setSmoothing(m_smoothing->value() / 100.0);
    QHash<QString, bool> logChoices;
    const QJsonObject savedLog = QJsonDocument::fromJson(settings.value(QStringLiteral("charts/log")).toByteArray()).object();
    for (auto it = savedLog.constBegin(); it != savedLog.constEnd(); ++it)
        logChoices.insert(it.key(), it.value().toBool());
    m_charts->setLogScaleChoices(logChoices);
    m_openGlAction->setChecked(settings.value(QStringLiteral("charts/opengl"), false).toBool());
    m_keepRunsAction->setChecked(settings.value(QStringLiteral("charts/keepEarlierRuns"), false).toBool());
    m_lessonPanel->selectLesson(settings.value(QStringLiteral("lesson/current")).toString());
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("view/theme"), themeName(m_theme));
    settings.setValue(QStringLiteral("parameters/values"), QJsonDocument(m_parameters->values()).toJson(QJsonDocument::Compact));
    settings.setValue(QStringLiteral("charts/smoothing"), m_smoothing->value() / 100.0);
    QJsonObject logChoices;
    const QHash<QString, bool> choices = m_charts->logScaleChoices();
    for (auto it = choices.constBegin(); it != choices.constEnd(); ++it)
        logChoices.insert(it.key(), it.value());
    settings.setValue(QStringLiteral("charts/log"), QJsonDocument(logChoices).toJson(QJsonDocument::Compact));
    settings.setValue(QStringLiteral("charts/opengl"), m_openGlAction->isChecked());
    settings.setValue(QStringLiteral("charts/keepEarlierRuns"), m_keepRunsAction->isChecked());
    settings.setValue(QStringLiteral("lesson/current"), m_lessonPanel->currentLessonId());
}

void MainWindow::applyLaunchOptions(const LaunchOptions& options)
{
    m_pendingExportDirectory = options.exportDirectory;
    m_pendingExportSize = options.imageSize;
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
        m_parameters->setValues(resolved.runs.first().config);
    if (!options.run)
        return;
    // Start once the window is up, so the first events have somewhere to go.
    QTimer::singleShot(0, this, [this, resolved] {
        if (resolved.lessonId.isEmpty())
            startRun();
        else
            startSequence(resolved.runs, resolved.chartMetrics);
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
    const QJsonObject config = m_parameters->values();
    const QString name = defaultRunName(config);
    startSequence({{name, name, QString(), config}}, {});
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
    startSequence(resolved.runs, resolved.chartMetrics);
}

void MainWindow::startSequence(const QList<RunRequest>& requests, const QStringList& chartMetrics)
{
    m_notice->dismiss();
    if (!m_keepRunsAction->isChecked()) {
        for (const DisplayedRun& run : m_model.runs()) {
            m_runList->setShown(run.data->id(), false);
            m_runList->setRunColor(run.data->id(), QColor());
        }
        m_model.clear();
    }
    m_charts->setFocusCharts(chartsForMetrics(chartMetrics));
    m_tabs->setCurrentIndex(0);
    m_session->start(requests);
    m_statusTimer.start();
    updateActions();
    updateStatus();
}

void MainWindow::stopRun()
{
    m_session->stop();
}

void MainWindow::onRunStarted(int, const QSharedPointer<RunData>& run)
{
    // The row first, so that the colour the model gives the run lands on it.
    m_runList->updateRun(run->record());
    m_runList->setShown(run->id(), true);
    m_model.addRun(run);
    updateStatus();
}

void MainWindow::onRunFinished(int, const QSharedPointer<RunData>& run)
{
    const RunRecord& record = run->record();
    m_runList->updateRun(record);
    m_comparison->refresh();
    m_model.notifyDataAppended(run->id());
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
    m_statusTimer.stop();
    updateActions();
    updateStatus();
    m_charts->redrawAllNow();
    if (!m_pendingExportDirectory.isEmpty()) {
        QString error;
        if (exportEverything(m_pendingExportDirectory, m_pendingExportSize, &error))
            m_log->appendMessage(tr("Exported the charts and CSVs to %1").arg(m_pendingExportDirectory));
        else
            m_notice->showNotice(NoticeBar::Kind::Error, tr("Export failed"), error);
        m_pendingExportDirectory.clear();
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
    updateStatus();
}

void MainWindow::updateActions()
{
    const bool running = isRunning();
    m_runAction->setEnabled(!running && m_parameters->isValid());
    m_stopAction->setEnabled(running);
    m_runLessonAction->setEnabled(!running && m_lessons.find(m_lessonPanel->currentLessonId()));
    m_openPresetAction->setEnabled(!running);
    m_lessonPanel->setRunning(running);
    setWindowTitle(running ? tr("DDP Lab — running") : QStringLiteral("DDP Lab"));
}

void MainWindow::updateStatus()
{
    const QSharedPointer<RunData> run = m_session->currentRun();
    if (!isRunning() || !run) {
        QString text = m_inventory.isKnown()
                           ? tr("Ready · %1 · engine %2, LibTorch %3")
                                 .arg(m_inventory.shortDescription(), m_inventory.engineVersion(), m_inventory.torchVersion())
                           : tr("Ready");
        m_statusLabel->setText(text);
        m_progress->setValue(0);
        m_progress->setFormat(m_model.runs().isEmpty() ? tr("idle") : tr("done"));
        return;
    }
    const QJsonObject config = run->config();
    QStringList parts;
    if (!config.isEmpty()) {
        const QString backend = config.value(wire(key::kBackend)).toString();
        parts.append(tr("%1 backend").arg(backend == QLatin1String("nccl") ? QStringLiteral("NCCL") : QStringLiteral("Gloo")));
        parts.append(tr("%1 ranks on %2")
                         .arg(config.value(wire(key::kWorldSize)).toInt())
                         .arg(config.value(wire(field::kDeviceName)).toString()));
    }
    if (const double throughput = recentThroughput(*run); throughput > 0)
        parts.append(tr("%L1 samples/s").arg(throughput, 0, 'f', 0));
    parts.append(m_inventory.shortDescription());
    m_statusLabel->setText(parts.join(QStringLiteral(" · ")));
    const RunProgress progress = m_session->progress();
    m_progress->setValue(progress.percent);
    m_progress->setFormat(progress.text);
}

QString MainWindow::statusText() const
{
    return m_statusLabel->text();
}

QString MainWindow::progressText() const
{
    return m_progress->format();
}

void MainWindow::showLesson(const QString& lessonId)
{
    m_lessonPanel->selectLesson(lessonId);
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("lessonDock"))) {
        dock->show();
        dock->raise();
    }
}

// ---------------------------------------------------------------------------------------
// Look, help, closing
// ---------------------------------------------------------------------------------------

void MainWindow::setTheme(ThemeChoice choice)
{
    m_theme = choice;
    applyTheme(choice);
}

void MainWindow::showAbout()
{
    const QString engine = m_inventory.isKnown() ? m_inventory.engineVersion() : tr("unknown (the engine did not answer)");
    const QString torch = m_inventory.isKnown() ? m_inventory.torchVersion() : tr("unknown");
    QMessageBox::about(this, tr("About DDP Lab"),
                       tr("<h3>DDP Lab %1</h3>"
                          "<p>A desktop laboratory for data-parallel training: real multi-process DDP runs "
                          "(NCCL between GPUs, Gloo between CPU processes), plotted live.</p>"
                          "<table>"
                          "<tr><td>DDP Lab</td><td>%1</td></tr>"
                          "<tr><td>Qt</td><td>%2 (built with %3)</td></tr>"
                          "<tr><td>Engine</td><td>%4</td></tr>"
                          "<tr><td>LibTorch</td><td>%5</td></tr>"
                          "<tr><td>Devices</td><td>%6</td></tr>"
                          "</table>"
                          "<p>Engine: <code>%7</code><br>Runs: <code>%8</code></p>")
                           .arg(QStringLiteral(DDPLAB_VERSION), QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR), engine, torch,
                                m_inventory.shortDescription(), m_enginePath.toHtmlEscaped(), m_store.root().toHtmlEscaped()));
}

void MainWindow::showShortcuts()
{
    QMessageBox::information(
        this, tr("Keyboard and Mouse"),
        tr("<table cellspacing='4'>"
           "<tr><td><b>Ctrl+R</b>, F5</td><td>Run with the current settings</td></tr>"
           "<tr><td><b>Ctrl+.</b>, Shift+F5</td><td>Stop the run</td></tr>"
           "<tr><td><b>Ctrl+L</b></td><td>Run the selected lesson</td></tr>"
           "<tr><td><b>Ctrl+E</b></td><td>Export every chart (PNG, SVG) and CSV to a folder</td></tr>"
           "<tr><td><b>Ctrl+Shift+E</b></td><td>Export a run's metrics as CSV</td></tr>"
           "<tr><td><b>Ctrl+O</b> / <b>Ctrl+S</b></td><td>Open a preset / save the settings as one</td></tr>"
           "<tr><td><b>Ctrl+0</b></td><td>Reset every chart's view</td></tr>"
           "<tr><td>Drag</td><td>Zoom a chart to a box</td></tr>"
           "<tr><td>Ctrl+wheel, +/−</td><td>Zoom in and out at the pointer</td></tr>"
           "<tr><td>Shift+drag, middle drag, arrows</td><td>Pan</td></tr>"
           "<tr><td>Double-click, Home</td><td>Fit the chart to its data again</td></tr>"
           "<tr><td>Right-click</td><td>Log axis, reset, export</td></tr>"
           "<tr><td>F2 / Delete</td><td>Rename / delete the selected runs</td></tr>"
           "</table>"));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (isRunning()) {
        // What streamed so far is on disk already; the run is marked as cancelled.
        m_log->appendMessage(tr("Closing: stopping the run…"));
        m_session->stopAndWait(kCloseStopTimeoutMs);
    }
    saveSettings();
    event->accept();
}

}  // namespace ddplab::ui
