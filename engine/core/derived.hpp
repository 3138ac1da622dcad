#pragma once
// Numbers that follow from a config by arithmetic alone: effective batch and LR, how the
// sampler splits an epoch, and the LR at every step. Shared by the engine and the desktop
// lab's derived panel, so what the window previews is what the engine does.

#include "config.hpp"

#include <cstdint>
#include <string>

namespace ddplab {

// How DistributedSampler + DataLoader split one epoch of `numExamples` over the ranks.
struct ShardPlan {
    int64_t samplesPerRank = 0;   // DistributedSampler.num_samples
    int64_t totalSize = 0;        // samplesPerRank * world_size
    int64_t paddedSamples = 0;    // repeats of the head added so every rank gets as many
    int64_t droppedSamples = 0;   // tail examples discarded (drop_last)
    int64_t batchesPerEpoch = 0;  // per rank, the last one possibly short
    int64_t lastBatchSize = 0;
};

ShardPlan planShards(int64_t numExamples, int64_t worldSize, int64_t batchSize, bool dropLast);

// The number of training examples the workload has (Fashion-MNIST: 60,000 or train_subset;
// torchscript: what train_data holds or train_subset, 0 until the engine has read the data).
int64_t datasetSize(const Config& config);

ShardPlan planShards(const Config& config);

// Optimizer steps per epoch: micro-batches grouped by grad_accum, the last group possibly short.
int64_t stepsPerEpoch(const Config& config);

// Optimizer steps the run will take (epochs, capped by max_steps).
int64_t totalSteps(const Config& config);

int64_t effectiveBatchSize(const Config& config);   // world_size * batch_size * grad_accum
int64_t baseBatchSize(const Config& config);        // base_batch_size, default batch_size
double lrRuleExponent(const Config& config);        // 0, 1, 1/2 or lr_power
double lrScaleFactor(const Config& config);         // (effective / base)^p
double effectiveLr(const Config& config);           // lr * lrScaleFactor

double warmupStartFactor(const Config& config);     // default 1 / world_size
int64_t warmupStepCount(const Config& config);      // warmup_steps, or warmup_epochs in steps

// The LR applied at optimizer step `step` (0-based): linear warmup from
// warmupStartFactor * effectiveLr, then the constant, cosine or step schedule.
double learningRateAt(const Config& config, int64_t step);

std::string lrRuleFormula(const Config& config);    // e.g. "1e-3 * (128 / 16)^0.5"

// About how much memory one rank of this run takes (its data, the sampler's indices, a
// step's working set, the process itself), for refusing runs the machine cannot hold. Every
// rank of a local run builds its own copy of toy and linreg data.
int64_t estimatedRankBytes(const Config& config);

}  // namespace ddplab
