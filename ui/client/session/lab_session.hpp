// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one place that runs things for the lab, used by the window and by `ddplab --quit` alike:
// a single run, a lesson's runs or a study's, one after the other. One `ddplab-engine runs`
// process serves them all (LibTorch is loaded once, not once a run; an advice's phases, each a
// sequence, share one while it holds the lab): each run gets a run
// directory, the engine is asked for it on stdin and streams into it (its events file), its
// events are parsed into a RunData as they arrive, and progress and the outcome are reported.
// Stop ends the current run and drops the rest. A window or a headless runner owns one session;
// whatever it runs (a run, a lesson, a study through StudyRunner, an advice through AdviceJob)
// goes through it, and its activity() says what the lab is busy with: one thing at a time.

#include "client/engine/engine_process.hpp"
#include "client/engine/engine_target.hpp"
#include "client/runs/run_outcome.hpp"
#include "client/runs/run_record.hpp"
#include "client/runs/run_request.hpp"
#include "client/session/lab_activity.hpp"
#include "client/session/run_progress.hpp"
#include "core/line_reader.hpp"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QSharedPointer>
#include <QStringList>
#include <QTimer>

namespace ddplab::ui {

class RunData;
class RunStore;

class LabSession : public QObject {
    Q_OBJECT

public:
    LabSession(const RunStore& store, QString enginePath, QObject* parent = nullptr);

    QString enginePath() const { return m_enginePath; }
    const RunStore& store() const { return m_store; }
    // Where the next start() runs the engine: this computer (the default) or an SSH host.
    void setTarget(const EngineTarget& target);
    const EngineTarget& target() const { return m_target; }

    void start(const QList<RunRequest>& requests);
    void stop();
    // How long the engine has to print its hello before it is taken for no working engine and
    // stopped (a wrong program, a remote command that prints nothing); tests shorten it.
    void setHelloPatience(int ms) { m_helloPatienceMs = ms; }
    // Closing the window: stop the engine now, waiting at most `timeoutMs`.
    void stopAndWait(int timeoutMs);

    // What the lab is busy with, the one state a window's controls read: a study or an advice
    // claims it for all its runs; a start() while it is idle claims it for those runs alone.
    const LabActivity& activity() const { return m_activity; }
    // Takes the idle lab for `what` (a study, an advice) across all its runs; false when it is
    // busy, with *refusal saying with what.
    bool claim(Busy what, QString* refusal = nullptr);
    // `what` is done with the lab: it is idle, or busy with the run still going (a stopped
    // advice's last run) until that run has ended.
    void release(Busy what);
    // The engine runs a sequence now (an advice between its phases is busy, not running).
    bool isRunning() const { return m_running; }
    int currentIndex() const { return m_index; }
    int count() const { return m_requests.size(); }
    QSharedPointer<RunData> currentRun() const { return m_current; }
    qint64 engineProcessId() const { return m_engine.processId(); }
    // The seconds the engine that the latest start() launched took to say its hello (LibTorch's
    // load, paid once by the sequence that starts it, not by each run); 0 when start() asked an
    // engine kept from the sequence before, or while its hello has not come.
    double engineStartSeconds() const { return m_engineStartMs / 1000.0; }
    // Milliseconds since the current run's first step (-1 before it): for time remaining.
    qint64 msSinceFirstStep() const;
    // Where the current run is ("run 2 of 3 · step 120 / 469 · ... left").
    RunProgress progress() const;

    // The runs of the latest start(), in order, finished or not.
    const QList<QSharedPointer<RunData>>& runs() const { return m_runs; }
    // 0 when every run of the latest start() succeeded; else the first failed run's engine
    // exit code (1 when it had none: the engine could not start, say).
    int firstFailureCode() const { return m_firstFailureCode; }

signals:
    void runStarted(int index, const QSharedPointer<ddplab::ui::RunData>& run);
    void runUpdated(const QSharedPointer<ddplab::ui::RunData>& run);
    // The events just appended to `run` (before runUpdated), as the engine sent them: for
    // writers that take events, not series (TensorBoard's, tensorboard/tensorboard_stream.hpp).
    void runEventsArrived(const QSharedPointer<ddplab::ui::RunData>& run, const QList<QJsonObject>& events);
    void runFinished(int index, const QSharedPointer<ddplab::ui::RunData>& run);
    void logMessage(const QString& text, bool isWarning);
    // The engine's stderr (or ssh's), whole lines as they arrive: one batch per read.
    void stderrLines(const QStringList& lines);
    void sequenceFinished(bool allSucceeded);
    // A sequence started, or ended: for what shows the run in progress. Whether the lab may start
    // something is activity()'s to say.
    void runningChanged(bool running);

private:
    void startNext();
    void endSequence();
    // While a study or an advice holds the lab, the engine of a sequence that ended stays, idle,
    // and the next sequence (an advice's next phase) is asked of it: LibTorch's load is some 0.9 s
    // of CPU a start (docs/ci.md), more with CUDA's libraries, and on a Run-on host an SSH
    // connection besides (each run's ranks set up their GPUs themselves, after the fork). Let go
    // when the lab is released (a remote one: its stdin ends, and it exits).
    bool keepsEngine() const;
    void letKeptEngineGo();
    void launchEngine();
    void askAgainOfNewEngine(const EngineExit& exit);
    void endRunning();
    void onEvents(const QList<QJsonObject>& events);
    void appendToCurrent(const QList<QJsonObject>& events);
    bool checkEngineHello(const QJsonObject& hello);
    void onRunEnd(int exitCode);
    void onStderr(const QByteArray& text);
    void emitStderrLines(bool toTheEnd);
    void onEngineFinished(const EngineExit& exit);
    void onNoHello();
    RunEnding endingOfCurrent() const;
    // `ended` as decided from the engine's word; what is saved is settleCompleteness() of it.
    void finishCurrent(const RunOutcome& ended);
    QString engineGoneMessage(const EngineExit& exit) const;
    // The path of the last checkpoint the sequence's run at `index` wrote; "" when none.
    QString lastCheckpointOf(int index) const;

    const RunStore& m_store;
    QString m_enginePath;
    EngineTarget m_target;
    EngineProcess m_engine;
    QList<RunRequest> m_requests;
    QList<QSharedPointer<RunData>> m_runs;
    int m_index = -1;
    bool m_running = false;
    bool m_engineKept = false;  // the last sequence's engine, idle, for the next sequence of the same holder
    bool m_onKeptEngine = false;  // this sequence's first run was asked of the kept engine, which has not answered yet
    LabActivity m_activity;
    bool m_claimedActivity = false;  // this sequence's start() took the idle lab for its runs
    bool m_stopRequested = false;
    int m_firstFailureCode = 0;
    bool m_sawEngineHello = false;  // the `runs` process's own hello, first on its stdout
    QString m_protocolProblem;      // the engine speaks another protocol version, or none: why the run ended
    int m_helloPatienceMs = 60000;  // ssh's connect timeout and a slow remote start fit well within
    QTimer m_helloTimer;
    QElapsedTimer m_sinceEngineStart;
    qint64 m_engineStartMs = 0;  // engineStartSeconds()
    QSharedPointer<RunData> m_current;
    QByteArray m_currentAsk;  // the line that asked the engine for m_current
    QFile m_stderrLog;
    QFile m_eventsLog;        // remote runs: their events, written here as they arrive
    QString m_engineStderr;  // the last of the engine's stderr: why ssh or the engine failed
    LineReader m_stderrLines;  // the engine's stderr as lines, each capped
    QElapsedTimer m_sinceFirstStep;
};

}  // namespace ddplab::ui
