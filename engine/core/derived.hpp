// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Numbers that follow from a config by arithmetic alone: effective batch and LR, how the
// sampler splits an epoch, and the LR at every step. Shared by the engine and the desktop
// lab's derived panel, so what the window previews is what the engine does.

#include "config.hpp"
#include "lr_schedule.hpp"  // the LR at every step: warmup, schedule, range test

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

// Optimizer steps the run will take (epochs, capped by max_steps; an LR range test's
// lr_range_steps, capped by max_steps, over as many epochs as they take).
int64_t totalSteps(const Config& config);

int64_t effectiveBatchSize(const Config& config);   // world_size * batch_size * grad_accum
int64_t baseBatchSize(const Config& config);        // base_batch_size, default batch_size
int64_t dataSeed(const Config& config);             // data_seed, default seed: toy's and linreg's generated data
double batchRatio(const Config& config);            // k = effective / base
double lrRuleExponent(const Config& config);        // 0, 1, 1/2 or lr_power (sde: 1/2)
double lrScaleFactor(const Config& config);         // k^p
double effectiveLr(const Config& config);           // lr * lrScaleFactor

// ---------------------------------------------------------------------------------------
// Adam's other settings under lr_rule sde (Malladi et al. 2022, "On the SDEs and Scaling Rules
// for Adaptive Gradient Algorithms"): 1 - beta -> k (1 - beta), eps -> eps / sqrt(k). Without
// the rule they are the configured values.
// ---------------------------------------------------------------------------------------
bool usesMoments(const Config& config);  // the optimizer has beta1, beta2 and eps
struct AdamSettings {
    double beta1 = 0.0;
    double beta2 = 0.0;
    double eps = 0.0;
};
AdamSettings appliedAdamSettings(const Config& config);
// The k the sde rule must stay below, 1 / (1 - beta) of the smaller beta: beyond it that beta
// would become 0 or negative.
double sdeRatioLimit(const Config& config);
std::string sdeBetaFormula(const Config& config, double beta);  // "1 - (128 / 16) * (1 - 0.9)"
std::string sdeEpsFormula(const Config& config);                // "1e-08 / (128 / 16)^0.5"

// ---------------------------------------------------------------------------------------
// AdamW's weight decay as a timescale (Wang and Aitchison 2025, "How to set AdamW's weight
// decay as you scale model and dataset size"): the EMA timescale of decoupled decay is
// 1 / (lr * lambda) steps, tau = B / (lr * lambda * N) epochs. weight_decay_rule timescale keeps
// tau at its value for base_batch_size and lr: lambda' = lambda * k * lr / effective lr.
// ---------------------------------------------------------------------------------------
double appliedWeightDecay(const Config& config);
// tau in epochs with the applied LR (after the rule, before warmup and schedule) and the
// applied weight decay; infinite when either is 0.
double weightDecayTimescaleEpochs(const Config& config);
std::string weightDecayRuleFormula(const Config& config);       // "0.01 * (128 / 16) * 0.001 / 0.00283"
std::string weightDecayTimescaleFormula(const Config& config);  // "128 / (0.00283 * 0.0283 * 60000)"

// linreg: whether its training loss comes from the data's second moments (dim x dim per
// experiment, in double) rather than from every example: when dim is at most the examples.
bool linregMeasuresByMoments(const Config& config);

// How often the training loss is measured (eval_every, default toy and linreg 1,
// Fashion-MNIST 0: epoch ends only).
int64_t evalInterval(const Config& config);

std::string lrRuleFormula(const Config& config);    // e.g. "1e-3 * (128 / 16)^0.5"

// About how much memory one rank of this run takes (its data, the sampler's indices, a
// step's working set, the process itself), for refusing runs the machine cannot hold. Every
// rank of a local run builds its own copy of toy and linreg data.
int64_t estimatedRankBytes(const Config& config);

}  // namespace ddplab
