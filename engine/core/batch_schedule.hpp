// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A batch that grows as training goes (batch_schedule, docs/configuration.md): how large the
// effective batch is at each optimizer step, how a rank carries it, and the LR that goes with it.
// Arithmetic alone, shared by the engine's trainer and the window's preview.
//
// The schedules are read on a clock of "base steps": the optimizer steps the starting batch
// would have taken for the samples seen so far (a step with the batch grown k-fold counts k).
// Warmup, cosine and step decay keep their length in samples, so a run that grows its batch
// ends its schedule where the constant-batch run would, in fewer optimizer steps.

#include "config.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace ddplab {

// How one rank carries a share of the effective batch.
struct BatchShape {
    int64_t batchSize = 0;  // per micro-batch
    int64_t gradAccum = 1;  // micro-batches per optimizer step
};

// steps, smith and seesaw: the batch grows where a plan known before the run says (noise and
// adascale follow what the run measures; constant never grows).
bool growsByPlan(const Config& config);

// The most the starting effective batch may be multiplied by: max_effective_batch (0: the
// training set's size) over the starting effective batch, at least 1.
int64_t largestBatchMultiplier(const Config& config);

// A rank's share of `multiplier` times the starting effective batch: its batch grows up to
// max_batch_per_rank (0: batch_size) and accumulation micro-batches carry the rest, with the
// fewest micro-batches that split the share into equal batches.
BatchShape batchShape(const Config& config, int64_t multiplier);

// Whether that split needs at most twice the micro-batches the largest batch would: a share of
// 99,991 samples (a prime) splits equally only into 99,991 micro-batches of 1 under
// max_batch_per_rank 1000, some 650 times slower than 100 of 1000. A multiplier that does not
// is refused in batch_schedule_factors (config_validate) and never chosen by smith.
bool splitsWell(const Config& config, int64_t multiplier);

// steps, smith and seesaw: the multiplier the schedule calls for on the optimizer step that
// follows `stepsDone` steps, `baseSteps` base steps into the run. steps: the product of the
// factors whose step has passed. smith: where the LR schedule would have decayed the LR to a
// fraction d of its peak, 1/d (rounded down, and on down to one that splitsWell). seesaw: the largest power of two not above 1/d
// (each halving of the LR becomes a doubling of the batch). Never above largestBatchMultiplier,
// never below 1; constant, noise and adascale: 1.
int64_t scheduledBatchMultiplier(const Config& config, int64_t stepsDone, int64_t baseSteps);

// The LR of the step `baseSteps` base steps into the run with `multiplier` in force: the LR
// schedule read on the base-step clock; smith gives back the decay the batch took over (LR x
// multiplier), seesaw its square root (LR x sqrt(multiplier)), so only the decay the bound
// left to the LR remains.
double grownBatchLr(const Config& config, int64_t baseSteps, int64_t multiplier);

// One optimizer step of the plan: the base-step clock before it, the multiplier in force and
// its LR.
struct PlannedStep {
    int64_t baseSteps = 0;
    int64_t multiplier = 1;
    double lr = 0.0;
};

// The run's optimizer steps as the trainer will take them, in segments of one multiplier:
// `steps` steps from step `firstStep` (0-based), the first `baseSteps` base steps into the run,
// each adding `multiplier` to that clock. Each handed to `visit` until it returns false. The
// work is bounded by the batch's growths, not the run's length (10^9 planned steps take no
// longer than ten): for constant, noise and adascale one segment of the starting batch's steps.
struct PlannedSegment {
    int64_t firstStep = 0;
    int64_t steps = 0;
    int64_t baseSteps = 0;
    int64_t multiplier = 1;
};
void walkPlannedSegments(const Config& config, const std::function<bool(const PlannedSegment&)>& visit);

// The run's optimizer steps one by one as the trainer will take them, each handed to `visit`
// until it returns false: for steps, smith and seesaw epoch by epoch, each rank's share of an
// epoch in steps of the batch in force (an epoch's last step short), growing after any step
// but the last; for constant, noise and adascale the starting batch's steps (noise and
// adascale follow what the run measures: the starting batch's count bounds theirs). A run
// that stops at a target stops sooner.
void walkPlannedSteps(const Config& config, const std::function<bool(const PlannedStep&)>& visit);

// The first `maxSteps` of them (the window's preview).
std::vector<PlannedStep> plannedBatchSteps(const Config& config, int64_t maxSteps);

// The whole plan in brief (the config event): how many optimizer steps, and after which of
// them the multiplier changes to what.
struct BatchPlan {
    struct Change {
        int64_t afterStep = 0;
        int64_t multiplier = 1;
    };
    int64_t steps = 0;
    std::vector<Change> changes;
};
BatchPlan planBatchGrowth(const Config& config);

// ---------------------------------------------------------------------------------------
// AdaScale SGD (Johnson, Agrawal, Gu and Guestrin, ICML 2020). The scale S is the ranks: a
// rank's share of the step is the base batch the LR and its schedule were set for.
// ---------------------------------------------------------------------------------------

// The config whose schedule AdaScale runs on its clock tau: one rank carrying a rank's share of
// the batch in one micro-batch. Its totalSteps is the run's length in tau.
Config adaScaleBaseConfig(const Config& config);

// The gain ratio r = (sigma^2 + mu^2) / (sigma^2 / S + mu^2), with sigma^2 = tr(Sigma) /
// smallBatch the variance of one rank's gradient, mu^2 = |G|^2, S = bigBatch / smallBatch.
// |G|^2 not above 0 (all noise) gives S and tr(Sigma) not above 0 gives 1, as fairscale's
// clamps do; r lies in [1, S].
double adaScaleGain(double traceSigma, double gradSquaredNorm, double smallBatch, double bigBatch);

}  // namespace ddplab
