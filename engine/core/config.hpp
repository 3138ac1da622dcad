// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The settings of one training run, exactly as the engine applies them.
// Kept free of LibTorch and Qt: the launcher, the workers and the desktop lab all share it.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ddplab {

// The built-in workloads; one added with workload_table.hpp's addWorkloadRow (a test's own) is
// a value past these. Ask its row (traitsOf), never switch on it (docs/architecture.md).
enum class WorkloadKind { Toy, Linreg, FashionMnist, TorchScript };
enum class ModelKind { Mlp, Cnn, MlpBatchNorm };
// Sde: Malladi et al.'s SDE rule for Adam (LR x sqrt(k), and beta1, beta2, eps follow k too).
enum class LrRule { None, Linear, Sqrt, Power, Sde };
enum class WeightDecayRule { None, Timescale };
// AdamBsi, AdamWBsi: Wang and Aitchison's batch-size-invariant Adam (second moment from the
// mean over ranks and micro-batches of their squared gradients).
enum class OptimizerKind { Sgd, Adam, AdamW, NovoGrad, Lamb, Lars, AdamBsi, AdamWBsi };
enum class ScheduleKind { Constant, Cosine, Step };
// How the effective batch moves during training (batch_schedule.hpp, docs/configuration.md).
enum class BatchScheduleKind { Constant, Steps, Smith, Seesaw, Noise, AdaScale };
enum class BackendKind { Auto, Gloo, Nccl };
enum class DeviceKind { Cpu, Cuda };
enum class FailureMode { Error, Crash, Hang, OutOfMemory };
enum class LossReduction { Sum, Mean };
enum class LossKind { CrossEntropy, Mse, L1, BceWithLogits, Model };
// What stop_at_loss is judged on: the training loss over a fixed set (toy, linreg: the whole
// training set), the validation loss, or the noisy loss of the step's own mini-batch.
enum class StopMeasure { TrainLoss, ValLoss, BatchLoss };

// Testing aid (--fail-at RANK:STEP[:crash|:hang|:oom]): rank `rank` fails when it reaches
// optimizer step `step`, by throwing (an orderly error), by killing itself with SIGKILL (a
// crash), by ignoring SIGTERM and making no more progress (a stuck rank), or by asking LibTorch
// for more memory than any machine has (an allocation that fails).
struct FailurePlan {
    int64_t rank = 0;
    int64_t step = 1;
    FailureMode mode = FailureMode::Error;
};

// checkpoint_at ("every 50", "10, 20, 40" or ""): the optimizer steps after which rank 0
// writes a checkpoint (docs/checkpoints.md).
struct CheckpointPlan {
    int64_t every = 0;            // 0: none by period
    std::vector<int64_t> steps;   // ascending, each >= 1

    bool empty() const { return every == 0 && steps.empty(); }
    bool at(int64_t step) const
    {
        if (every > 0 && step % every == 0)
            return true;
        for (int64_t listed : steps)
            if (listed == step)
                return true;
        return false;
    }
};

// Field names are the snake_case keys of a config file in camelCase. configKeys()
// (config_keys.cpp) is the one table that parses, validates, prints and documents them.
struct Config {
    // --- what is trained --------------------------------------------------------------
    WorkloadKind workload = WorkloadKind::Toy;
    ModelKind model = ModelKind::Mlp;
    std::string dataDir = "/usr/share/datasets/fashion-mnist";
    int64_t numExamples = 256;  // toy and linreg; Fashion-MNIST has 60,000
    int64_t dim = 8;            // linreg input dimension
    // linreg: its squared errors summed over the batch (seed 004, so SGD's step grows with the
    // batch) or averaged (as usual, so one learning rate grid serves every batch).
    LossReduction lossReduction = LossReduction::Sum;
    int64_t experiments = 1;    // independent experiments advanced together (toy, linreg)
    double noise = 0.0;         // toy: sigma of input/target noise; linreg: target noise
    int64_t trainSubset = 0;    // Fashion-MNIST, torchscript: use only the first N training samples (0 = all)
    int64_t valSubset = 0;      // Fashion-MNIST, torchscript: evaluate only the first N validation samples (0 = all)
    // torchscript: the user's own model and data (docs/own-model.md). Paths may start with ~/.
    std::string modelFile;      // a TorchScript file
    LossKind loss = LossKind::CrossEntropy;
    std::string trainData;      // a torch.save({"inputs": X, "targets": Y}) file, or a folder of .npy
    std::string valData;        // the same, or "" for none
    std::string saveModel;      // write the trained model (rank 0's) here at the end, or "" for not
    int64_t modelCheckTimeout = 0;  // seconds inspect and the check before a run may take; 0 = collective_timeout
    // Not a key: the samples a torchscript run trains on (train_data's, or the first
    // train_subset of them), filled in by the engine once it has read them (0 until then).
    // The sampler, steps per epoch and schedules follow from it.
    int64_t trainSamples = 0;
    // The keys of a workload added with addWorkloadRow (workload_table.hpp's WorkloadKey), by
    // name; a key unset here has its default (workloadValue).
    std::map<std::string, double> workloadValues;

    // --- how it is parallelised -------------------------------------------------------
    int64_t worldSize = 1;      // ranks ("GPUs")
    int64_t batchSize = 128;    // per rank
    int64_t gradAccum = 1;      // micro-batches per optimizer step (no_sync on the inner ones)
    BackendKind backend = BackendKind::Auto;
    DeviceKind device = DeviceKind::Cpu;
    int64_t threads = 0;        // intra-op threads per rank; 0 = free cores / local ranks (thread_share.hpp)
    // Deterministic kernels only (cuDNN's, cuBLAS's fixed workspace): on a GPU two runs, and a run
    // and its resumption, give the same bits; an op with no deterministic kernel stops the run.
    bool deterministic = false;
    double bucketCapMb = 25.0;  // gradient bucket size, as DDP's bucket_cap_mb
    bool overlap = true;        // all-reduce buckets during backward (false: after backward)
    int64_t collectiveTimeout = 60;  // seconds a rank waits for its peers before the run stops
    // grad_accum micro-batches stand for GPUs: micro-batch j of rank k holds what
    // DistributedSampler gives rank k * grad_accum + j of world_size * grad_accum, so K ranks
    // compute what K * grad_accum GPUs would (docs/advisor.md). false: each rank's micro-batches
    // are consecutive batches of its own shard, as a script with no_sync does.
    bool accumulateAsRanks = false;

    // --- the order data is seen in ----------------------------------------------------
    bool shuffle = true;
    bool dropLast = false;
    int64_t seed = 0;
    // toy and linreg generate their data (and linreg its starting weights) from this seed; unset:
    // from `seed`. Another `seed` with the same data_seed is another order of the same data.
    std::optional<int64_t> dataSeed;

    // --- optimisation -------------------------------------------------------------------
    double lr = 1e-3;                      // the LR tuned for base_batch_size
    LrRule lrRule = LrRule::None;
    double lrPower = 0.5;                  // exponent when lr_rule = power
    std::optional<int64_t> baseBatchSize;  // unset: batch_size
    OptimizerKind optimizer = OptimizerKind::Sgd;
    double momentum = 0.0;
    double dampening = 0.0;
    bool nesterov = false;
    double weightDecay = 0.0;              // tuned for base_batch_size and lr
    WeightDecayRule weightDecayRule = WeightDecayRule::None;
    double beta1 = 0.9;
    double beta2 = 0.999;
    double eps = 1e-8;
    bool gradAveraging = false;      // NovoGrad
    double trustCoefficient = 0.001; // LARS

    // --- learning-rate schedule ---------------------------------------------------------
    int64_t warmupSteps = 0;
    double warmupEpochs = 0.0;
    std::optional<double> warmupStartFactor;  // unset: 1 / world_size
    ScheduleKind schedule = ScheduleKind::Constant;
    int64_t stepSize = 1;                     // step schedule: decay every N epochs
    double gamma = 0.1;                       // step schedule: decay factor
    double minLr = 0.0;                       // cosine schedule floor

    // --- length ---------------------------------------------------------------------------
    int64_t epochs = 1;
    int64_t maxSteps = 0;   // stop after this many optimizer steps (0 = no limit)
    // Stop at the first step whose loss, measured as stopMeasure says, is at or below this: a
    // study measuring the steps to a target needs nothing after it (unset: train to the end).
    std::optional<double> stopAtLoss;
    StopMeasure stopMeasure = StopMeasure::TrainLoss;
    // Measure the training loss (and evaluate Fashion-MNIST's test set) every N steps besides
    // each epoch's end; 0 = at epoch ends only (unset: toy and linreg every step, Fashion-MNIST 0).
    std::optional<int64_t> evalEvery;

    // --- checkpoints and branches (docs/checkpoints.md) ------------------------------------
    CheckpointPlan checkpointAt;
    std::string checkpointDir;  // where checkpoints go (step-000010.pt)
    // Start from this checkpoint: parameters, buffers, optimizer state, step, epoch, the
    // sampler's position and every RNG. world_size, batch_size, grad_accum, lr and its rule may
    // differ from the run that wrote it (a branch).
    std::string resumeFrom;

    // --- LR range test (Smith 2017; docs/checkpoints.md) ----------------------------------
    // The LR rises exponentially from lr_range_min to lr_range_max over lr_range_steps optimizer
    // steps, replacing lr, its rule, warmup and schedule; the run stops once the smoothed loss
    // exceeds 4x its minimum, and reports a range_test event.
    bool lrRangeTest = false;
    double lrRangeMin = 1e-7;
    double lrRangeMax = 10.0;
    int64_t lrRangeSteps = 100;

    // --- a batch that grows (batch_schedule.hpp) --------------------------------------------
    // constant: as set. steps: after the optimizer steps listed, the effective batch is
    // multiplied by the matching factor. smith: where the LR schedule would decay the LR, the
    // batch grows by the factor instead (Smith et al. 2018). seesaw: where it would halve the LR,
    // the LR falls by 1/sqrt(2) and the batch doubles (Meterez et al. 2025). noise: the batch
    // doubles once the measured noise scale has stayed above twice it for batch_noise_patience
    // steps. adascale: the batch stays, the LR is scaled by AdaScale's gain ratio and the
    // schedule runs on its clock tau (Johnson et al. 2020).
    BatchScheduleKind batchSchedule = BatchScheduleKind::Constant;
    std::vector<int64_t> batchScheduleSteps;    // steps: after these optimizer steps ...
    std::vector<int64_t> batchScheduleFactors;  // ... multiply the effective batch by these
    int64_t maxEffectiveBatch = 0;   // the growth's bound; 0: the training set's size
    int64_t maxBatchPerRank = 0;     // a rank's batch grows to this, accumulation beyond; 0: batch_size
    int64_t batchNoisePatience = 10; // noise: steps the noise scale must stay above twice the batch

    // --- output ---------------------------------------------------------------------------
    std::string events;     // also append the event stream to this file
    // Rank 0 writes the run's scalars as TensorBoard files: a folder of the run's own in here
    // (docs/tensorboard.md); empty: none.
    std::string tensorboardDir;

    // --- testing aid ------------------------------------------------------------------------
    std::optional<FailurePlan> failAt;
};

// Seconds the check of one's own model may take (inspect, and the first batch before a run):
// model_check_timeout, or collective_timeout when that is 0.
inline int64_t modelCheckSeconds(const Config& c)
{
    return c.modelCheckTimeout > 0 ? c.modelCheckTimeout : c.collectiveTimeout;
}

}  // namespace ddplab
