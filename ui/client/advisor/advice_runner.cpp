// SPDX-License-Identifier: GPL-3.0-or-later
#include "advice_runner.hpp"

#include "advice_progress.hpp"
#include "client/io/save_file.hpp"
#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_status.hpp"
#include "client/runs/run_store.hpp"
#include "client/session/lab_session.hpp"
#include "core/protocol_names.hpp"

#include <QHash>
#include <QJsonDocument>

#include <algorithm>
#include <cmath>

namespace ddplab::ui {
namespace {

using namespace advice_progress;

// A run that ended as it will end again: taken instead of run again when resuming.
bool reusable(RunStatus status)
{
    return status == RunStatus::Finished || status == RunStatus::Diverged;
}

QString lrText(double lr)
{
    return QString::number(lr, 'g', 3);
}

}  // namespace

AdviceRunner::AdviceRunner(LabSession& session, QObject* parent) : QObject(parent), m_session(session)
{
    connect(&m_session, &LabSession::runFinished, this, &AdviceRunner::onRunFinished);
    connect(&m_session, &LabSession::sequenceFinished, this, [this](bool) {
        if (m_running)
            onSequenceFinished();
    });
}

// A time the stopped advice's progress file gives, in ms of the clock: never below 0 nor past the
// budget (a crafted file's 1e300 would overflow the clock; past the budget the advice ends anyway).
qint64 AdviceRunner::stoppedClockMs(double seconds) const
{
    return qRound64(1000.0 * std::clamp(std::isfinite(seconds) ? seconds : 0.0, 0.0, std::max(0.0, m_request.budgetSeconds)));
}

void AdviceRunner::begin(const AdviceRequest& request, const QJsonArray& resumePhases)
{
    m_request = request;
    m_resumePhases = resumePhases;
    m_phasesLog = QJsonArray();
    m_offsetMs = 0;
    m_reusedRuns = 0;
    m_running = false;
    m_pinned.reset();
    m_pinnedMs = 0;
    m_clock.start();
}

void AdviceRunner::pinClock(const RunCost& cost, qint64 checkpointStep)
{
    m_pinned.emplace();
    m_pinned->setCost(cost, checkpointStep);
}

QList<PlannedRun> AdviceRunner::runsLeft() const
{
    QList<PlannedRun> left;
    if (!m_running)
        return left;
    for (qsizetype i = m_ended; i < m_toRun.size(); ++i)
        left.append(m_planned[m_toRun[i]]);
    return left;
}

void AdviceRunner::run(const QList<PlannedRun>& runs)
{
    // Resuming: this phase as the stopped advice planned it, when it did.
    const QJsonObject before = m_phasesLog.size() < m_resumePhases.size() ? m_resumePhases[m_phasesLog.size()].toObject() : QJsonObject();
    const QJsonArray beforeRuns = before.value(kRuns).toArray();
    if (!before.isEmpty())
        m_offsetMs += stoppedClockMs(before.value(kStartedS).toDouble()) - elapsedMs();
    m_phaseStartMs = elapsedMs();
    m_engineStartS = engineStartOfPhase(before);
    m_startedSession = false;
    m_planned = runs;
    m_reused.clear();
    m_toRun.clear();
    m_ended = 0;
    m_cutting = false;
    m_running = true;
    QJsonArray logged;
    QList<RunRequest> requests;
    QHash<QString, RunRecord> stored;  // the store's runs, as it lists them (their status from meta.json)
    if (!beforeRuns.isEmpty())
        for (const RunRecord& record : m_session.store().listRuns())
            stored.insert(record.id, record);
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const PlannedRun& run = runs[i];
        const QJsonObject settings = presetFromCoreConfig(run.config);
        QJsonObject entry{{kSettings, settings}};
        // A run of the stopped advice with the same settings that ended (finished or diverged) is taken as it is.
        const QJsonObject earlier = i < beforeRuns.size() ? beforeRuns[i].toObject() : QJsonObject();
        const QString id = earlier.value(kRunId).toString();
        // The progress file names only runs the session saw end well; the store lists a range test
        // (stopped by the 4x rule) as incomplete. A branch from the checkpoint is listed as any run
        // is: its summary's steps count the checkpoint's (RunStore reads its resumed_step).
        const auto ended = [&run](RunStatus status) { return reusable(status) || (run.config.lrRangeTest && status == RunStatus::Incomplete); };
        if (earlier.value(kSettings).toObject() == settings && stored.contains(id) && ended(stored.value(id).status)) {
            const QSharedPointer<RunData> loaded = m_session.store().loadRun(stored.value(id));
            if (loaded && ended(loaded->record().status)) {
                m_reused.insert(int(i), loaded);
                entry.insert(kRunId, id);
                if (earlier.contains(kEndedS))
                    entry.insert(kEndedS, earlier.value(kEndedS));
                logged.append(entry);
                ++m_reusedRuns;
                continue;
            }
        }
        logged.append(entry);
        m_toRun.append(int(i));
        RunRequest request;
        request.name = QStringLiteral("advice %1").arg(run.phase);
        request.label = QStringLiteral("%1 · %2 × %3 · lr %4 · seed %5").arg(run.phase, gpuCountText(run.gpus)).arg(run.batch).arg(lrText(run.lr)).arg(run.seed);
        request.config = run.config;
        requests.append(request);
    }
    // A phase stopped part way: the clock goes on from the last of its runs the stopped advice
    // finished, not from the phase's start (a resumption counted 0.8 s of a stop at 12 s).
    if (!requests.isEmpty() && !before.contains(kEndedS))
        if (const qint64 lastEnded = stoppedClockMs(lastRunEndOfPhase(before)); lastEnded > elapsedMs())
            m_offsetMs += lastEnded - elapsedMs();
    m_phasesLog.append(QJsonObject{{kStartedS, m_phaseStartMs / 1000.0}, {kRuns, logged}});
    if (!writeProgress())
        return;
    if (requests.isEmpty()) {
        // Every run was taken from the store: the phase ends as it ended then, at the time it took.
        const double endedAt = before.value(kEndedS).toDouble(-1.0);
        QMetaObject::invokeMethod(this, [this, endedAt] {
            if (!m_running)
                return;
            if (endedAt >= 0)
                m_offsetMs += stoppedClockMs(endedAt) - elapsedMs();
            endPhase({});
        }, Qt::QueuedConnection);
    } else {
        m_startedSession = true;
        m_session.start(requests);
    }
}

void AdviceRunner::cut()
{
    if (!m_running || m_cutting)
        return;
    m_cutting = true;
    m_session.stop();
}

void AdviceRunner::abandon()
{
    m_running = false;
    if (m_session.isRunning())
        m_session.stop();  // no more runs for an advice that has ended
}

void AdviceRunner::onRunFinished(int index, const QSharedPointer<RunData>& run)
{
    if (!m_running || m_phasesLog.isEmpty() || index < 0 || index >= m_toRun.size() || !run)
        return;
    m_ended = index + 1;
    if (m_pinned && !m_cutting)
        m_pinnedMs += qRound64(1000.0 * m_pinned->runSeconds(m_planned[m_toRun[index]]));
    // A run that could not write its output (a full disk) measured nothing, and no advice is
    // concluded from it: the advice stops, to be resumed once there is room.
    if (run->record().status == RunStatus::Failed && run->record().exitCode == ddplab::kExitOutputError) {
        m_running = false;
        emit failed(QStringLiteral("run \"%1\" could not write its output, and the advice stopped there (is the disk full?): %2")
                        .arg(run->label(), run->record().error));
        return;
    }
    if (reusable(run->record().status)) {
        QJsonObject phase = m_phasesLog.last().toObject();
        QJsonArray runs = phase.value(kRuns).toArray();
        QJsonObject entry = runs[m_toRun[index]].toObject();
        entry.insert(kRunId, run->id());
        entry.insert(kEndedS, elapsedMs() / 1000.0);
        runs[m_toRun[index]] = entry;
        phase.insert(kRuns, runs);
        m_phasesLog[m_phasesLog.size() - 1] = phase;
        writeProgress();
    }
    emit runEnded();
}

void AdviceRunner::onSequenceFinished()
{
    const QList<QSharedPointer<RunData>>& runs = m_session.runs();
    if (!m_cutting && runs.size() != m_toRun.size()) {
        m_running = false;
        emit failed(QStringLiteral("the runs were stopped before the advice was complete"));
        return;
    }
    endPhase(runs);
}

void AdviceRunner::endPhase(const QList<QSharedPointer<RunData>>& sessionRuns)
{
    m_running = false;
    QList<QSharedPointer<RunData>> runs;
    for (qsizetype i = 0, next = 0; i < m_planned.size(); ++i) {
        if (m_reused.contains(int(i))) {
            runs.append(m_reused.value(int(i)));
            continue;
        }
        QSharedPointer<RunData> run = next < sessionRuns.size() ? sessionRuns[next] : nullptr;
        ++next;
        // A run the cut stopped part way measured nothing to decide on.
        if (run && m_cutting && run->record().status != RunStatus::Finished && run->record().status != RunStatus::Diverged && run->record().status != RunStatus::Incomplete)
            run.reset();
        runs.append(run);
    }
    if (!m_phasesLog.isEmpty()) {
        QJsonObject phase = m_phasesLog.last().toObject();
        phase.insert(kEndedS, elapsedMs() / 1000.0);
        if (m_startedSession)
            m_engineStartS = m_session.engineStartSeconds();
        phase.insert(kEngineStartS, m_engineStartS);
        m_phasesLog[m_phasesLog.size() - 1] = phase;
        if (!writeProgress())
            return;
    }
    emit phaseEnded(runs, m_cutting);
}

bool AdviceRunner::writeProgress()
{
    if (m_request.progressFile.isEmpty())
        return true;
    QString error;
    if (writeFileAtomically(m_request.progressFile, QJsonDocument(progressJson(m_request, m_phasesLog)).toJson(QJsonDocument::Indented), &error))
        return true;
    // From the event loop: this may be inside the job's start(), before anyone waits for the end.
    const QString why = QStringLiteral("the advice's progress could not be saved: %1").arg(error);
    QMetaObject::invokeMethod(this, [this, why] {
        m_running = false;
        emit failed(why);
    }, Qt::QueuedConnection);
    return false;
}

}  // namespace ddplab::ui
