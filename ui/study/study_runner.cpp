#include "study_runner.hpp"

#include "client/runs/run_data.hpp"

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
    connect(&m_session, &LabSession::stderrReceived, this, [this](const QString& text) {
        if (m_active)
            emit logMessage(text.trimmed(), false);
    });
    connect(&m_session, &LabSession::sequenceFinished, this, [this](bool allSucceeded) {
        if (!std::exchange(m_active, false))
            return;
        emit finished(allSucceeded);
    });
}

bool StudyRunner::start(const StoredStudy& study, const QList<RunRecord>& storedRuns)
{
    if (m_session.isRunning())
        return false;
    m_study = study;
    const QList<StudyPoint> missing = StudyStore::pointsToRun(study, storedRuns);
    m_doneBefore = total() - int(missing.size());
    m_doneNow = 0;
    if (missing.isEmpty())
        return false;
    QList<RunRequest> requests;
    for (const StudyPoint& point : missing) {
        RunRequest request;
        request.label = point.label();
        // The point first, as a lesson's runs are named: it is what tells them apart in the Runs list.
        request.name = request.label + QStringLiteral(" — ") + study.title();
        request.config = point.config;
        request.studyId = study.id;
        request.studyPoint = point.index;
        requests.append(request);
    }
    m_clock.start();
    m_active = true;
    m_session.start(requests);
    return true;
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

QString StudyRunner::timeLeftText() const
{
    if (left() <= 0 || !(secondsPerRun() > 0))
        return QString();
    const int seconds = int(std::lround(secondsPerRun() * left()));
    return seconds < 120 ? QStringLiteral("about %1 s left").arg(seconds) : QStringLiteral("about %1 min left").arg((seconds + 30) / 60);
}

}  // namespace ddplab::ui
