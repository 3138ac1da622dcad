#pragma once
// Runs one or more engine runs one after the other (a preset is one, a lesson several): each
// gets a run directory, the engine streams into it with --events, and its events are parsed
// into a RunData as they arrive. Stop ends the current run and drops the rest.

#include "engine_process.hpp"
#include "run_record.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSharedPointer>

namespace ddplab::ui {

class RunData;
class RunStore;

struct RunRequest {
    QString name;      // for the run list
    QString label;     // for legends
    QString lessonId;  // empty for a single run
    QJsonObject config;
};

class RunSequence : public QObject {
    Q_OBJECT

public:
    RunSequence(const RunStore& store, QString enginePath, QObject* parent = nullptr);

    QString enginePath() const { return m_enginePath; }

    void start(const QList<RunRequest>& requests);
    void stop();
    // Closing the window: stop the engine now, waiting at most `timeoutMs`.
    void stopAndWait(int timeoutMs);

    bool isRunning() const { return m_running; }
    int currentIndex() const { return m_index; }
    int count() const { return m_requests.size(); }
    QSharedPointer<RunData> currentRun() const { return m_current; }
    qint64 engineProcessId() const { return m_engine.processId(); }
    // Milliseconds since the current run's first step (-1 before it): for time remaining.
    qint64 msSinceFirstStep() const;

signals:
    void runStarted(int index, const QSharedPointer<ddplab::ui::RunData>& run);
    void runUpdated(const QSharedPointer<ddplab::ui::RunData>& run);
    void runFinished(int index, const QSharedPointer<ddplab::ui::RunData>& run);
    void logMessage(const QString& text, bool isWarning);
    void stderrReceived(const QString& text);
    void sequenceFinished(bool allSucceeded);

private:
    void startNext();
    void onEvents(const QList<QJsonObject>& events);
    void onStderr(const QByteArray& text);
    void onEngineFinished(const EngineExit& exit);
    void finishCurrent(RunStatus status, int exitCode, const QString& error);

    const RunStore& m_store;
    QString m_enginePath;
    EngineProcess m_engine;
    QList<RunRequest> m_requests;
    int m_index = -1;
    bool m_running = false;
    bool m_stopRequested = false;
    bool m_allSucceeded = true;
    QSharedPointer<RunData> m_current;
    QFile m_stderrLog;
    QElapsedTimer m_sinceFirstStep;
};

}  // namespace ddplab::ui
