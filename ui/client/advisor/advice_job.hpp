// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One advice, start to end, for the Advise page and `ddplab --advise` alike (docs/advisor.md). It
// claims the advice's folder in the advice store (its progress file and the base run's checkpoint
// live there, so a stopped advice can be resumed), then goes phase by phase: the plan says which
// runs (advice_plan.hpp), the runner runs them (advice_runner.hpp), the decisions read what they
// measured (advice_decision.hpp), the time estimator says how long is left (advice_time.hpp); at
// the end the advice is saved into its folder (advice_store.hpp). The phases:
//   1. the base run, your settings on your GPUs, a checkpoint halfway;
//   2. the branch test from that checkpoint at your horizon: each batch in the same data orders,
//      with a range test at N GPUs' batch (and at the others when the budget holds them);
//   3. the closest call: the budget the plan kept from the branch test adds data orders to the
//      batch whose verdict is within noise (a smaller one than yours first), until it is clear or
//      the budget ends;
//   4. on the Run-on host, the batches per GPU timed for goodput;
//   5. the confirmation's LR ladder at the chosen batch over your horizon, rung by rung from the
//      best so far outward (the pace measured again after each), extended past its edge;
//   6. the warmup arm when the LR is well above yours.
// The budget is honoured within 10 %: after every run, a phase whose next run would end past it
// is cut at that decision point, and the advice is concluded from what was measured, saying what
// was skipped. Qt Core only.

#include "advice.hpp"
#include "advice_decision.hpp"
#include "advice_lock.hpp"
#include "advice_plan.hpp"
#include "advice_request.hpp"
#include "advice_store.hpp"
#include "advice_time.hpp"

#include <QList>
#include <QObject>
#include <QSharedPointer>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <optional>

namespace ddplab::ui {

class AdviceRunner;
class LabSession;
class RunData;

class AdviceJob : public QObject {
    Q_OBJECT

public:
    explicit AdviceJob(LabSession& session, AdviceStore store = AdviceStore(), QObject* parent = nullptr);
    ~AdviceJob() override;

    // A new advice in a new folder of the store; false (problem() says why) when the session is
    // busy, the request is refused or no folder can be made.
    bool start(AdviceRequest request);
    // A stopped advice (its folder, or its name under the store) goes on from its progress file:
    // every run it plans again with the same settings that had ended is taken from the run store.
    // Its checkpoints are its own folder's, wherever it was copied, and it is saved where it is.
    // False (problem() says why) when it is no stopped advice, its progress file cannot be read,
    // or another advisor runs it now (its folder's lock is held).
    bool resume(const QString& folderOrId);
    void stop();
    bool isRunning() const;

    const QString& problem() const { return m_problem; }
    // So far while running (the card fills in as phases end); the whole advice at the end.
    const Advice& advice() const { return m_advice; }
    // The advice's folder (its name, and where it is: a resumed copy may lie outside the store),
    // and why saving into it failed ("" when it did not).
    const QString& folderId() const { return m_id; }
    const QString& folder() const { return m_folder; }
    const QString& storeProblem() const { return m_storeProblem; }
    const AdviceStore& store() const { return m_store; }
    int reusedRuns() const;
    // What one run costs here, as the base run measured it (unmeasured before it ends): what the
    // plan is sized with.
    const RunCost& runCost() const { return m_time.cost(); }

    // What is measured now ("branch test: ..."), how far the whole is (every run moves it), the
    // seconds left (-1 before the base run has ended; never past the budget's end).
    QString progressText() const;
    int percent() const;
    double secondsLeft() const;
    double budgetSecondsLeft() const;
    // The advice's clock: its seconds so far, a resumed one's counting the stopped advice's.
    double clockSeconds() const;

signals:
    void progressed();
    // A phase ended: advice() holds what it found (the card and charts fill in).
    void phaseEnded();
    void logMessage(const QString& text, bool isWarning);
    // The advice ended: with a recommendation saved in its folder, or not (problem() says why;
    // its folder is kept as a stopped advice when a run had ended).
    void finished(bool succeeded);

private:
    enum class Phase { Idle, Base, Branches, Refinement, Throughput, Confirmation, Extension, Warmup, Done };

    bool begin(const AdviceRequest& request, const QJsonArray& resumePhases);
    void runPhase(Phase phase, const QList<PlannedRun>& runs);
    void onPhaseEnded(const QList<QSharedPointer<RunData>>& runs, bool cut);
    void onRunEnded();
    void onDeadline();
    void afterBase(const RunData& base);
    void planBranches();
    void afterBranches();
    bool planClosestCall();
    bool planLeftOutBranches();
    bool planBracketExtension();
    bool planBracketMidpoints();
    QList<PlannedRun> bracketRunsThatFit(const QList<BracketExtension>& points, QStringList* left) const;
    void afterBatchChosen();
    bool planThroughput();
    void afterThroughput();
    void planLadder();
    bool planMoreSeeds(const QList<BracketPoint>& ladder);
    void planNextRung();
    QList<PlannedRun> rungRuns(double lr) const;
    void afterLadder();
    void finish();
    void fail(const QString& why);
    PlanContext context() const;
    double predictedSeconds(const QList<PlannedRun>& runs) const;
    bool timeHolds(double seconds) const;
    double laterSeconds() const;
    QList<BracketPoint> bracketAtChosen() const;
    void say(const QString& text);

    LabSession& m_session;
    AdviceStore m_store;
    AdviceRunner* m_runner = nullptr;
    AdviceRequest m_request;
    QString m_id;
    QString m_folder;
    AdviceLock m_lock;  // the advice's folder, held while it runs (advice_lock.hpp)
    Phase m_phase = Phase::Idle;
    QString m_problem;
    QString m_storeProblem;
    Advice m_advice;
    AdviceTime m_time;
    std::optional<RunCost> m_pinnedCost;  // the test hook's (advice_estimate.hpp, pinnedRunCost), else measured
    QTimer m_deadline;
    bool m_outOfTime = false;
    QString m_checkpoint;
    qint64 m_checkpointStep = 0;
    double m_checkpointMeasure = 0.0;
    QList<PlannedRun> m_planned;      // this phase's
    int m_runsPlanned = 0;            // all phases, as planned so far
    int m_runsFinished = 0;
    mutable int m_percentShown = 0;   // what percent() last said: it never goes back
    BranchPlan m_branchPlan;
    double m_branchEndsAt = 0.0;      // on the advice's clock: the branch test's share of the budget spent
    bool m_branchCut = false;         // the branch test was cut there, leaving the rest to the confirmation
    bool m_confirmationAlong = true;  // the confirmation's runs measure along the way (else at their end)
    BranchConclusion m_conclusion;
    bool m_closestCallStopped = false;
    bool m_leftOutTried = false;      // the branches the base run's cost left out, added once if they fit (leftOutBranchRuns)
    int m_bracketExtensions = 0;      // rounds of LRs past a branch bracket's edge (kMostBracketExtensions)
    bool m_bracketMidpoints = false;  // half your batch's and yours' brackets refined between their best and its better neighbour (bracketMidpoints)
    qint64 m_confirmationSteps = 0;
    QList<double> m_ladderRungs;      // the confirmation's, run rung by rung (planNextRung)
    bool m_ladderLeftOut = false;     // rungs of it left out at the pace measured (the plan trimmed)
    int m_extensions = 0;
    enum class MoreSeeds { None, TwoBest, QuietRun };
    MoreSeeds m_moreSeeds = MoreSeeds::None;  // the phase running is the ladder's more seeds (planMoreSeeds), not an extension
    QString m_ladderStopped;
    QList<BracketPoint> m_arm;
    bool m_armPlanned = false;
};

}  // namespace ddplab::ui
