// SPDX-License-Identifier: GPL-3.0-or-later
#include "lab_session.hpp"

#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"
#include "client/wire.hpp"
#include "core/protocol_names.hpp"

#include <QJsonDocument>
#include <QTimer>

#include <utility>

namespace ddplab::ui {
namespace {

// A remote engine asked to stop has this long to end its run before the connection is cut.
constexpr int kRemoteStopPatienceMs = 10000;
// An idle engine whose input has ended exits at once; one still there after this is ended.
constexpr int kLetGoneEngineMs = 5000;
// Enough of the engine's (or ssh's) stderr to say why it failed.
constexpr qsizetype kStderrKeptChars = 4096;
// A stderr line longer than this (a model printing a tensor) is shown as its first bytes.
constexpr size_t kStderrLineBytes = 64 * 1024;
constexpr size_t kStderrHeadBytes = 4096;

QString quoted(const QStringList& arguments)
{
    QStringList parts;
    for (const QString& argument : arguments)
        parts.append(argument.contains(QLatin1Char(' ')) ? QLatin1Char('"') + argument + QLatin1Char('"') : argument);
    return parts.join(QLatin1Char(' '));
}

}  // namespace

LabSession::LabSession(const RunStore& store, QString enginePath, QObject* parent)
    : QObject(parent)
    , m_store(store)
    , m_enginePath(std::move(enginePath))
    , m_stderrLines(kStderrLineBytes, kStderrHeadBytes)
{
    connect(&m_engine, &EngineProcess::eventsReceived, this, &LabSession::onEvents);
    connect(&m_engine, &EngineProcess::stderrReceived, this, &LabSession::onStderr);
    connect(&m_engine, &EngineProcess::outputWarning, this, [this](const QString& warning) { emit logMessage(warning, true); });
    connect(&m_engine, &EngineProcess::finished, this, &LabSession::onEngineFinished);
    m_helloTimer.setSingleShot(true);
    connect(&m_helloTimer, &QTimer::timeout, this, &LabSession::onNoHello);
    connect(&m_engine, &EngineProcess::started, this, [this] {
        if (!m_current)
            return;
        m_current->record().enginePid = m_engine.processId();
        QString error;
        if (!m_store.saveMeta(m_current->record(), &error))
            emit logMessage(error, true);
    });
}

void LabSession::start(const QList<RunRequest>& requests)
{
    Q_ASSERT(!m_running);
    // A kept engine that went a moment ago (its connection dropped between an advice's phases)
    // is noticed before the sequence is asked of it: else its exit, delivered later, ended the
    // sequence's first run as "killed by a signal".
    if (m_engineKept)
        m_engine.noticeExit();
    m_requests = requests;
    m_runs.clear();
    m_index = -1;
    m_stopRequested = false;
    m_firstFailureCode = 0;
    m_engineStderr.clear();
    m_engineStartMs = 0;
    m_onKeptEngine = std::exchange(m_engineKept, false) && m_engine.isRunning();
    if (!m_onKeptEngine) {
        // An engine let go a moment ago (its input ended when the advice before let the lab go)
        // may still be on its way out: it is gone before the next one starts.
        m_engine.stopAndWait(kLetGoneEngineMs);
        launchEngine();
    }
    m_running = true;
    m_claimedActivity = m_activity.claim(Busy::Runs, nullptr);  // else a study or an advice holds it
    emit runningChanged(true);
    startNext();
}

void LabSession::launchEngine()
{
    m_sawEngineHello = false;
    m_protocolProblem.clear();
    m_stderrLines.clear();
    const EngineCommand command = engineCommand(m_target, m_enginePath, runsArguments(m_target));
    m_engine.startWithInput(command.program, command.arguments);
    m_sinceEngineStart.start();
    m_helloTimer.start(m_helloPatienceMs);
}

bool LabSession::claim(Busy what, QString* refusal)
{
    return m_activity.claim(what, refusal);
}

void LabSession::release(Busy what)
{
    if (m_activity.busy() != what)
        return;
    m_claimedActivity = m_running;  // a run still going holds the lab until it ends
    m_activity.handOver(what, m_running ? Busy::Runs : Busy::Idle);
    if (!m_running)
        letKeptEngineGo();
}

void LabSession::setTarget(const EngineTarget& target)
{
    if (!(target == m_target))
        letKeptEngineGo();
    m_target = target;
}

bool LabSession::keepsEngine() const
{
    const Busy holder = m_activity.busy();
    return (holder == Busy::Advice || holder == Busy::Study) && !m_stopRequested && m_protocolProblem.isEmpty();
}

// The kept engine is told its input has ended: it exits, as after any sequence.
void LabSession::letKeptEngineGo()
{
    if (std::exchange(m_engineKept, false))
        m_engine.closeInput();
}

void LabSession::stop()
{
    if (!m_running)
        return;
    m_stopRequested = true;
    if (!m_engine.isRunning())
        return;
    if (m_target.isRemote()) {
        // A signal to the local ssh would not reach the remote engine: ask it on its stdin,
        // then end the input (which stops it too). ssh is ended only if that goes unanswered.
        emit logMessage(QStringLiteral("Stopping the run on %1…").arg(m_target.describe()), false);
        m_engine.writeInput(QJsonDocument(QJsonObject{{wire(protocol::request::kStop), true}}).toJson(QJsonDocument::Compact) + '\n');
        m_engine.closeInput();
        QTimer::singleShot(kRemoteStopPatienceMs, this, [this] {
            if (m_engine.isRunning())
                m_engine.stop();
        });
        return;
    }
    emit logMessage(QStringLiteral("Stopping the run (SIGTERM to the engine; it stops its workers)…"), false);
    m_engine.stop();
}

void LabSession::stopAndWait(int timeoutMs)
{
    m_engineKept = false;
    m_stopRequested = true;
    m_engine.stopAndWait(timeoutMs);
}

qint64 LabSession::msSinceFirstStep() const
{
    return m_sinceFirstStep.isValid() ? m_sinceFirstStep.elapsed() : -1;
}

RunProgress LabSession::progress() const
{
    if (!m_current)
        return {};
    RunProgress progress = describeProgress(*m_current, msSinceFirstStep());
    if (m_requests.size() > 1)
        progress.text = QStringLiteral("run %1 of %2 · %3").arg(m_index + 1).arg(m_requests.size()).arg(progress.text);
    return progress;
}

void LabSession::startNext()
{
    ++m_index;
    m_current.reset();
    if (m_stopRequested || m_index >= m_requests.size() || !m_engine.isRunning()) {
        endSequence();
        return;
    }
    const RunRequest& request = m_requests.at(m_index);
    RunRecord draft;
    draft.name = request.name;
    draft.label = request.label;
    draft.lessonId = request.lessonId;
    draft.studyId = request.studyId;
    draft.studyPoint = request.studyPoint;
    draft.started = QDateTime::currentDateTime();
    draft.host = m_target.isRemote() ? m_target.text() : QString();
    draft.enginePid = m_engine.processId();
    QString error;
    // A branch (a lesson's resume_from_run) starts from the last checkpoint its run wrote; the
    // checkpoints of a lesson's run go into the run's own folder.
    ddplab::Config typed = request.config;
    const QString checkpoint = request.resumeFromRun >= 0 ? lastCheckpointOf(request.resumeFromRun) : QString();
    if (request.resumeFromRun >= 0 && checkpoint.isEmpty())
        error = QStringLiteral("it resumes from a checkpoint of run %1, which wrote none").arg(request.resumeFromRun + 1);
    typed.resumeFrom = checkpoint.isEmpty() ? typed.resumeFrom : checkpoint.toStdString();
    // The settings become JSON once, in the store (its config.json); that text is what the engine
    // reads (a remote one on its stdin) and what RunData holds until the engine's `config` event.
    QByteArray settings;
    const std::optional<RunRecord> created = !error.isEmpty()                ? std::nullopt
                                             : request.checkpointsInRunFolder ? m_store.createRunWithCheckpoints(draft, typed, &error, &settings)
                                                                              : m_store.createRun(draft, typed, &error, &settings);
    const QJsonObject config = QJsonDocument::fromJson(settings).object();
    if (!created && draft.name.isEmpty())
        draft.name = QStringLiteral("run %1").arg(m_index + 1);  // a failed start has no settings to be named by
    m_current = QSharedPointer<RunData>::create(created.value_or(draft));
    m_current->setRequestedConfig(config);
    m_runs.append(m_current);
    m_sinceFirstStep.invalidate();
    emit runStarted(m_index, m_current);
    if (!created) {
        // The run's folder could not be written (a full disk, a read-only data folder): the
        // engine's code for an output it could not write, so the advice and a headless run
        // stop saying so instead of counting it as a run that failed to train.
        const bool unwritable = request.resumeFromRun < 0 || !checkpoint.isEmpty();
        finishCurrent({RunStatus::Failed, unwritable ? int(ddplab::kExitOutputError) : -1, error});
        return;
    }
    m_stderrLog.setFileName(RunStore::stderrPath(*created));
    if (!m_stderrLog.open(QIODevice::WriteOnly | QIODevice::Append))
        emit logMessage(QStringLiteral("Cannot write %1: %2").arg(m_stderrLog.fileName(), m_stderrLog.errorString()), true);
    QJsonObject ask;
    if (m_target.isRemote()) {
        // The remote machine sees the config on stdin only; its events are kept here.
        ask.insert(wire(protocol::request::kConfig), config);
        m_eventsLog.setFileName(RunStore::eventsPath(*created));
        if (!m_eventsLog.open(QIODevice::WriteOnly | QIODevice::Append))
            emit logMessage(QStringLiteral("Cannot write %1: %2").arg(m_eventsLog.fileName(), m_eventsLog.errorString()), true);
        emit logMessage(QStringLiteral("Run %1 of %2, \"%3\": on %4 (%5 runs), events kept in %6")
                            .arg(m_index + 1)
                            .arg(m_requests.size())
                            .arg(created->legendLabel(), m_target.describe(), m_target.remoteEngine, RunStore::eventsPath(*created)),
                        false);
    } else {
        ask.insert(wire(protocol::request::kConfig), RunStore::configPath(*created));
        ask.insert(wire(protocol::request::kEvents), RunStore::eventsPath(*created));
        emit logMessage(QStringLiteral("Run %1 of %2, \"%3\": %4 run --config %5 --events %6")
                            .arg(m_index + 1)
                            .arg(m_requests.size())
                            .arg(created->legendLabel(), m_enginePath, quoted({RunStore::configPath(*created)}),
                                 quoted({RunStore::eventsPath(*created)})),
                        false);
    }
    m_currentAsk = QJsonDocument(ask).toJson(QJsonDocument::Compact) + '\n';
    m_engine.writeInput(m_currentAsk);
}

// No run left to ask for: the engine is told so (end of input) and the sequence ends when it
// has gone, or at once when it has already.
void LabSession::endSequence()
{
    if (m_engine.isRunning() && keepsEngine()) {
        m_engineKept = true;  // the holder's next sequence asks it; release() lets it go
        endRunning();
        return;
    }
    if (m_engine.isRunning()) {
        m_engine.closeInput();
        return;  // onEngineFinished ends it
    }
    endRunning();
}

void LabSession::endRunning()
{
    m_running = false;
    if (std::exchange(m_claimedActivity, false))
        m_activity.handOver(Busy::Runs, Busy::Idle);
    emit runningChanged(false);
    emit sequenceFinished(m_firstFailureCode == 0 && !m_stopRequested);
}

// The engine's stream: its own hello, then each run's events followed by run_end.
void LabSession::onEvents(const QList<QJsonObject>& events)
{
    m_onKeptEngine = false;  // it answered: whatever ends the run now is the run's
    QList<QJsonObject> forRun;
    for (const QJsonObject& event : events) {
        const QString type = event.value(wire(field::kType)).toString();
        if (!m_sawEngineHello) {
            m_sawEngineHello = true;
            m_engineStartMs = m_sinceEngineStart.elapsed();
            m_helloTimer.stop();
            if (type == wire(type::kHello)) {
                if (!checkEngineHello(event))
                    return;
                continue;
            }
        }
        if (type == wire(type::kRunEnd)) {
            appendToCurrent(forRun);
            forRun.clear();
            onRunEnd(event.value(wire(field::kExitCode)).toInt(1));
            continue;
        }
        forRun.append(event);
    }
    appendToCurrent(forRun);
}

bool LabSession::checkEngineHello(const QJsonObject& hello)
{
    const int protocol = hello.value(wire(field::kProtocol)).toInt();
    if (protocol == kProtocolVersion)
        return true;
    // Its events may mean something else than this lab reads into them: nothing is shown.
    m_protocolProblem = QStringLiteral("The engine %1 speaks event protocol %2, this lab reads protocol %3: "
                                       "build both from the same version (scripts/build.sh), or point the lab at "
                                       "a matching engine.")
                            .arg(engineWhere(m_target, m_enginePath))
                            .arg(protocol)
                            .arg(kProtocolVersion);
    m_engine.stop();
    return false;
}

// An engine that says nothing at all would be waited on for good (`ddplab --quit` never ended).
void LabSession::onNoHello()
{
    if (m_sawEngineHello || !m_engine.isRunning())
        return;
    m_protocolProblem = QStringLiteral("The engine %1 printed nothing within %2 s of starting, not even its hello: it is not a "
                                       "working ddplab-engine, or it is stuck (its messages, if any, are in the log).")
                            .arg(engineWhere(m_target, m_enginePath))
                            .arg(m_helloPatienceMs / 1000.0);
    emit logMessage(m_protocolProblem, true);
    m_engine.stop();
}

void LabSession::appendToCurrent(const QList<QJsonObject>& events)
{
    if (events.isEmpty() || !m_current || !m_protocolProblem.isEmpty())
        return;
    if (m_eventsLog.isOpen()) {
        for (const QJsonObject& event : events)
            m_eventsLog.write(QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n');
        m_eventsLog.flush();  // every event received is on disk, whatever happens next
    }
    const qint64 stepsBefore = m_current->stepCount();
    m_current->appendEvents(events);
    if (stepsBefore == 0 && m_current->stepCount() > 0)
        m_sinceFirstStep.start();
    emit runEventsArrived(m_current, events);
    emit runUpdated(m_current);
}

void LabSession::onRunEnd(int exitCode)
{
    if (!m_current)
        return;
    RunEnding ending = endingOfCurrent();
    ending.exitCode = exitCode;
    finishCurrent(decideOutcome(ending));
}

void LabSession::onStderr(const QByteArray& text)
{
    m_engineStderr = (m_engineStderr + QString::fromLocal8Bit(text)).right(kStderrKeptChars);
    if (m_stderrLog.isOpen()) {
        m_stderrLog.write(text);
        m_stderrLog.flush();
    }
    m_stderrLines.append(text.constData(), size_t(text.size()));
    emitStderrLines(false);
}

void LabSession::emitStderrLines(bool toTheEnd)
{
    QStringList lines;
    while (std::optional<LineReader::Line> line = m_stderrLines.take()) {
        QString text = QString::fromLocal8Bit(line->text.data(), qsizetype(line->text.size()));
        if (line->overlong)
            text += tr("… (a line of %1 bytes, cut)").arg(line->bytes);
        lines.append(text);
    }
    if (toTheEnd) {
        const std::string rest = m_stderrLines.takeRest();
        if (!rest.empty())
            lines.append(QString::fromLocal8Bit(rest.data(), qsizetype(rest.size())));
    }
    if (!lines.isEmpty())
        emit stderrLines(lines);
}

void LabSession::onEngineFinished(const EngineExit& exit)
{
    m_engineKept = false;
    m_helloTimer.stop();
    emitStderrLines(true);  // a last line without its newline
    if (m_current && std::exchange(m_onKeptEngine, false) && !m_stopRequested) {
        askAgainOfNewEngine(exit);
        return;
    }
    if (m_current) {
        // The engine went with a run unfinished: it crashed, was killed, could not start, or
        // speaks another protocol.
        RunEnding ending = endingOfCurrent();
        ending.exitCode = exit.exitCode;
        ending.engineGone = exit;
        ending.remoteFailure = engineGoneMessage(exit);
        finishCurrent(decideOutcome(ending));
        return;  // finishCurrent goes on with startNext, which ends the sequence
    }
    if (!m_running)
        return;
    if (m_index < m_requests.size() && !m_stopRequested && m_firstFailureCode == 0 && exit.exitCode != 0)
        m_firstFailureCode = exit.exitCode > 0 ? exit.exitCode : 1;  // it ended between runs, unasked
    endRunning();
}

// The engine kept from the sequence before went without a word for the run just asked of it:
// it died while it waited (a host's engine whose connection had not yet dropped here, one killed
// from outside), so the run never began. It is asked again, in its own folder, of a new engine,
// once: one that fails there fails as any run does. (Started from the event loop, not from
// inside the old process's finished signal.)
void LabSession::askAgainOfNewEngine(const EngineExit& exit)
{
    emit logMessage(QStringLiteral("The engine kept from the sequence before had gone (%1); \"%2\" is asked of a new one.")
                        .arg(exit.crashed ? QStringLiteral("killed by a signal") : QStringLiteral("exit code %1").arg(exit.exitCode),
                             m_current->record().legendLabel()),
                    true);
    QTimer::singleShot(0, this, [this] {
        if (!m_current)
            return;
        if (m_stopRequested) {
            finishCurrent({RunStatus::Cancelled, int(ddplab::kExitCancelled), QStringLiteral("stopped before it began")});
            return;
        }
        launchEngine();
        m_current->record().enginePid = m_engine.processId();
        m_engine.writeInput(m_currentAsk);
    });
}

// What the current run's events and this session know of how it ended.
RunEnding LabSession::endingOfCurrent() const
{
    RunEnding ending;
    ending.hasSummary = m_current->hasSummary();
    ending.reportedError = m_current->error().value(wire(field::kMessage)).toString();
    ending.protocolProblem = m_protocolProblem;
    ending.sawEngineHello = m_sawEngineHello;
    ending.engineWhere = engineWhere(m_target, m_enginePath);
    ending.divergence = m_current->divergence();
    return ending;
}

void LabSession::finishCurrent(const RunOutcome& ended)
{
    RunRecord& record = m_current->record();
    record.finished = QDateTime::currentDateTime();
    record.steps = m_current->stepCount();
    // Its steps' seconds apart from its start-up: what the estimator of this machine learns from.
    record.trainSeconds = m_current->summary().value(wire(field::kWallS)).toDouble(-1.0);
    record.stepsSeconds = m_current->summary().value(wire(field::kTrainS)).toDouble(-1.0);
    const RunOutcome outcome = settleCompleteness(ended, *m_current);
    recordOutcome(record, outcome);
    const RunStatus status = outcome.status;
    const int exitCode = outcome.exitCode;
    if (!record.directory.isEmpty()) {
        QString saveError;
        if (!m_store.saveMeta(record, &saveError))
            emit logMessage(QStringLiteral("The run's new status (%1) could not be saved: %2").arg(statusText(status), saveError), true);
    }
    m_stderrLog.close();
    m_eventsLog.close();
    // A diverged run trained to its end: the engine did what was asked, so it is no failure; nor
    // is a failure a lesson meant (a rank killed on purpose), once it failed.
    const bool meant = m_index < m_requests.size() && m_requests.at(m_index).meantToFail && status == RunStatus::Failed;
    if (status != RunStatus::Finished && status != RunStatus::Diverged && m_firstFailureCode == 0 && !meant)
        m_firstFailureCode = exitCode > 0 ? exitCode : 1;
    if (status == RunStatus::Finished) {
        emit logMessage(QStringLiteral("\"%1\" finished: %2 steps.").arg(record.legendLabel()).arg(record.steps), false);
    } else {
        emit logMessage(QStringLiteral("\"%1\" %2: %3").arg(record.legendLabel(), statusText(status), outcome.error),
                        status == RunStatus::Failed);
    }
    const QSharedPointer<RunData> finished = std::exchange(m_current, {});  // finished once, whatever comes next
    emit runFinished(m_index, finished);
    // Start the next run from the event loop, not from inside the engine's signals.
    QTimer::singleShot(0, this, &LabSession::startNext);
}

QString LabSession::lastCheckpointOf(int index) const
{
    if (index < 0 || index >= m_runs.size())
        return QString();
    const QList<QJsonObject>& checkpoints = m_runs.at(index)->checkpoints();
    return checkpoints.isEmpty() ? QString() : checkpoints.last().value(wire(protocol::field::kPath)).toString();
}

// Over SSH, a connection that failed or an engine that is not there reads as a failed engine:
// say which, and what to do (empty when the engine itself spoke).
QString LabSession::engineGoneMessage(const EngineExit& exit) const
{
    if (!m_target.isRemote() || exit.crashed || (m_sawEngineHello && exit.exitCode != 255))
        return QString();
    return explainRemoteFailure(m_target, exit.exitCode, m_engineStderr);
}

}  // namespace ddplab::ui
