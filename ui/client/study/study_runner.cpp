// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_runner.hpp"

#include "client/study/study_estimate.hpp"

#include "client/library/preset_file.hpp"
#include "client/runs/run_data.hpp"
#include "client/runs/run_store.hpp"

#include <cmath>
#include <utility>

namespace ddplab::ui {

StudyRunner::StudyRunner(LabSession& session, QObject* parent)
    : QObject(parent)
    , m_session(session)
{
    // The session serves whoever started its sequence: this runner hears it only for its study.
    connect(&m_session, &LabSession::runStarted, this, [this](int, const QSharedPointer<RunData>& run) {
        if (m_active)
            emit runStarted(run);
    });
    connect(&m_session, &LabSession::runFinished, this, [this](int, const QSharedPointer<RunData>& run) {
        if (!m_active)
            return;
        if (StudyStore::isDone(run->record().status))
            ++m_doneNow;
        emit runFinished(run);
    });
    connect(&m_session, &LabSession::logMessage, this, [this](const QString& text, bool isWarning) {
        if (m_active)
            emit logMessage(text, isWarning);
    });
    connect(&m_session, &LabSession::stderrLines, this, [this](const QStringList& lines) {
        if (!m_active)
            return;
        for (const QString& line : lines)
            if (!line.trimmed().isEmpty())
                emit logMessage(line.trimmed(), false);
    });
    connect(&m_session, &LabSession::sequenceFinished, this, [this](bool allSucceeded) {
        if (!std::exchange(m_active, false))
            return;
        m_lock.reset();  // another runner may resume it now
        m_session.release(Busy::Study);
        emit finished(allSucceeded);
    });
}

StudyRunner::StartResult StudyRunner::start(const StoredStudy& study)
{
    m_refusal.clear();
    if (m_session.activity().isBusy()) {
        m_refusal = QStringLiteral("the study \"%1\" cannot start while this lab runs something else (%2); stop that first")
                        .arg(study.title(), m_session.activity().busyWords());
        return StartResult::Refused;
    }
    m_study = study;
    m_lock = std::make_unique<QLockFile>(StudyStore::lockPath(study));
    m_lock->setStaleLockTime(0);  // a live runner may run for days; only a dead one's lock is stale
    if (!m_lock->tryLock(0)) {
        qint64 pid = 0;
        QString host, program;
        if (m_lock->error() == QLockFile::LockFailedError && m_lock->getLockInfo(&pid, &host, &program))
            m_refusal = QStringLiteral("the study \"%1\" is being run by another %2 (process %3 on %4); wait for it to end or stop "
                                       "it there. If that process is gone from another machine, delete %5")
                            .arg(study.title(), program.isEmpty() ? QStringLiteral("lab") : program)
                            .arg(pid)
                            .arg(host.isEmpty() ? QStringLiteral("this computer") : host, StudyStore::lockPath(study));
        else
            m_refusal = QStringLiteral("the study \"%1\" cannot be locked for running (%2): is its folder writable?")
                            .arg(study.title(), StudyStore::lockPath(study));
        m_lock.reset();
        return StartResult::Refused;
    }
    const QList<StudyPoint> missing = StudyStore::pointsToRun(study, m_session.store().listRuns());
    m_doneBefore = total() - int(missing.size());
    m_doneNow = 0;
    if (missing.isEmpty()) {
        m_lock.reset();
        return StartResult::AllDone;
    }
    QList<RunRequest> requests;
    m_estimates.clear();
    for (const StudyPoint& point : missing) {
        if (m_estimateOf.contains(point.index) && m_estimates.size() == requests.size())
            m_estimates.append(m_estimateOf.value(point.index));
        RunRequest request;
        request.label = point.displayLabel();
        // The point first, as a lesson's runs are named: it is what tells them apart in the Runs list.
        request.name = request.label + QStringLiteral(" — ") + study.title();
        // A point's settings stay JSON in plan.json (the keys the study sets, and no others); the
        // plan was checked key by key when it was made, so a point the engine refuses is a
        // plan.json edited since.
        QString why;
        const std::optional<Config> config = coreConfigOf(point.config, &why);
        if (!config) {
            m_refusal = QStringLiteral("point %1 of the study \"%2\" cannot be run: %3").arg(point.index).arg(study.title(), why);
            m_lock.reset();
            return StartResult::Refused;
        }
        request.config = *config;
        request.studyId = study.id;
        request.studyPoint = point.index;
        requests.append(request);
    }
    if (m_estimates.size() != requests.size())
        m_estimates.clear();
    m_clock.start();
    m_active = true;
    m_session.claim(Busy::Study);  // idle: start() refused a busy lab first
    m_session.start(requests);
    return StartResult::Started;
}

void StudyRunner::stop()
{
    if (m_active)
        m_session.stop();
}

double StudyRunner::secondsPerRun() const
{
    return m_doneNow > 0 && m_clock.isValid() ? m_clock.elapsed() / 1000.0 / m_doneNow : 0.0;
}

int StudyRunner::percent() const
{
    return total() > 0 ? int(std::lround(100.0 * done() / total())) : 0;
}

QString StudyRunner::progressText() const
{
    if (total() == 0)
        return QString();
    QString text = isRunning() ? QStringLiteral("run %1 of %2").arg(std::min(done() + 1, total())).arg(total())
                               : QStringLiteral("%1 of %2 runs done").arg(done()).arg(total());
    if (m_doneBefore > 0)
        text += QStringLiteral(" · %1 done before").arg(m_doneBefore);
    if (isRunning() && !timeLeftText().isEmpty())
        text += QStringLiteral(" · ") + timeLeftText();
    return text;
}

double StudyRunner::secondsLeft() const
{
    if (left() <= 0 || !(secondsPerRun() > 0))
        return 0.0;
    if (m_estimates.isEmpty())
        return secondsPerRun() * left();
    double estimatedDone = 0.0, estimatedLeft = 0.0;
    for (qsizetype i = 0; i < m_estimates.size(); ++i)
        (i < m_doneNow ? estimatedDone : estimatedLeft) += m_estimates.at(i);
    return retimedSecondsLeft(estimatedDone, m_clock.elapsed() / 1000.0, estimatedLeft);
}

QString StudyRunner::timeLeftText() const
{
    if (!(secondsLeft() > 0))
        return QString();
    const int seconds = int(std::lround(secondsLeft()));
    return seconds < 120 ? QStringLiteral("about %1 s left").arg(seconds) : QStringLiteral("about %1 min left").arg((seconds + 30) / 60);
}

}  // namespace ddplab::ui
