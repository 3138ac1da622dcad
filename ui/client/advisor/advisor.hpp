// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advisor (docs/advisor.md): for the user's model, their known-good base (Setup's batch per
// GPU x GPUs and LR) and N GPUs to plan for, which batch per GPU and which LR, measured, in a
// time budget. It runs, through the lab's one session (so nothing else runs meanwhile):
//   1. the base run, N GPUs emulated as ranks x accumulation (accumulate_as_ranks), with a
//      checkpoint halfway: its step time sizes the rest, its noise scale is corroboration;
//   2. from that checkpoint, an LR range test at N x the base's batch per GPU (it bounds the
//      LRs tried), and the branch test: branches at k x the base batch on the same samples,
//      each with a 3-point LR bracket, plus the base batch again with another data order (the
//      tolerance);
//   3. the confirmation at the chosen batch: 5 LRs sqrt(2) apart x 2 seeds from the start, over
//      the horizon that fits, extended by two LRs when the best sits at the ladder's edge (up
//      to three times, while the budget holds);
//   4. the warmup arm when the best LR is well above the base's (Goyal et al.).
// Where the runs happen on the Run-on host (another machine, or this one's GPUs), the batches per
// GPU the branch test allows are timed there before the confirmation and the one with the most
// goodput (goodput.hpp) is confirmed.
// Then it decides (lr_bracket.hpp, batch_evidence.hpp) and says how sure it is.

#include "advice.hpp"
#include "advice_lock.hpp"
#include "lr_bracket.hpp"
#include "run_cost.hpp"
#include "core/config.hpp"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QSharedPointer>
#include <QString>

#include <optional>

namespace ddplab::ui {

class LabSession;
class RunData;

struct AdviceRequest {
    ddplab::Config base;         // the user's settings that train well (Setup's)
    int gpus = 8;                // to plan for
    qint64 maxBatchPerGpu = 0;   // 0: the base's batch per GPU is the most
    double budgetSeconds = 300;  // wall time for all the runs
    QString checkpointFolder;    // where the base run's checkpoint goes
    // Where the advisor keeps what it has done so far (the request, each phase's runs and the
    // stored ids of those that finished), rewritten as each run ends: what resume() reads back.
    // Empty: nothing is kept. Its folder is the advice's, locked while the advice runs.
    QString progressFile;
};

// "" when the request can be advised on; else one sentence.
QString adviceRequestProblem(const AdviceRequest& request);
// "1 GPU", "8 GPUs": as the advisor's log and progress say it.
QString gpuCountText(int gpus);

class Advisor : public QObject {
    Q_OBJECT

public:
    explicit Advisor(LabSession& session, QObject* parent = nullptr);

    // Starts; false (problem() says why) when the session is busy or the request is refused.
    bool start(const AdviceRequest& request);
    // Resumes an advice that was stopped (Stop, a closed window, a failed run): its request from
    // `progressFile`, and every run it planned again with the same settings and had finished
    // (or diverged) is taken from the run store instead of run again. Phases whose runs all
    // finished replay with the time they took then, so the plan after them is the one the
    // uninterrupted advice made. Its checkpoints are its own folder's (the progress file's),
    // wherever it was copied. False (problem() says why) when the file cannot be read, or
    // another advisor runs this advice now (its folder's lock is held).
    bool resume(const QString& progressFile);
    // Runs taken from the store instead of run, in this advice (0 unless resumed).
    int reusedRuns() const { return m_reusedRuns; }
    void stop();
    bool isRunning() const { return m_phase != Phase::Idle && m_phase != Phase::Done; }
    const QString& problem() const { return m_problem; }
    const Advice& advice() const { return m_advice; }

    // What is being measured now and how far the whole is ("branch test: 5 of 13 runs").
    QString progressText() const;
    int percent() const;
    // Seconds left, from the base run's measured seconds per sample and per run, scaled by the
    // last phase's time against its prediction: this phase's runs still to finish and, during the
    // branch test, the confirmation, during the confirmation the warmup arm when it is likely and
    // the extensions likely to come;
    // -1 before the base run ends (and when not running).
    double secondsLeft() const;

signals:
    void progressed();
    void logMessage(const QString& text, bool isWarning);
    void finished(bool succeeded);

private:
    enum class Phase { Idle, Base, Branches, Throughput, Confirmation, Extension, Warmup, Done };
    static constexpr int kSeeds = 2;      // the confirmation's, and the branch test's when the time allows
    static constexpr int kWarmupLrs = 2;  // the warmup arm's: the ladder's best LR and its neighbour
    static constexpr int kLadder = 5;     // the confirmation's LRs, sqrt(2) apart
    static constexpr int kMostExtensions = 3;  // past the ladder's edge, two LRs at a time
    static constexpr qint64 kRangeTestSteps = 60;
    // Measuring is not free (Fashion-MNIST's 2,000 + 2,000 images: 0.45 s here, thirty 32-image
    // steps): a run measures as often as asked, but no more often than its training takes time
    // for, and at least this often.
    static constexpr qint64 kFewestEvaluations = 4;
    static constexpr double kWarmupRunsTrigger = 2.0;
    static constexpr int kWiderBatches = 2;           // N GPUs at 2 and 4 x the base's batch per GPU, when the budget holds them
    static constexpr int kGoodputCandidates = 4;       // batches per GPU timed, halving from the most allowed
    static constexpr qint64 kThroughputSteps = 30;     // a timing run's steps
    static constexpr int kThroughputWarmupSteps = 5;   // its first steps, left out of the pace  // a ladder centred this far above the base LR budgets a warmup arm

    struct BranchBatch {
        int gpus = 0;
        qint64 perGpu = 0;
    };
    struct PlannedRun {
        QString phase;
        int gpus = 0;
        qint64 batch = 0;
        double lr = 0.0;
        qint64 seed = 0;
        ddplab::Config config;
    };

    bool begin(const AdviceRequest& request);
    void runPhase(Phase phase, const QList<PlannedRun>& runs);
    void onSequenceFinished();
    // The phase's runs, in its plan's order (those taken from the store and those just run).
    void finishPhase(const QList<QSharedPointer<RunData>>& sessionRuns);
    void onRunFinished(int index, const QSharedPointer<RunData>& run);
    // False (and the advice failed, saying why: a full disk) when the progress file could not be written.
    bool writeProgress();
    qint64 elapsedMs() const { return m_clock.elapsed() + m_offsetMs; }
    void planBranches();
    void planConfirmation(const QList<double>& lrs);
    // advisor_goodput.cpp: whether the runs' times are the Run-on host's (another machine, or this
    // one's GPUs); the timing runs at the candidate batches per GPU; the goodput choice from them.
    bool timesTransfer() const;
    bool planThroughput();
    void chooseByGoodput();
    // The confirmation's ladder at the chosen batch per GPU.
    void planLadder();
    // advisor_decision.cpp: what the measurements say.
    void concludeBranches();
    QList<BracketPoint> pointsOf(const QString& phase) const;
    bool planWarmupArm(const BracketOptimum& optimum);
    void judgeWarmup(const QList<BracketPoint>& without);
    // A run of the confirmation's kind (from the start, the confirmation's horizon, constant LR
    // after the base's warmup) at the chosen batch.
    PlannedRun confirmationRun(const QString& phase, double lr, qint64 seed) const;
    void decide();
    void fail(const QString& why);
    ddplab::Config emulated(int gpus, qint64 batch, double lr, qint64 seed) const;
    double measureOf(const RunData& run) const;
    // advisor_time.cpp: a planned run's seconds at the measured cost.
    double plannedSeconds(const PlannedRun& run) const;

    LabSession& m_session;
    AdviceLock m_lock;          // the advice's folder, held while it runs (advice_lock.hpp)
    AdviceRequest m_request;
    Phase m_phase = Phase::Idle;
    QString m_problem;
    Advice m_advice;
    QElapsedTimer m_clock;
    QList<PlannedRun> m_planned;                        // the phase's runs, in the session's order
    QList<QPair<PlannedRun, QSharedPointer<RunData>>> m_done;  // every run so far with its data
    int m_runsInPlan = 0;       // all phases, as planned so far
    int m_runsFinished = 0;
    RunCost m_cost;                     // measured on the base run
    double m_timeScale = 1.0;           // the last phase's time against its prediction
    qint64 m_phaseStartMs = 0;          // on m_clock
    double m_baseLr = 0.0;
    qint64 m_baseBatch = 0;     // effective
    int m_baseGpus = 1;
    QString m_checkpoint;       // the base run's, where the branches start
    qint64 m_checkpointStep = 0;
    double m_deltaSamples = 0.0;     // each branch's
    qint64 m_largestBranchBatch = 0;  // effective: the largest the branch test measured
    qint64 m_confirmationSteps = 0;
    qint64 m_chosenBatchPerGpu = 0;
    double m_divergenceLr = 0.0;     // from the range test: where the loss ran away
    int m_extensions = 0;       // the ladder's extensions past its edge so far
    bool m_branchEdges = false; // a branch batch's best LR sat at its bracket's edge
    int m_branchSeeds = 1;
    double m_checkpointMeasure = 0.0;  // the base run's noise-free training loss at the checkpoint (NaN: not measured there)
    qint64 m_warmupSteps = 0;         // the warmup arm's
    double m_warmupStartFactor = 0.0;
    int m_failedRuns = 0;
    // Resuming (resume()): the stopped advice's phases as its progress file has them; what this
    // advice has done so far, as written to the request's progress file.
    QJsonArray m_resumePhases;
    QJsonArray m_phasesLog;
    QMap<int, QSharedPointer<RunData>> m_reused;  // this phase's runs taken from the store, by plan index
    QList<int> m_toRun;                           // the plan indexes the session runs, in its order
    qint64 m_offsetMs = 0;                        // added to m_clock: a replayed phase takes the time it took
    int m_reusedRuns = 0;
};

}  // namespace ddplab::ui
