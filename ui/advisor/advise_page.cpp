// SPDX-License-Identifier: GPL-3.0-or-later
#include "advisor/advise_page.hpp"

#include "plots/advice_files.hpp"

#include "advisor/advice_card.hpp"
#include "plots/advice_charts.hpp"
#include "advisor/advise_inputs.hpp"
#include "study/content_wide_scroll.hpp"
#include "client/advisor/advice_estimate.hpp"
#include "client/advisor/advice_job.hpp"
#include "client/advisor/advice_progress.hpp"
#include "client/io/save_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/script/pytorch_script.hpp"
#include "client/session/lab_session.hpp"
#include "client/study/study_estimate.hpp"
#include "export/export_folder.hpp"
#include "plots/image_writer.hpp"
#include "study/study_chart_view.hpp"
#include "theme/message_colors.hpp"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QListWidget>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>

#include <utility>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace ddplab::ui {
namespace {

constexpr int kChartHeight = 260;          // each evidence chart, enough for its axes and legend
constexpr int kTwoColumnsWidth = 860;      // results this wide put the charts two a row
constexpr int kTimeLeftRefreshMs = 1000;   // the time left counts down between runs too
constexpr int kPastAdviceHeight = 150;     // about four entries of two lines; more scroll
constexpr int kPastAdviceLeast = 80;       // two entries, even on a short screen

QString timeText(double seconds)
{
    if (seconds < 0)
        return QObject::tr("time left: known once the base run has ended");
    const qint64 whole = qRound64(seconds);
    return whole >= 90 ? QObject::tr("about %1 min left").arg((whole + 30) / 60) : QObject::tr("about %1 s left").arg(whole);
}

// A stopped advice's resumption, as `ddplab --advise --resume` says it: its time (-1 when its
// progress file cannot be read: resuming says why), and what its budget leaves (the most it may take).
std::pair<double, double> resumedSeconds(const StoredAdvice& stopped, const MachineSpeed& speed)
{
    QString unread;
    const std::optional<QJsonObject> progress = readProgress(stopped.progressFile(), &unread);
    const std::optional<AdviceRequest> request = progress ? requestOfProgress(*progress, &unread) : std::nullopt;
    if (!request)
        return {-1.0, 0.0};
    return {expectedResumedAdviceSeconds(*request, *progress, speed), resumedBudgetSeconds(*request, *progress)};
}

QString sentence(QString text)
{
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    if (!text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

}  // namespace

AdvisePage::AdvisePage(const RunStore& store, LabSession& session, std::function<ddplab::Config()> setupConfig, QWidget* parent)
    : QWidget(parent), m_store(store), m_session(session), m_setupConfig(std::move(setupConfig)),
      m_job(std::make_unique<AdviceJob>(session, m_adviceStore)), m_speed(std::make_unique<MachineSpeed>())
{
    m_inputs = new AdviseInputs;
    m_start = new QPushButton(tr("Start"));
    m_start->setObjectName(QStringLiteral("startAdvice"));
    m_start->setToolTip(tr("Measure Setup's model on the GPUs to plan for, within the time budget"));
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName(QStringLiteral("stopAdvice"));
    auto* buttons = new QHBoxLayout;
    m_resume = new QPushButton(tr("Resume"));
    m_resume->setObjectName(QStringLiteral("resumeAdvice"));
    m_resume->setToolTip(tr("Go on with the stopped advice chosen under Past advice: the runs it finished are taken, not run again"));
    // Start on a line of its own: its text says how long ("Start (about 21 s, up to 1 min)"), and
    // beside Stop and Resume it made the column so wide that at 1280 x 720 the card beside it
    // wrapped a word a line.
    buttons->addWidget(m_stop);
    buttons->addWidget(m_resume);
    buttons->addStretch(1);
    auto* startLine = new QHBoxLayout;
    startLine->addWidget(m_start);
    startLine->addStretch(1);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("adviseStatus"));
    m_status->setWordWrap(true);
    m_status->hide();
    m_progress = new QProgressBar;
    m_progress->setRange(0, 100);
    m_progressLabel = new QLabel(tr("Not started."));
    m_progressLabel->setObjectName(QStringLiteral("adviseProgress"));
    m_progressLabel->setWordWrap(true);
    m_log = new QPlainTextEdit;
    m_log->setObjectName(QStringLiteral("adviseLog"));
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_log->setPlaceholderText(tr("What the advisor does, a line a phase"));

    m_past = new QListWidget;
    m_past->setObjectName(QStringLiteral("pastAdvice"));
    m_past->setMaximumHeight(kPastAdviceHeight);
    m_past->setMinimumHeight(kPastAdviceLeast);
    m_past->setWordWrap(true);
    m_past->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_past->setToolTip(tr("Every finished advice, newest first: choose one to reopen it"));
    auto* pastTitle = new QLabel(tr("Past advice"));
    QFont bold = pastTitle->font();
    bold.setBold(true);
    pastTitle->setFont(bold);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_inputs);
    leftLayout->addLayout(startLine);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_status);
    leftLayout->addWidget(m_progress);
    leftLayout->addWidget(m_progressLabel);
    leftLayout->addWidget(m_log, 1);
    leftLayout->addWidget(pastTitle);
    leftLayout->addWidget(m_past);
    // Scrolled, so a short screen or presentation mode's large fonts scroll instead of squeeze;
    // never narrower than its form and buttons need, as their text grows too.
    auto* leftScroll = new ContentWideScroll(left);
    leftScroll->setObjectName(QStringLiteral("adviseInputsColumn"));

    m_card = new AdviceCard;
    m_use = new QPushButton(tr("Use these settings"));
    m_use->setObjectName(QStringLiteral("useAdvice"));
    m_use->setToolTip(tr("Setup takes the recommendation: GPUs, batch per GPU, LR (the rule set to none), a constant schedule"));
    m_copy = new QPushButton(tr("Copy as PyTorch"));
    m_copy->setObjectName(QStringLiteral("copyAdvice"));
    m_copy->setToolTip(tr("A torchrun script at the recommended settings, on the clipboard (docs/pytorch-script.md)"));
    m_save = new QPushButton(tr("Save advice…"));
    m_save->setObjectName(QStringLiteral("saveAdvice"));
    m_save->setToolTip(tr("advice.json, advice.md and the evidence charts as PNG and SVG, into a folder"));
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_use);
    actions->addWidget(m_copy);
    actions->addWidget(m_save);
    actions->addStretch(1);
    m_chartBox = new QWidget;
    m_chartGrid = new QGridLayout(m_chartBox);
    m_chartGrid->setContentsMargins(0, 0, 0, 0);
    auto* results = new QWidget;
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->addWidget(m_card);
    resultsLayout->addLayout(actions);
    resultsLayout->addWidget(m_chartBox);
    resultsLayout->addStretch(1);
    m_resultsScroll = new QScrollArea;
    m_resultsScroll->setWidget(results);
    m_resultsScroll->setWidgetResizable(true);
    m_resultsScroll->setFrameShape(QFrame::NoFrame);
    m_resultsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(leftScroll);
    splitter->addWidget(m_resultsScroll);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    auto* ticker = new QTimer(this);
    ticker->setInterval(kTimeLeftRefreshMs);
    connect(ticker, &QTimer::timeout, this, [this] {
        if (isRunning())
            onProgress();
    });
    ticker->start();
    // The estimate follows what is set up here (Setup's settings are read again when shown).
    connect(m_inputs->gpus(), &QSpinBox::valueChanged, this, &AdvisePage::updateEstimate);
    connect(m_inputs->maxBatchPerGpu(), &QSpinBox::valueChanged, this, &AdvisePage::updateEstimate);
    connect(m_inputs->budgetMinutes(), &QDoubleSpinBox::valueChanged, this, &AdvisePage::updateEstimate);
    connect(m_start, &QPushButton::clicked, this, [this] { start(); });
    connect(m_stop, &QPushButton::clicked, this, &AdvisePage::stop);
    connect(m_use, &QPushButton::clicked, this, [this] {
        if (m_hasAdvice)
            emit useSettingsRequested(m_advice.recommended);
    });
    connect(m_copy, &QPushButton::clicked, this, &AdvisePage::copySnippet);
    connect(m_save, &QPushButton::clicked, this, &AdvisePage::saveInteractively);
    connect(m_job.get(), &AdviceJob::progressed, this, [this] {
        onProgress();
        emit runsStored();
    });
    // Drawn once the next phase has begun (the job starts it right after saying this one ended),
    // so the card says what is measured now.
    connect(m_job.get(), &AdviceJob::phaseEnded, this, [this] { QTimer::singleShot(0, this, &AdvisePage::onPhaseEnded); });
    connect(m_job.get(), &AdviceJob::logMessage, this, [this](const QString& text, bool isWarning) {
        m_log->appendPlainText(text);
        emit logMessage(text, isWarning);
    });
    connect(m_job.get(), &AdviceJob::finished, this, &AdvisePage::onFinished);
    connect(&session.activity(), &LabActivity::changed, this, &AdvisePage::updateButtons);
    connect(m_past, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { openPastAdvice(m_past->row(item)); });
    connect(m_resume, &QPushButton::clicked, this, [this] { resumePastAdvice(m_stoppedRow); });
    connect(m_past, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && !isRunning())
            openPastAdvice(row);
    });
    refreshPastAdvice();
    updateButtons();
}

AdvisePage::~AdvisePage() = default;

bool AdvisePage::isRunning() const
{
    return m_job->isRunning();
}

void AdvisePage::say(const QString& text, bool problem)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
    QPalette palette = m_status->palette();
    palette.setColor(QPalette::WindowText, problem ? problemTextColor(this->palette()) : this->palette().color(QPalette::WindowText));
    m_status->setPalette(palette);
}

QString AdvisePage::statusText() const
{
    return m_status->text();
}

QString AdvisePage::progressText() const
{
    return m_progressLabel->text();
}

bool AdvisePage::start()
{
    if (isRunning())
        return false;
    if (m_session.activity().isBusy()) {
        say(tr("Something else is running (%1): start the advice when it has ended, or stop it first.").arg(m_session.activity().busyWords()), true);
        return false;
    }
    refreshInputs();
    const double estimate = m_estimate;
    m_log->clear();
    // The job keeps the advice in its folder of the store from the start: a stop (or a closed
    // window) leaves an advice that can be resumed.
    if (!m_job->start(m_inputs->request())) {
        say(sentence(m_job->problem()), true);
        return false;
    }
    m_estimate = estimate;
    say(QString(), false);
    clearCharts();
    m_hasAdvice = false;
    onPhaseEnded();
    onProgress();
    updateButtons();
    return true;
}

bool AdvisePage::resumePastAdvice(int row)
{
    if (isRunning() || row < 0 || row >= m_stored.size() || !m_stored[row].stopped)
        return false;
    if (m_session.activity().isBusy()) {
        say(tr("Something else is running (%1): resume the advice when it has ended, or stop it first.").arg(m_session.activity().busyWords()), true);
        return false;
    }
    const StoredAdvice stored = m_stored[row];
    const double estimate = resumedSeconds(stored, *m_speed).first;
    m_log->clear();
    if (!m_job->resume(stored.directory)) {
        say(sentence(m_job->problem()), true);
        return false;
    }
    m_stoppedRow = -1;
    m_estimate = estimate;
    clearCharts();
    m_hasAdvice = false;
    onPhaseEnded();
    say(tr("Resumed the advice stopped after %1 runs: they are taken from the store, the rest run now (%2).")
            .arg(stored.runsEnded)
            .arg(estimate >= 0 ? durationText(estimate) : tr("how long is known once its base run has ended")),
        false);
    onProgress();
    updateButtons();
    return true;
}

void AdvisePage::stop()
{
    m_job->stop();
}

void AdvisePage::onProgress()
{
    m_progress->setValue(m_job->percent());
    const double left = m_job->secondsLeft();
    const QString most = timeText(m_job->budgetSecondsLeft()).remove(tr(" left")).remove(tr("about "));
    const QString time = left >= 0       ? timeText(left)
                         : m_estimate >= 0 ? tr("%1 as planned, measured once the base run has ended (at most %2)").arg(durationText(m_estimate), most)
                                           : tr("time left: known once the base run has ended (at most %1)").arg(most);
    m_progressLabel->setText(isRunning() ? tr("%1; %2.").arg(sentence(m_job->progressText()).chopped(1), time) : sentence(m_job->progressText()));
}

void AdvisePage::onPhaseEnded()
{
    if (!isRunning())
        return;
    // The card fills in as phases end, and the charts show what has been measured so far.
    const Advice& soFar = m_job->advice();
    m_card->showProgress(soFar, m_job->progressText());
    showCharts(soFar.batchVerdicts.isEmpty() ? QList<PlotSpec>{} : adviceCharts(soFar, {}));
}

void AdvisePage::onFinished(bool succeeded)
{
    const QString id = m_job->folderId();
    emit runsStored();
    if (succeeded) {
        m_progress->setValue(100);
        m_progressLabel->setText(tr("Done in %1 s.").arg(qRound64(m_job->advice().tookSeconds)));
        showAdvice(m_job->advice());
        if (!m_job->storeProblem().isEmpty())
            say(tr("The advice could not be stored for later: %1.").arg(m_job->storeProblem()), true);
        const QSignalBlocker blocker(m_past);  // listing it must not reopen it
        refreshPastAdvice();
    } else {
        m_progressLabel->setText(tr("Stopped."));
        const bool kept = !id.isEmpty() && m_adviceStore.open(id).stopped;
        say(tr("No advice: %1%2")
                .arg(sentence(m_job->problem().isEmpty() ? tr("stopped before it was complete") : m_job->problem()),
                     kept ? tr(" It is kept under Past advice: choose it and Resume to go on, taking the runs it finished.") : QString()),
            true);
        const QSignalBlocker blocker(m_past);
        refreshPastAdvice();
    }
    *m_speed = MachineSpeed::measure(m_store);  // its runs measured this machine as busy as it is now
    updateButtons();
    emit adviceEnded(succeeded);
}

void AdvisePage::updateButtons()
{
    const bool running = isRunning();
    const bool busy = m_session.activity().isBusy() && !running;
    m_start->setEnabled(!running && !busy);
    m_start->setToolTip(busy ? tr("Something else is running: the advice starts when it has ended")
                             : tr("Measure Setup's model on the GPUs to plan for, within the time budget"));
    m_stop->setEnabled(running);
    m_resume->setEnabled(!running && !busy && m_stoppedRow >= 0);
    if (!running)
        updateEstimate();
    m_inputs->setEnabled(!running);
    for (QPushButton* button : {m_use, m_copy, m_save})
        button->setEnabled(m_hasAdvice && !running);
}

QList<QPointF> AdvisePage::storedRangeCurve(const Advice& advice) const
{
    return storedRangeTestCurve(advice, m_store);
}

void AdvisePage::showAdvice(const Advice& advice)
{
    m_advice = advice;
    m_hasAdvice = true;
    m_card->showAdvice(advice);
    showCharts(adviceCharts(advice, storedRangeCurve(advice)));
    updateButtons();
}

void AdvisePage::refreshPastAdvice()
{
    const QSignalBlocker blocker(m_past);
    m_stored = m_adviceStore.list();
    m_stoppedRow = -1;
    m_past->clear();
    for (const StoredAdvice& stored : m_stored) {
        auto* item = new QListWidgetItem(tr("%1\n%2").arg(stored.title(), QLocale().toString(stored.created, QLocale::ShortFormat)));
        const bool readable = stored.advice || stored.stopped || stored.running;  // running: another advisor's, now
        item->setToolTip(readable ? QDir::toNativeSeparators(stored.directory)
                                  : tr("%1: %2").arg(QDir::toNativeSeparators(stored.directory), stored.problem));
        if (!readable)
            item->setForeground(problemTextColor(palette()));
        m_past->addItem(item);
    }
    if (m_stored.isEmpty()) {
        auto* none = new QListWidgetItem(tr("None yet: a finished advice is kept here."));
        none->setFlags(Qt::NoItemFlags);
        m_past->addItem(none);
    }
}

bool AdvisePage::openPastAdvice(int row)
{
    if (row < 0 || row >= m_stored.size() || isRunning())
        return false;
    const StoredAdvice stored = m_adviceStore.open(m_stored[row].directory);  // read again: it may have changed
    m_stoppedRow = stored.stopped ? row : -1;
    if (stored.stopped) {
        *m_speed = MachineSpeed::measure(m_store);  // Resume says how long, at the speed its runs measured
        m_hasAdvice = false;
        m_advice = Advice();
        m_card->showMessage(tr("This advice for %1 GPUs was stopped after %2 runs. Resume goes on from there: the runs it finished are taken "
                               "from the run store, not run again.")
                                .arg(stored.gpus)
                                .arg(stored.runsEnded));
        clearCharts();
        say(QString(), false);
        updateButtons();
        return false;
    }
    if (!stored.advice) {
        m_hasAdvice = false;
        m_advice = Advice();
        m_card->showMessage(tr("This advice cannot be read: %1. Its folder: %2").arg(stored.problem, QDir::toNativeSeparators(stored.directory)));
        clearCharts();
        say(tr("The stored advice of %1 is damaged: %2.").arg(QLocale().toString(stored.created, QLocale::ShortFormat), stored.problem), true);
        updateButtons();
        return false;
    }
    showAdvice(*stored.advice);
    say(tr("Reopened the advice of %1 (%2).").arg(QLocale().toString(stored.created, QLocale::ShortFormat), QDir::toNativeSeparators(stored.directory)),
        false);
    return true;
}

void AdvisePage::clearCharts()
{
    qDeleteAll(m_chartViews);
    m_chartViews.clear();
    m_charts.clear();
    m_chartColumns = 0;
}

// The charts of an advice (so far, or finished) in place of those shown: one view each.
void AdvisePage::showCharts(const QList<PlotSpec>& charts)
{
    clearCharts();
    m_charts = charts;
    for (const PlotSpec& spec : m_charts) {
        auto* view = new StudyChartView;
        view->setMinimumHeight(kChartHeight);
        view->show([spec](QPainter& painter, const QRect& area, const QPalette& palette) { paintPlot(painter, area, spec, 1.0, &palette); },
                   spec.subtitle);
        m_chartViews.append(view);
    }
    layOutCharts();
}

void AdvisePage::layOutCharts()
{
    const int columns = m_resultsScroll->viewport()->width() >= kTwoColumnsWidth ? 2 : 1;
    if (columns == m_chartColumns)
        return;
    m_chartColumns = columns;
    for (qsizetype i = 0; i < m_chartViews.size(); ++i)
        m_chartGrid->addWidget(m_chartViews[i], int(i) / columns, int(i) % columns);
}

void AdvisePage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    layOutCharts();
}

void AdvisePage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!isRunning()) {
        *m_speed = MachineSpeed::measure(m_store);
        refreshInputs();
    }
}

void AdvisePage::setMemorySources(std::function<DeviceInventory()> runOn, std::function<const ModelInspection*()> inspection)
{
    m_runOn = std::move(runOn);
    m_inspection = std::move(inspection);
}

void AdvisePage::refreshInputs()
{
    m_inputs->setMachine(m_runOn ? m_runOn() : DeviceInventory(), m_inspection ? m_inspection() : nullptr);
    m_inputs->setBase(m_setupConfig());
    updateEstimate();
}

double AdvisePage::estimatedSeconds() const
{
    return isRunning() ? -1.0 : m_estimate;
}

void AdvisePage::updateEstimate()
{
    if (isRunning())
        return;
    // As `ddplab --advise` says it on its first line: the plan at this machine's measured speed, and
    // the budget its rounds of more orders and seeds may fill.
    const AdviceRequest request = m_inputs->request();
    m_estimate = adviceRequestProblem(request).isEmpty() ? expectedAdviceSeconds(request, *m_speed) : -1.0;
    m_start->setText(m_estimate >= 0 ? tr("Start (%1)").arg(adviceDurationText(m_estimate, request.budgetSeconds)) : tr("Start"));
    const auto [resumed, mayTake] = m_stoppedRow >= 0 && m_stoppedRow < m_stored.size() ? resumedSeconds(m_stored[m_stoppedRow], *m_speed)
                                                                                        : std::pair<double, double>{-1.0, 0.0};
    m_resume->setText(resumed >= 0 ? tr("Resume (%1)").arg(adviceDurationText(resumed, mayTake)) : tr("Resume"));
}

void AdvisePage::copySnippet()
{
    if (!m_hasAdvice)
        return;
    QApplication::clipboard()->setText(m_advice.snippet);
    say(tr("The PyTorch script is on the clipboard: save it as train_ddp.py and start it with %1.")
            .arg(torchrunCommand(m_advice.gpus, QStringLiteral("train_ddp.py"))),
        false);
}

bool AdvisePage::saveTo(const QString& folder, QString* error) const
{
    if (!m_hasAdvice) {
        *error = tr("There is no advice to save.");
        return false;
    }
    return !writeAdviceFiles(folder, m_advice, m_store, error).isEmpty();
}

void AdvisePage::saveInteractively()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Save the Advice into a Folder"), lastExportFolder());
    if (folder.isEmpty())
        return;
    rememberExportFolder(folder);
    QString error;
    if (!saveTo(folder, &error)) {
        QMessageBox::warning(this, tr("Saving the advice failed"), error);
        return;
    }
    say(tr("Saved advice.json, advice.md and %1 charts to %2.").arg(m_charts.size()).arg(QDir::toNativeSeparators(folder)), false);
    emit logMessage(tr("Advice saved to %1").arg(folder), false);
}

}  // namespace ddplab::ui
