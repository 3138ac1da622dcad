// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How long runs take on this machine, before they run: the one estimator of a lesson (the Lessons
// menu, its Run button, the first line of `ddplab --preset LESSON --run --quit`), a study's plan
// (the Study page, `ddplab --study`) and the advice's plan. Your own model's runs are estimated
// from a training step the engine's inspect timed here (MeasuredSteps) once it has.
//
// A run costs its start-up (the fork, the ranks' rendezvous, reading the data) and its steps
// (each step's overhead, its samples through the model, its evaluations), at constants fitted to
// every lesson run with `ddplab --preset ID --run --quit` on the 2-core development machine beside
// other programs (the seconds are tests/ui/tst_study_estimate's table). Then this machine and its
// load: MachineSpeed measures, from its own most recent runs, how long their steps took against
// what the constants said (the summary's wall_s, kept in meta.json), separately for each kind of
// model (a toy step and a CNN's images do not slow down alike when another program takes a core),
// and how long their start-ups took. A run that stops at a target loss (stop_at_loss) costs the
// share of its steps that this machine's recent runs with a target trained before they stopped.

#include "client/library/lesson_library.hpp"
#include "client/runs/run_request.hpp"
#include "client/study/study_plan.hpp"
#include "core/config.hpp"

#include <QHash>
#include <QJsonObject>
#include <QList>

#include <array>
#include <utility>

namespace ddplab::ui {

class RunStore;
struct RunRecord;

// What a run's steps cost most: their speed changes together on a busier or faster machine.
enum class StepKind { Vectorised, Mlp, Cnn, OwnModel };
constexpr int kStepKinds = 4;
StepKind stepKindOf(const ddplab::Config& config);

// This machine (as busy as it has lately been) against the development machine: measured
// seconds over the constants' seconds, for start-ups and for each kind of step.
struct MachineSpeed {
    // The share of its steps a run with a target loss trains before any such run ran here, fitted
    // to the studies measured on the development machine (2026-11-29): sgd-vs-adam-best-lr's 196
    // runs trained 0.64 of their steps' seconds, adam-surge's 322 0.58; critical-batch's 80,
    // whose LRs sit near the best, 0.19.
    static constexpr double kStoppedShare = 0.6;

    double start = 1.0;                    // a run's start-up, but for its data's draws
    // The draws of a toy or linreg run's data before its first step, apart from the rest of its
    // start-up: they are arithmetic, the rest forks, connects and waits. On a fast Intel Xeon
    // (2026-12-02, idle) the draws took 0.04 of the constants' seconds and the rest 0.3; one
    // factor, the median of adam-surge's and critical-batch's draw-heavy starts (0.14), made the
    // MLP lessons and studies after them 1.9-2.3x short (docs/lessons.md). Before any draws
    // were measured here, from the rest's factor (study_estimate.cpp's unmeasuredDraws).
    double draws = 1.0;
    std::array<double, kStepKinds> steps{1.0, 1.0, 1.0, 1.0};
    // A run on one rank apart from runs on several: its steps go through one process's intra-op
    // threads, theirs side by side with an all-reduce, and the two do not speed up alike from one
    // machine to another. On an AMD EPYC (2026-12-02, idle) the MLP's training steps on 2-8 ranks
    // took about 0.6 of the constants' seconds and on one rank about 1.4.
    std::array<double, kStepKinds> loneSteps{1.0, 1.0, 1.0, 1.0};
    // Each kind's evaluations, apart from its training steps: there, the MLP's evaluations took
    // 0.19 of the Intel-fitted constants' seconds while its training steps took 0.5-1.2, so one
    // factor for both made runs that evaluate every 8 steps 2x long and those that seldom do short.
    std::array<double, kStepKinds> evaluations{1.0, 1.0, 1.0, 1.0};
    std::array<int, kStepKinds> stepRuns{0, 0, 0, 0};  // runs each kind was measured on
    int runsMeasured = 0;                  // 0: nothing measured yet, every factor 1
    // A run with a target loss stops when it meets it: the share of its steps' seconds it trains,
    // measured on the newest runs with a target here (the constants' seconds of the steps they
    // trained over those of the steps they were given; a diverged run trains them all).
    double stoppedShare = kStoppedShare;
    int stoppedRuns = 0;  // the runs with a target it was measured on

    // The same factor for everything (a machine `factor` times slower than the constants).
    static MachineSpeed uniform(double factor);
    double stepFactor(StepKind kind) const { return steps.at(std::size_t(kind)); }
    double stepFactor(StepKind kind, bool lone) const { return (lone ? loneSteps : steps).at(std::size_t(kind)); }
    double evaluationFactor(StepKind kind) const { return evaluations.at(std::size_t(kind)); }

    // From the most recent runs of `store` that ran to their end here (not over SSH): for each
    // kind, the median over its `recent` newest runs of their steps' seconds against the
    // constants' (a kind not run yet takes the median of the kinds that were); the start-up's
    // from all of them, its draws apart (draws). A kind's evaluations apart from its training steps, where some of its
    // runs evaluate much and some little: measured where the runs said their training steps'
    // seconds (the summary's train_s, RunRecord::stepsSeconds), else fitted (fitTwoParts); where
    // they said them, its runs on one rank and on several each from their own `recent` newest,
    // their training steps apart (loneSteps, steps), a sort not among the newest 400 runs looked
    // for further back. Runs stored before wall_s was kept count whole, start-up and steps as one.
    // stoppedShare from the newest `recentStopped` runs with a target loss.
    // `unmeasured`: every factor when nothing was measured here yet; the store's measure takes it
    // from the load now (unmeasured_speed.hpp).
    static MachineSpeed measure(const RunStore& store, int recent = 12, int recentStopped = 100);
    static MachineSpeed measure(const QList<RunRecord>& runs, int recent = 12, int recentStopped = 100, double unmeasured = 1.0);
};

// Your own model as inspect found it on this machine (OwnModelSteps): a training step's seconds
// per sample, timed here (its CPU seconds: measuredModelOf), and its data's sizes. A run of such
// a model is estimated from them instead of from the development machine's CNN and a guessed
// data size.
struct MeasuredModel {
    double secondsPerSample = 0.0;
    double startSeconds = 0.0;  // inspect's own start: LibTorch, the model, the data, as a run's
    qint64 trainSamples = 0;
    qint64 valSamples = 0;
};
// By measuredStepKey: its model and training data.
using MeasuredSteps = QHash<QString, MeasuredModel>;
QString measuredStepKey(const QJsonObject& settings);  // engine keys (a study point's preset)

// The step a run resumes after (a branch or a resumption costs only the steps after its
// checkpoint): the engine's checkpoint files are named step-NNNNNN.pt; 0 for a run from the
// start, or a checkpoint named otherwise.
int64_t resumedStepOf(const ddplab::Config& config);
// The last checkpoint `writer` writes: the last step of its checkpoint_at it trains (before its
// fail_at, when it is told to fail); 0 when it writes none.
int64_t lastCheckpointStep(const ddplab::Config& writer);

// One run's two parts on the development machine (the constants), before any factor.
struct RunParts {
    double startSeconds = 0.0;
    double drawSeconds = 0.0;  // of startSeconds, its ranks' draws of their data (toy, linreg)
    double stepSeconds = 0.0;  // from its first step to its end: steps, samples, evaluations
    double evaluationSeconds = 0.0;  // of stepSeconds, its evaluations
    double evaluations = 0.0;
    double samples = 0.0;            // trained
    StepKind kind = StepKind::Mlp;
    bool lone = false;          // on one rank (MachineSpeed::loneSteps)
    bool measuredHere = false;  // your own model timed by inspect: its samples' seconds are this machine's
    double measuredSeconds = 0.0;  // of stepSeconds, those inspect's timing says (samples, evaluations)
};
// `fromStep`: the step it starts after; -1: resumedStepOf(config).
RunParts runParts(const ddplab::Config& config, const MeasuredModel* measured = nullptr, int64_t fromStep = -1);

// A run's steps at this machine's factors (its training steps and its evaluations), before a
// target loss stops it early.
double stepSecondsHere(const RunParts& cost, const MachineSpeed& speed);
// A run's start-up at this machine's factors (its draws and the rest).
double startSecondsHere(const RunParts& cost, const MachineSpeed& speed);

// Two factors, one for each part, that best explain what runs took: each run's error counted
// relative to its time, and both drawn toward `prior` (the runs' median ratio), relative to it
// and with a tenth of one run's weight, so that a part the runs could not tell from the other
// keeps the median.
struct TwoParts {
    double first = 0.0;
    double second = 0.0;
    double took = 0.0;
};
std::pair<double, double> fitTwoParts(const QList<TwoParts>& runs, double prior);

// One run's seconds on this machine.
double estimatedSeconds(const ddplab::Config& config, const MachineSpeed& speed, const MeasuredModel* measured = nullptr,
                        int64_t fromStep = -1);
// A run given as engine keys (a lesson's, a preset's); unreadable settings cost a start-up.
double estimatedSeconds(const QJsonObject& config, const MachineSpeed& speed, const MeasuredModel* measured = nullptr);
double estimatedSeconds(const StudyPlan& plan, const MachineSpeed& speed, const MeasuredSteps& measured = {});
// Each point's seconds by its index, as estimatedSeconds(plan, ...) sums them (without the
// session's start-up): what the runner re-times its runs left by.
QHash<int, double> pointSeconds(const StudyPlan& plan, const MachineSpeed& speed, const MeasuredSteps& measured = {});
// What is left of a study, timed again by the runs it has finished: the runs left at the
// estimator's seconds, times what the finished ones took against what it said for them. Your own
// model's estimate rests on a step inspect timed in one moment, busier or quieter than the
// study's (decay-or-grow-own-model took 0.63x and 1.03x of it, two tries): its first runs say
// how long its steps take now. Before a run has finished (nothing done or took), `estimatedLeft`.
double retimedSecondsLeft(double estimatedDone, double tookDone, double estimatedLeft);
// A lesson: its runs one after the other, in one session of the engine; a run resuming from an
// earlier one's last checkpoint (resume_from_run) costs the steps after that checkpoint.
double estimatedSeconds(const Lesson& lesson, const MachineSpeed& speed);
// The runs `--preset` starts (a lesson's or a preset's), the same way.
double estimatedSeconds(const QList<RunRequest>& runs, const MachineSpeed& speed);
// A list of runs in one session (a study's points still to run, an advice's plan).
double estimatedSeconds(const QList<ddplab::Config>& runs, const MachineSpeed& speed);

// At a uniform factor (1: the development machine).
double estimatedSeconds(const ddplab::Config& config, double speed = 1.0, const MeasuredModel* measured = nullptr);
double estimatedSeconds(const QJsonObject& config, double speed = 1.0, const MeasuredModel* measured = nullptr);
double estimatedSeconds(const StudyPoint& point, double speed = 1.0);
double estimatedSeconds(const StudyPlan& plan, double speed = 1.0, const MeasuredSteps& measured = {});
double estimatedSeconds(const Lesson& lesson, double speed = 1.0);

// "about 40 s", "about 3 min", "about 2 h"
QString durationText(double seconds);
// "took 42.0 s (estimated 40.0 s, 1.05x)": what the headless runs print at their end.
QString tookText(double seconds, double estimated);

}  // namespace ddplab::ui
