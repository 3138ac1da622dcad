// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The advisor's plan (docs/advisor.md, "What it measures, in order"): which runs each phase makes,
// sized to the time the budget leaves at the cost measured on the base run. Pure: settings and
// figures in, runs and the sentences saying what was cut out; the job (advice_job.hpp) runs them.
//
// The batches are compared at your horizon, never a longer one: a branch trains from the start
// to your training's samples (or the horizon you state), as the truth it is judged against does;
// only when the budget cannot hold that does it start from the base run's checkpoint (said:
// branches from a checkpoint see a smaller difference between batches, the panel's autoencoder
// -1.4 % where the truth from the start has -8.2 %). When the budget cannot hold even that the
// branches are cut shorter, and the plan says so (the confidence falls). Every batch is measured
// in the same data orders (seeds), at least two, so each has its own noise.

#include "advice_request.hpp"
#include "run_cost.hpp"
#include "core/config.hpp"

#include <QList>
#include <QString>
#include <QStringList>

namespace ddplab::ui {

struct PlannedRun {
    QString phase;       // advice_phases.hpp
    int gpus = 0;
    qint64 batch = 0;    // per GPU
    double lr = 0.0;
    qint64 seed = 0;     // the data order (and, from the start, the initialisation's seed)
    ddplab::Config config;
};

struct BranchBatch {
    int gpus = 0;
    qint64 perGpu = 0;
    double effective() const { return double(gpus) * double(perGpu); }
};

inline constexpr int kSeeds = 2;             // the confirmation's seeds, and the branch test's data orders
inline constexpr int kLadderRungs = 5;       // the confirmation's LRs, sqrt(2) apart
inline constexpr int kMostExtensions = 4;    // past the ladder's edge, two LRs at a time
inline constexpr int kMostOrders = 8;        // the closest call's data orders, past which it needs time left over (closestCallMayGoOn)
inline constexpr int kMostOrdersWithTimeLeft = 16;  // and at most, whatever the time left
inline constexpr int kMostLadderSeeds = 4;   // the confirmation's two best rungs' seeds at most (rungsForMoreSeeds)
inline constexpr int kMostQuietSeeds = 16;   // then the rungs within noise of the lowest mean, while time is left (rungsForQuietSeeds)
inline constexpr int kReservedOrders = 4;    // the closest call's orders the plan funds before the larger batches' brackets
inline constexpr int kWarmupLrs = 2;         // the warmup arm's: the ladder's best LR and its neighbour
inline constexpr int kMostBracketExtensions = 2;  // a branch bracket whose best sits at its edge: LRs 2x past it, at most twice
inline constexpr qint64 kRangeTestSteps = 60;
inline constexpr qint64 kFewestEvaluations = 4;
inline constexpr int kGoodputCandidates = 4;
inline constexpr qint64 kThroughputSteps = 30;
inline constexpr int kThroughputWarmupSteps = 5;

// The user's settings at `gpus` GPUs of `batch` each, emulated on this machine's ranks as ranks x
// accumulation (accumulate_as_ranks), at a constant `lr` and data order `seed`; the data set the
// base's (toy and linreg: data_seed fixed), Adam's moments the SDE rule's at this batch.
ddplab::Config emulatedRun(const AdviceRequest& request, int gpus, qint64 batch, double lr, qint64 seed);

// The base run: the user's settings on their GPUs for at most 200 steps (and no more than the
// horizon), a checkpoint halfway where the branches start.
struct BasePlan {
    PlannedRun run;
    qint64 checkpointStep = 0;
};
BasePlan planBase(const AdviceRequest& request);

// What the plans after the base run know.
struct PlanContext {
    AdviceRequest request;
    RunCost cost;
    double secondsLeft = 0.0;   // of the budget, now
    QString checkpoint;         // the base run's
    qint64 checkpointStep = 0;
};

// The seconds the confirmation (its ladder, an extension and a warmup arm) takes at `perGpu`
// over `steps` (0: the whole horizon): what the branch test leaves room for.
double confirmationSeconds(const PlanContext& context, qint64 perGpu, qint64 steps = 0);
// The confirmation's ladder alone (its 5 LRs x 2 seeds) at `perGpu` over your horizon, up to half
// the time left: the branch test never takes it, and is cut instead (the panel's gru at bc18c9c:
// the half's 6 branches left 3 of the ladder's 10 runs out).
double ladderReserveSeconds(const PlanContext& context, qint64 perGpu);
// The closest call's share: kReservedOrders more data orders at two batches (the closest call and
// yours, one LR each) over your horizon, from the start. The branch test never takes it: its
// larger batches' later orders are cut instead (the panel's autoencoder at 509f47b: the share cut
// 17 of the branch test's 49 runs and no order was left for half your batch, measured at -2.4 %
// over 2 orders, -7.4 % and +2.6 %, where the truth has your batch +8.9 % +- 1.8 over it).
double closestCallReserveSeconds(const PlanContext& context);

// A cut the branch test's plan made at the base run's cost that can be undone without changing the
// runs already made: batches left out (their brackets) and range tests, and the sentence that said so.
struct BranchCut {
    QList<BranchBatch> brackets;
    QList<BranchBatch> rangeTests;
    QString said;
};

struct BranchPlan {
    QList<PlannedRun> runs;       // range tests, branches, and for a base of one GPU the noise-scale run
    QList<BranchBatch> batches;   // ascending: half the base batch (when measured), the base batch, larger ones
    int orders = kSeeds;
    bool fromStart = true;        // the branches train from the start (false: from the base run's checkpoint, to fit the budget)
    double samples = 0.0;         // each branch's, from where it starts
    double horizon = 0.0;         // your horizon's samples from there
    QStringList trimmed;          // what was cut to fit, in sentences
    bool shortened = false;       // the branches are shorter than your horizon
    bool thinned = false;         // batches, wider batches, range tests or measurements were left out
    bool measureAlong = true;     // false: each branch measures at its end only (no McCandlish fit)
    double seconds = 0.0;         // the branch test's share of the time left: past it, it is cut (the job)
    double ladderSeconds = 0.0;   // what it left the confirmation's ladder (ladderReserveSeconds), at the base run's pace
    double closestCallSeconds = 0.0;  // and the closest call's orders (closestCallReserveSeconds)
    int firstRuns = 0;            // the runs never cut for that share: your batch's and N GPUs' first data order, and the range test at N GPUs'
    bool reshaped = false;        // its runs changed shape to fit: measured at their end only, from the checkpoint, or shorter
    QList<BranchCut> leftOut;     // what it left out that may come back, in the order it comes back (leftOutBranchRuns)
};
BranchPlan planBranchTest(const PlanContext& context);

// The runs of a cut (its batches' brackets in each of the plan's data orders, then its range
// tests), shaped as the plan's branches are, for the job to bring back once the branch test's own
// runs show they fit: one base run times the machine's pace once, and the pace moves (a busy
// machine; until fc3165a also LibTorch's load, counted into the base run's cost: linreg at 1 min,
// idle, timed 0.5-1.1 s a run against 0.2 s, and a branch test "of about 57 s" took 12 s).
QList<PlannedRun> leftOutBranchRuns(const PlanContext& context, const BranchPlan& plan, const BranchCut& cut);
// How many of the cuts come back: the first ones, in order, whose runs' seconds (at the pace the
// branch test kept) add up to no more than `secondsLeft` of its share; the first that does not fit
// stops it, so a range test never comes back without the batches before it.
qsizetype cutsThatFit(const QList<double>& cutSeconds, double secondsLeft);

// A run of the branch test's kind (`phase`: a branch, or the closest call's refinement) at
// `batch`, `lr` and data order `seed`, as `plan` trains its branches (from the start or the
// checkpoint, over its samples, measured along the way or at the end): how the closest call gets
// another order, and a bracket whose best sits at its edge another LR.
PlannedRun branchTestRun(const PlanContext& context, const BranchPlan& plan, const QString& phase, const BranchBatch& batch, double lr, qint64 seed);

// A confirmation run: from the start at `gpus` x `perGpu`, constant LR after the base's warmup,
// `steps` steps; measured along the way, or (`along` false) at its end only.
PlannedRun confirmationRun(const PlanContext& context, const QString& phase, int gpus, qint64 perGpu, double lr, qint64 seed, qint64 steps,
                           bool along = true);

// The confirmation's steps at `perGpu`: the horizon's, or what the time left holds for `rungs`
// LRs (and an extension's runs), never fewer than 20 (said in `trimmed`). `measureAlong`: whether
// the time left holds measurements along the way at those steps (else at the end only, said).
qint64 confirmationSteps(const PlanContext& context, qint64 perGpu, int rungs, QStringList* trimmed, bool* measureAlong = nullptr);

// The same at the pace the runs so far kept (`pace`: their time over the cost's prediction,
// AdviceTime::scale): slower than predicted, fewer steps, so the ladder's runs all fit (the
// panel's gru at 70dadd7, load 7-9: 5 of its 10 ladder runs were left out, sized at the base
// run's pace). Never more steps for a faster pace.
qint64 confirmationStepsAtPace(PlanContext context, qint64 perGpu, int rungs, double pace, QStringList* trimmed, bool* measureAlong = nullptr);

// Whether another data order of the closest call (`orderSeconds`, at the pace measured) fits in
// `secondsLeft`: what it must leave is the ladder's reserve as planned, at the pace the runs kept
// (`pace`, AdviceTime::scale), never the whole confirmation with its extensions (at 509f47b that
// was 14 runs over your horizon, and no order fitted).
bool closestCallOrderFits(const BranchPlan& plan, double orderSeconds, double secondsLeft, double pace);

// Whether the closest call, at `orders` data orders, gets another (`orderSeconds` at the pace
// measured): below kMostOrders when it fits (closestCallOrderFits); from kMostOrders up to
// kMostOrdersWithTimeLeft only while it leaves the ladder's reserve and the ladder's more seeds
// (its two best rungs up to kMostLadderSeeds each) at the pace measured. The panel's autoencoder at
// 005cc36 stopped at 8 orders with 16 at -4.1 % (-7.4 % to -0.7 %: short of better by 1.3 points)
// and 126 s of its 300 unused.
bool closestCallMayGoOn(const BranchPlan& plan, int orders, double orderSeconds, double secondsLeft, double pace);
// The ladder's more seeds as a plan sees them: its two best rungs' seeds past kSeeds, at the
// ladder reserve's cost a run.
double ladderMoreSeedsSeconds(const BranchPlan& plan);

// `rungs` LRs sqrt(2) apart centred on `center`.
QList<double> ladderAround(double center, int rungs = kLadderRungs);

// The timing runs of goodput: each batch per GPU on the ranks the other runs use.
QList<PlannedRun> timingRuns(const PlanContext& context, const QList<qint64>& batchesPerGpu);

// The warmup arm: `lrs` again with a linear warmup over a tenth of `steps`, from the base's LR.
QList<PlannedRun> warmupRuns(const PlanContext& context, int gpus, qint64 perGpu, const QList<double>& lrs, qint64 steps);
qint64 warmupArmSteps(qint64 confirmationSteps);

}  // namespace ddplab::ui
