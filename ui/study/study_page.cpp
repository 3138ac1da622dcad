// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_page.hpp"

#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "client/study/own_model_steps.hpp"
#include "client/study/study_estimate.hpp"
#include "client/study/study_file.hpp"
#include "client/study/study_results.hpp"
#include "client/study/study_runner.hpp"
#include "client/wire.hpp"
#include "export/export_folder.hpp"
#include "export/export_service.hpp"
#include "export/image_export_dialog.hpp"
#include "setup/wheel_guard.hpp"
#include "study/content_wide_scroll.hpp"
#include "study/past_studies_box.hpp"
#include "study/study_editor.hpp"
#include "study/study_results_view.hpp"
#include "theme/message_colors.hpp"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

const QString kFromSetup = QStringLiteral(":setup");
// More lines than this make the chart page unreadable; the first ones are shown and the Log says so.
constexpr int kMostRunsOnCharts = 64;  // a study of more is read in its own charts

}  // namespace

StudyPage::StudyPage(const RunStore& store, LabSession& session, std::function<QJsonObject()> setupSettings, QWidget* parent)
    : QWidget(parent), m_store(store), m_setupSettings(std::move(setupSettings)), m_library(StudyLibrary::load()),
      m_runner(std::make_unique<StudyRunner>(session))
{
    for (const QString& problem : m_library.problems())
        qWarning("%s", qPrintable(problem));

    m_source = new QComboBox;
    m_source->setObjectName(QStringLiteral("studySource"));
    m_source->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_source->setMinimumContentsLength(10);
    guardAgainstStrayWheel(m_source);
    for (const StudySpec& study : m_library.studies())
        m_source->addItem(study.title, study.id);
    m_source->insertSeparator(m_source->count());
    m_source->addItem(tr("The Setup pane's settings, with axes of your own"), kFromSetup);
    auto* openFile = new QPushButton(tr("Open file…"));
    openFile->setToolTip(tr("A study file (docs/studies.md)"));
    auto* sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(openFile);

    m_about = new QLabel;
    m_about->setWordWrap(true);
    m_about->setTextFormat(Qt::RichText);
    m_editor = new StudyEditor;
    m_plan = new QLabel;
    m_plan->setObjectName(QStringLiteral("studyPlan"));
    m_plan->setWordWrap(true);
    // Your own model's runs are estimated from a step the engine times here: the plan's line
    // says so while it does, and again once it has.
    m_ownSteps = new OwnModelSteps(session.enginePath(), this);
    connect(m_ownSteps, &OwnModelSteps::changed, this, &StudyPage::updatePlan);

    m_run = new QPushButton(tr("Run study"));
    m_run->setObjectName(QStringLiteral("runStudy"));
    m_stop = new QPushButton(tr("Stop"));
    m_export = new QPushButton(tr("Export…"));
    m_export->setObjectName(QStringLiteral("exportStudy"));
    m_export->setToolTip(tr("Every chart as PNG and SVG, study.csv (one row per run) and findings.txt"));
    m_showRuns = new QPushButton(tr("Show runs on Charts"));
    m_showRuns->setObjectName(QStringLiteral("showRuns"));
    m_showRuns->setToolTip(tr("The study's runs as lines on the Charts page (the x axis: samples seen)"));
    // Two rows: four buttons on one made the page 390 pixels wide at least, and with Setup and
    // the Lesson pane beside it the window needed more than a 1280-pixel screen once a run ended.
    auto* buttons = new QGridLayout;
    buttons->addWidget(m_run, 0, 0);
    buttons->addWidget(m_stop, 0, 1);
    buttons->addWidget(m_export, 1, 0);
    buttons->addWidget(m_showRuns, 1, 1);
    buttons->setColumnStretch(2, 1);
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progress->setTextVisible(false);
    m_progressLabel = new QLabel;
    m_progressLabel->setObjectName(QStringLiteral("studyProgress"));
    // Wrapped: a long study's title or a refusal on one line kept the page wide enough to
    // squeeze the Lesson pane to a sliver at 1280x720.
    m_progressLabel->setWordWrap(true);
    auto* progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progressLabel, 1);
    progressRow->addWidget(m_progress);

    m_past = new PastStudiesBox(m_store, m_studies);
    auto* builder = new QWidget;
    auto* builderLayout = new QVBoxLayout(builder);
    builderLayout->addLayout(sourceRow);
    builderLayout->addWidget(m_about);
    builderLayout->addWidget(m_editor, 2);
    builderLayout->addWidget(m_past, 1);
    // Scrolled, so a short screen scrolls the builder instead of squeezing it; never narrower
    // than the builder (a fixed least of 260 px cut its chooser and its description's lines).
    auto* scroll = new ContentWideScroll(builder);
    scroll->setObjectName(QStringLiteral("studyBuilderColumn"));
    // The plan, the buttons and the progress stay in sight below it, however far it scrolls.
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(scroll, 1);
    leftLayout->addWidget(m_plan);
    leftLayout->addLayout(buttons);
    leftLayout->addLayout(progressRow);

    m_results = new StudyResultsView;
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(left);
    splitter->addWidget(m_results);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    // Two fifths to the builder from the start, scaled to the room there is: its size hint alone
    // (two rows of buttons) left it too narrow to read the study's description on a large screen.
    splitter->setSizes({400, 600});
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_source, &QComboBox::activated, this, &StudyPage::sourceChosen);
    connect(openFile, &QPushButton::clicked, this, &StudyPage::openStudyFile);
    connect(m_editor, &StudyEditor::changed, this, &StudyPage::updatePlan);
    connect(m_run, &QPushButton::clicked, this, [this] { runStudy(); });
    connect(m_stop, &QPushButton::clicked, this, &StudyPage::stop);
    connect(m_export, &QPushButton::clicked, this, &StudyPage::exportCharts);
    connect(m_showRuns, &QPushButton::clicked, this, &StudyPage::showRunsOnCharts);
    connect(m_past, &PastStudiesBox::showRequested, this, &StudyPage::openPastStudy);
    connect(m_past, &PastStudiesBox::resumeRequested, this, &StudyPage::resumeStudy);
    connect(m_runner.get(), &StudyRunner::runFinished, this, &StudyPage::addResult);
    connect(m_runner.get(), &StudyRunner::runStarted, this, [this] {
        m_progressLabel->setText(m_runner->progressText());
        updateButtons();
    });
    // The runner's log is the session's, which the window's Log already shows: forwarding it
    // too wrote every line twice (issue 28 §6).
    connect(m_runner.get(), &StudyRunner::finished, this, &StudyPage::onRunnerFinished);
    connect(&session.activity(), &LabActivity::changed, this, &StudyPage::updateButtons);

    if (m_source->count() > 0)
        sourceChosen(0);
    refreshPastStudies();
    updateButtons();
}

StudyPage::~StudyPage() = default;

bool StudyPage::isRunning() const
{
    return m_runner->isRunning();
}

void StudyPage::stop()
{
    m_runner->stop();
}

// The lab is busy with something else (a run, a lesson, an advice): a study waits for it.
bool StudyPage::sessionBusy() const
{
    return m_runner->session().activity().isBusy() && !m_runner->isRunning();
}

bool StudyPage::chooseStudy(const QString& nameOrPath, QString* error)
{
    const int index = m_source->findData(nameOrPath);
    if (index >= 0) {
        m_source->setCurrentIndex(index);
        sourceChosen(index);
        return true;
    }
    const StudyReadResult read = resolveStudy(nameOrPath, m_library);
    if (!read.spec) {
        if (error)
            *error = read.error;
        return false;
    }
    showSpec(*read.spec, QFileInfo(nameOrPath).absolutePath());
    showFileInChooser(QFileInfo(nameOrPath).absoluteFilePath(), read.spec->title);
    return true;
}

// A study opened from a file stands in the chooser under its title, so that the page never
// names another study than the one it shows.
void StudyPage::showFileInChooser(const QString& path, const QString& title)
{
    int index = m_source->findData(path);
    if (index < 0) {
        m_source->addItem(tr("%1 (file %2)").arg(title, QFileInfo(path).fileName()), path);
        index = m_source->count() - 1;
    }
    m_source->setCurrentIndex(index);
}

void StudyPage::showSpec(const StudySpec& spec, const QString& folder)
{
    m_editor->setStudy(spec, folder);
    m_about->setText(QStringLiteral("<p>%1</p><p><b>%2</b> %3</p>").arg(spec.summary.toHtmlEscaped(), tr("Look for:"), spec.lookFor.toHtmlEscaped()));
    showChosen(spec);
}

void StudyPage::showChosen(const StudySpec& spec)
{
    if (!spec.id.isEmpty() && m_current && m_current->spec.id == spec.id)
        return;
    for (const StoredStudy& stored : m_studies.list()) {  // newest first
        if (!spec.id.isEmpty() && stored.spec.id == spec.id) {
            showStudy(stored);
            return;
        }
    }
    showUnrun(spec);
}

void StudyPage::showUnrun(const StudySpec& spec)
{
    m_current.reset();
    m_currentResults.clear();
    StoredStudy unrun;
    unrun.spec = spec;
    unrun.points = planStudy(spec).points;
    m_results->setStudy(unrun, {});
    m_progressLabel->setText(spec.title.isEmpty() ? tr("This study has not run here yet")
                                                  : tr("\"%1\" has not run here yet").arg(spec.title));
    m_progress->setValue(0);
    updateButtons();
}

void StudyPage::sourceChosen(int index)
{
    const QString id = m_source->itemData(index).toString();
    if (id == kFromSetup) {
        // A study of one's own starts afresh: the axes, repeats and target of the study shown
        // before were about other settings (a built-in's model files, say) and would only be
        // refused. A start that says what a study is for: the batch, and the rules that follow it.
        m_editor->setStudy(StudySpec(), QString());
        m_editor->setBase(m_setupSettings ? m_setupSettings() : QJsonObject(), tr("the Setup pane's settings"));
        m_editor->addAxis(kEffectiveBatchAxis, QStringLiteral("16 .. 256 x2"));
        m_editor->addAxis(wire(key::kLrRule), QStringLiteral("none, linear, sqrt"));
        m_about->setText(tr("Your own study: the Setup pane's settings are the base; every axis below varies one setting."));
        showUnrun(m_editor->read().spec.value_or(StudySpec()));
        return;
    }
    const StudySpec* spec = m_library.find(id);
    if (!spec) {
        // A file opened before: read again, as it may have changed since.
        const StudyReadResult read = readStudyFile(id);
        if (read.spec)
            showSpec(*read.spec, QFileInfo(id).absolutePath());
        else
            QMessageBox::warning(this, tr("Cannot open the study"), read.error);
        return;
    }
    showSpec(*spec, QString::fromLatin1(StudyLibrary::kResourceFolder));
}

void StudyPage::openStudyFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a study file"), QString(), tr("Study files (*.json)"));
    if (path.isEmpty())
        return;
    const StudyReadResult read = readStudyFile(path);
    if (!read.spec) {
        QMessageBox::warning(this, tr("Cannot open the study"), read.error);
        return;
    }
    showSpec(*read.spec, QFileInfo(path).absolutePath());
    showFileInChooser(QFileInfo(path).absoluteFilePath(), read.spec->title);
}

QString StudyPage::planText() const
{
    return m_plan->text();
}

QString StudyPage::progressText() const
{
    return m_progressLabel->text();
}

MachineSpeed StudyPage::machineSpeed() const
{
    // Measured again after each study: the machine as busy as it is now.
    if (!m_speed)
        m_speed = MachineSpeed::measure(m_store);
    return *m_speed;
}

void StudyPage::updatePlan()
{
    const StudyReadResult read = m_editor->read();
    QString text;
    bool ok = false;
    if (!read.spec) {
        text = read.error;
    } else {
        const StudyPlan plan = planStudy(*read.spec);
        if (!plan.error.isEmpty()) {
            text = plan.error;
        } else {
            ok = true;
            m_ownSteps->measure(plan);
            text = tr("%n run(s) (%1) · %2 on this machine", nullptr, int(plan.points.size()))
                       .arg(plan.shape, durationText(estimatedSeconds(plan, machineSpeed(), m_ownSteps->steps())));
            if (m_ownSteps->isMeasuring())
                text += tr(" (timing a step of your model…)");
            if (plan.points.size() > studyLimits::kConfirmAbove)
                text += tr(" · asks before it starts");
        }
    }
    m_plan->setText(text);
    m_plan->setStyleSheet(ok ? QString() : QStringLiteral("color: %1;").arg(QColor(kRefusalTextRgb).name()));
    m_planOk = ok;
    updateButtons();
}

bool StudyPage::runStudy(bool confirmed)
{
    if (m_runner->session().activity().isBusy())
        return false;
    const StudyReadResult read = m_editor->read();
    if (!read.spec)
        return false;
    const StudyPlan plan = planStudy(*read.spec);
    if (!plan.error.isEmpty())
        return false;
    if (plan.points.size() > studyLimits::kConfirmAbove && !confirmed &&
        QMessageBox::question(this, tr("A large study"),
                              tr("This study makes %1 runs (%2). Run them all?").arg(plan.points.size()).arg(durationText(estimatedSeconds(plan, machineSpeed(), m_ownSteps->steps()))))
            != QMessageBox::Yes)
        return false;
    QString error;
    const std::optional<StoredStudy> study = m_studies.create(*read.spec, plan, &error);
    if (!study) {
        QMessageBox::warning(this, tr("Cannot start the study"), error);
        return false;
    }
    startRunner(*study);
    refreshPastStudies();
    return true;
}

bool StudyPage::resumeStudy(const QString& idOrDirectory)
{
    if (m_runner->session().activity().isBusy())
        return false;
    QString error;
    const std::optional<StoredStudy> study = m_studies.open(idOrDirectory, &error);
    if (!study) {
        QMessageBox::warning(this, tr("Cannot resume the study"), error);
        return false;
    }
    startRunner(*study);
    return true;
}

void StudyPage::startRunner(const StoredStudy& study)
{
    showStudy(study);
    // Its runs' estimates, which the time left is re-timed from as they finish.
    StudyPlan plan;
    plan.points = study.points;
    plan.trainedShare = study.spec.target.stop ? study.spec.target.trainedShare : 0.0;
    m_runner->setEstimates(pointSeconds(plan, machineSpeed(), m_ownSteps->steps()));
    const StudyRunner::StartResult started = m_runner->start(study);
    if (started == StudyRunner::StartResult::AllDone) {
        m_progressLabel->setText(tr("Every run of this study has finished already."));
        return;
    }
    if (started == StudyRunner::StartResult::Refused) {
        m_progressLabel->setText(m_runner->refusal());
        emit logMessage(m_runner->refusal(), true);
        return;
    }
    emit logMessage(tr("Study \"%1\": %2 runs, stored in %3").arg(study.title()).arg(study.points.size()).arg(study.directory), false);
    m_progressLabel->setText(m_runner->progressText());
    m_progress->setValue(m_runner->percent());
    updateButtons();
}

void StudyPage::onRunnerFinished(bool allSucceeded)
{
    m_speed.reset();  // its runs measured the machine again
    m_progressLabel->setText(m_runner->progressText() + endingText(allSucceeded));
    refreshPastStudies();
    updateButtons();  // the session said it stopped while the runner still held it
    emit runsStored();
    emit studyEnded();
}

// How the study's runs ended, after its progress. A sequence ends before its last point only
// when it is stopped (this page's Stop or the toolbar's): then it says so, not "failed".
QString StudyPage::endingText(bool allSucceeded) const
{
    const QList<QSharedPointer<RunData>>& runs = m_runner->session().runs();
    const bool lastCancelled = !runs.isEmpty() && runs.last()->record().status == RunStatus::Cancelled;
    if (m_runner->left() > 0 && (lastCancelled || allSucceeded))
        return tr(" · stopped; Resume runs the other %1").arg(m_runner->left());
    return allSucceeded ? QString() : tr(" · not every run succeeded (see the Log)");
}

void StudyPage::showStudy(const StoredStudy& study)
{
    m_current = study;
    m_past->choose(study.id);
    m_currentResults = collectStudyResults(study, m_store, m_store.listRuns());
    m_results->setStudy(study, m_currentResults);
    // The progress line speaks of the study shown: another study's (one running, or the last
    // one run) would be stale here.
    const bool runningThis = isRunning() && m_runner && m_runner->study().id == study.id;
    if (!runningThis) {
        const int points = int(study.points.size());
        const int done = int(std::min<qsizetype>(m_currentResults.size(), points));
        m_progressLabel->setText(tr("%1 of %2 runs of this study done").arg(done).arg(points));
        m_progress->setValue(points > 0 ? 100 * done / points : 0);
    }
    updateButtons();
}

// A run that just ended joins the results from memory: reading every run back from disk at each
// end would stall the window more as the study grows (bench/ui_study_bench.py measures it).
void StudyPage::addResult(const QSharedPointer<RunData>& run)
{
    m_progressLabel->setText(m_runner->progressText());
    m_progress->setValue(m_runner->percent());
    const int point = run->record().studyPoint;
    if (!m_current || run->record().studyId != m_current->id || point < 0 || point >= m_current->points.size())
        return;
    const StudyRunResult result = resultOf(m_current->points.at(point), *run, m_current->spec);
    const auto same = std::find_if(m_currentResults.begin(), m_currentResults.end(), [&](const StudyRunResult& known) { return known.point == point; });
    if (same != m_currentResults.end())
        *same = result;
    else
        m_currentResults.append(result);
    std::sort(m_currentResults.begin(), m_currentResults.end(),
              [](const StudyRunResult& a, const StudyRunResult& b) { return a.point < b.point; });
    m_results->setResults(m_currentResults);
}

void StudyPage::refreshPastStudies()
{
    m_past->refresh(m_current ? m_current->id : QString());
}

void StudyPage::openPastStudy(const QString& id)
{
    QString error;
    const std::optional<StoredStudy> study = m_studies.open(id, &error);
    if (!study) {
        QMessageBox::warning(this, tr("Cannot open the study"), error);
        return;
    }
    showStudy(*study);
    m_editor->setStudy(study->spec, study->directory);
    // The chooser names the study shown: a built-in one's entry where it is one.
    if (const int index = m_source->findData(study->spec.id); index >= 0)
        m_source->setCurrentIndex(index);
    m_about->setText(QStringLiteral("<p>%1</p>").arg(study->spec.summary.toHtmlEscaped()));
}

// Into a folder of its own, named after the study, where chart exports go too; a folder that
// does not exist yet is made.
void StudyPage::exportCharts()
{
    if (!m_current)
        return;
    const QString suggested = QDir(lastExportFolder()).filePath(ExportService::fileNameFor(m_current->title()));
    ImageExportDialog dialog(ImageExportDialog::Target::Folder, suggested, ExportService::kDefaultImageSize, this);
    dialog.setWindowTitle(tr("Export the Study to a Folder"));
    if (dialog.exec() != QDialog::Accepted || dialog.path().isEmpty())
        return;
    rememberExportFolder(QFileInfo(dialog.path()).absolutePath());
    QString error;
    if (!exportTo(dialog.path(), dialog.format(), &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

bool StudyPage::exportTo(const QString& directory, ImageFormat format, QString* error)
{
    if (!m_current) {
        *error = tr("No study is shown");
        return false;
    }
    const QStringList written = exportStudy(*m_current, m_currentResults, m_results->charts(), directory, format, error);
    if (!error->isEmpty())
        return false;
    emit logMessage(tr("Wrote %1 files of study \"%2\" to %3").arg(written.size()).arg(m_current->title(), directory), false);
    return true;
}

void StudyPage::showRunsOnCharts()
{
    if (!m_current)
        return;
    QList<RunRecord> runs = StudyStore::latestRuns(*m_current, m_store.listRuns()).values();
    std::sort(runs.begin(), runs.end(), [](const RunRecord& a, const RunRecord& b) { return a.studyPoint < b.studyPoint; });
    if (runs.size() > kMostRunsOnCharts) {
        emit logMessage(tr("Showing the first %1 of the study's %2 runs on the Charts page; tick others in the Runs list")
                            .arg(kMostRunsOnCharts)
                            .arg(runs.size()),
                        false);
        runs = runs.mid(0, kMostRunsOnCharts);
    }
    emit showRunsRequested(runs);
}

void StudyPage::updateButtons()
{
    const bool running = isRunning();
    const bool busy = sessionBusy();
    m_run->setEnabled(!running && !busy && m_planOk);
    m_run->setToolTip(busy ? tr("The window is busy (%1); a study starts when it ends").arg(m_runner->session().activity().busyWords()) : QString());
    m_stop->setEnabled(running);
    m_past->setSessionBusy(running || busy);
    m_export->setEnabled(m_current.has_value());
    m_showRuns->setEnabled(m_current.has_value());
    m_source->setEnabled(!running);
    m_editor->setEnabled(!running);
    m_progress->setVisible(running);
}

}  // namespace ddplab::ui
