// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advice's runner: runs one phase's planned runs through the lab's one session, in order, and
// does nothing else (the plan and the decisions are pure functions, advice_plan.hpp and
// advice_decision.hpp). It keeps the advice's progress file (advice_progress.hpp) as each run
// ends, takes a stopped advice's finished runs from the run store instead of running them again
// (resuming), and can cut a phase at a decision point (the budget is spent): the run under way is
// stopped and the rest are not run. It keeps the advice's clock, on which a phase replayed from a
// stopped advice takes the time it took then; pinned (a test hook: pinClock), the clock counts the
// pinned cost of the runs that ended instead of wall time.

#include "advice_plan.hpp"
#include "advice_request.hpp"
#include "advice_time.hpp"
#include "client/runs/run_data.hpp"  // complete for the signal's QList (its meta type)

#include <QElapsedTimer>
#include <QJsonArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QSharedPointer>

#include <optional>

namespace ddplab::ui {

class LabSession;

class AdviceRunner : public QObject {
    Q_OBJECT

public:
    explicit AdviceRunner(LabSession& session, QObject* parent = nullptr);

    // A new advice: the clock starts; `resumePhases`, a stopped advice's phases as its progress
    // file has them (empty: nothing to take).
    void begin(const AdviceRequest& request, const QJsonArray& resumePhases);
    // The test hook of advice_estimate.hpp (pinnedRunCost), after begin: from now on the clock
    // stands still while a run trains and moves on by `cost`'s seconds for each planned run that
    // ends (AdviceTime::runSeconds, a branch from the checkpoint at `checkpointStep`; a run the cut
    // stopped part way counts nothing), so it says the same at any load.
    void pinClock(const RunCost& cost, qint64 checkpointStep);
    // Runs `runs` (one phase); phaseEnded when they have all ended.
    void run(const QList<PlannedRun>& runs);
    // The budget is spent: the run under way is stopped, the phase ends with the runs that ended.
    void cut();
    // Stop: nothing more is run or reported.
    void abandon();
    bool isRunning() const { return m_running; }

    double elapsedSeconds() const { return double(elapsedMs()) / 1000.0; }
    int reusedRuns() const { return m_reusedRuns; }
    int reusedInPhase() const { return int(m_reused.size()); }
    // This phase's runs not yet ended, the one under way first.
    QList<PlannedRun> runsLeft() const;
    double phaseStartedSeconds() const { return double(m_phaseStartMs) / 1000.0; }
    // Of the seconds of the phase that ended last, those the engine took to start, once for all
    // its runs (LabSession::engineStartSeconds; a replayed phase's as they were then): not a
    // run's own cost.
    double engineStartSeconds() const { return m_engineStartS; }

signals:
    void runEnded();
    // The phase's runs in its plan's order, each with its data; a run the cut left out (or
    // stopped part way) is null. `cut`: the phase was cut at a decision point.
    void phaseEnded(const QList<QSharedPointer<RunData>>& runs, bool cut);
    // A run of the phase failed to run at all (the engine is gone), could not write its output
    // (a full disk: exit code 6), the progress file could not be written, or the session was
    // stopped from outside. Nothing more is run.
    void failed(const QString& why);

private:
    void onRunFinished(int index, const QSharedPointer<RunData>& run);
    void onSequenceFinished();
    void endPhase(const QList<QSharedPointer<RunData>>& sessionRuns);
    // False (and failed() emitted from the event loop, saying why: a full disk) when the progress
    // file could not be written: without it the advice could not be resumed.
    bool writeProgress();
    qint64 elapsedMs() const { return (m_pinned ? m_pinnedMs : m_clock.elapsed()) + m_offsetMs; }
    qint64 stoppedClockMs(double seconds) const;

    LabSession& m_session;
    AdviceRequest m_request;
    bool m_running = false;
    bool m_cutting = false;
    QElapsedTimer m_clock;
    std::optional<AdviceTime> m_pinned;  // the pinned cost, when the test hook pinned the clock
    qint64 m_pinnedMs = 0;               // the pinned clock: the pinned seconds of the runs that ended
    qint64 m_offsetMs = 0;           // added to the clock: a replayed phase takes the time it took
    qint64 m_phaseStartMs = 0;
    double m_engineStartS = 0.0;     // engineStartSeconds()
    bool m_startedSession = false;   // this phase asked the session for runs (not all replayed)
    QList<PlannedRun> m_planned;     // this phase's
    QMap<int, QSharedPointer<RunData>> m_reused;  // taken from the store, by plan index
    QList<int> m_toRun;              // the plan indexes the session runs, in its order
    int m_ended = 0;                 // of m_toRun
    QJsonArray m_resumePhases;
    QJsonArray m_phasesLog;
    int m_reusedRuns = 0;
};

}  // namespace ddplab::ui
