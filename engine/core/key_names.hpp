// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The name of every config key, and every value of a choice key, for code that reads one by
// name: the engine's checks and reports, the window, the `config` event's readers.
// config_keys.cpp's table gives them their meaning; adding a key means a line there, a field in
// config.hpp and a name here (and its values here, for a choice).

namespace ddplab {

namespace key {
inline constexpr char kWorkload[] = "workload";
inline constexpr char kModel[] = "model";
inline constexpr char kDataDir[] = "data_dir";
inline constexpr char kNumExamples[] = "num_examples";
inline constexpr char kDim[] = "dim";
inline constexpr char kLossReduction[] = "loss_reduction";
inline constexpr char kExperiments[] = "experiments";
inline constexpr char kNoise[] = "noise";
inline constexpr char kTrainSubset[] = "train_subset";
inline constexpr char kValSubset[] = "val_subset";
inline constexpr char kModelFile[] = "model_file";
inline constexpr char kLoss[] = "loss";
inline constexpr char kTrainData[] = "train_data";
inline constexpr char kValData[] = "val_data";
inline constexpr char kSaveModel[] = "save_model";
inline constexpr char kModelCheckTimeout[] = "model_check_timeout";
inline constexpr char kWorldSize[] = "world_size";
inline constexpr char kBatchSize[] = "batch_size";
inline constexpr char kGradAccum[] = "grad_accum";
inline constexpr char kBackend[] = "backend";
inline constexpr char kDevice[] = "device";
inline constexpr char kThreads[] = "threads";
inline constexpr char kDeterministic[] = "deterministic";
inline constexpr char kBucketCapMb[] = "bucket_cap_mb";
inline constexpr char kOverlap[] = "overlap";
inline constexpr char kCollectiveTimeout[] = "collective_timeout";
inline constexpr char kShuffle[] = "shuffle";
inline constexpr char kDropLast[] = "drop_last";
inline constexpr char kSeed[] = "seed";
inline constexpr char kDataSeed[] = "data_seed";
inline constexpr char kLr[] = "lr";
inline constexpr char kLrRule[] = "lr_rule";
inline constexpr char kLrPower[] = "lr_power";
inline constexpr char kBaseBatchSize[] = "base_batch_size";
inline constexpr char kOptimizer[] = "optimizer";
inline constexpr char kMomentum[] = "momentum";
inline constexpr char kDampening[] = "dampening";
inline constexpr char kNesterov[] = "nesterov";
inline constexpr char kWeightDecay[] = "weight_decay";
inline constexpr char kWeightDecayRule[] = "weight_decay_rule";
inline constexpr char kBeta1[] = "beta1";
inline constexpr char kBeta2[] = "beta2";
inline constexpr char kEps[] = "eps";
inline constexpr char kGradAveraging[] = "grad_averaging";
inline constexpr char kTrustCoefficient[] = "trust_coefficient";
inline constexpr char kWarmupSteps[] = "warmup_steps";
inline constexpr char kWarmupEpochs[] = "warmup_epochs";
inline constexpr char kWarmupStartFactor[] = "warmup_start_factor";
inline constexpr char kSchedule[] = "schedule";
inline constexpr char kStepSize[] = "step_size";
inline constexpr char kGamma[] = "gamma";
inline constexpr char kMinLr[] = "min_lr";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kMaxSteps[] = "max_steps";
inline constexpr char kStopAtLoss[] = "stop_at_loss";
inline constexpr char kStopMeasure[] = "stop_measure";
inline constexpr char kEvalEvery[] = "eval_every";
inline constexpr char kAccumulateAsRanks[] = "accumulate_as_ranks";
inline constexpr char kCheckpointAt[] = "checkpoint_at";
inline constexpr char kCheckpointDir[] = "checkpoint_dir";
inline constexpr char kResumeFrom[] = "resume_from";
inline constexpr char kLrRangeTest[] = "lr_range_test";
inline constexpr char kLrRangeMin[] = "lr_range_min";
inline constexpr char kLrRangeMax[] = "lr_range_max";
inline constexpr char kLrRangeSteps[] = "lr_range_steps";
inline constexpr char kBatchSchedule[] = "batch_schedule";
inline constexpr char kBatchScheduleSteps[] = "batch_schedule_steps";
inline constexpr char kBatchScheduleFactors[] = "batch_schedule_factors";
inline constexpr char kMaxEffectiveBatch[] = "max_effective_batch";
inline constexpr char kMaxBatchPerRank[] = "max_batch_per_rank";
inline constexpr char kBatchNoisePatience[] = "batch_noise_patience";
inline constexpr char kEvents[] = "events";
inline constexpr char kTensorboardDir[] = "tensorboard_dir";
inline constexpr char kFailAt[] = "fail_at";
}  // namespace key

// The values of the choice keys, for code that reads one (the window's charts, names and
// checks, the engine's reports) and for the key table that accepts them.
namespace choice {
namespace workload {
inline constexpr char kToy[] = "toy";
inline constexpr char kLinreg[] = "linreg";
inline constexpr char kFashionMnist[] = "fashion_mnist";
inline constexpr char kTorchScript[] = "torchscript";
}  // namespace workload
namespace loss {
inline constexpr char kCrossEntropy[] = "cross_entropy";
inline constexpr char kMse[] = "mse";
inline constexpr char kL1[] = "l1";
inline constexpr char kBceWithLogits[] = "bce_with_logits";
inline constexpr char kModel[] = "model";
}  // namespace loss
namespace model {
inline constexpr char kMlp[] = "mlp";
inline constexpr char kCnn[] = "cnn";
inline constexpr char kMlpBatchNorm[] = "mlp_bn";
}  // namespace model
namespace loss_reduction {
inline constexpr char kSum[] = "sum";
inline constexpr char kMean[] = "mean";
}  // namespace loss_reduction
namespace backend {
inline constexpr char kAuto[] = "auto";
inline constexpr char kGloo[] = "gloo";
inline constexpr char kNccl[] = "nccl";
}  // namespace backend
namespace device {
inline constexpr char kCpu[] = "cpu";
inline constexpr char kCuda[] = "cuda";
}  // namespace device
namespace lr_rule {
inline constexpr char kNone[] = "none";
inline constexpr char kLinear[] = "linear";
inline constexpr char kSqrt[] = "sqrt";
inline constexpr char kPower[] = "power";
inline constexpr char kSde[] = "sde";
}  // namespace lr_rule
namespace optimizer {
inline constexpr char kSgd[] = "sgd";
inline constexpr char kAdam[] = "adam";
inline constexpr char kAdamW[] = "adamw";
inline constexpr char kNovoGrad[] = "novograd";
inline constexpr char kLamb[] = "lamb";
inline constexpr char kLars[] = "lars";
inline constexpr char kAdamBsi[] = "adam_bsi";
inline constexpr char kAdamWBsi[] = "adamw_bsi";
}  // namespace optimizer
namespace weight_decay_rule {
inline constexpr char kNone[] = "none";
inline constexpr char kTimescale[] = "timescale";
}  // namespace weight_decay_rule
namespace schedule {
inline constexpr char kConstant[] = "constant";
inline constexpr char kCosine[] = "cosine";
inline constexpr char kStep[] = "step";
}  // namespace schedule
namespace batch_schedule {
inline constexpr char kConstant[] = "constant";
inline constexpr char kSteps[] = "steps";
inline constexpr char kSmith[] = "smith";
inline constexpr char kSeesaw[] = "seesaw";
inline constexpr char kNoise[] = "noise";
inline constexpr char kAdaScale[] = "adascale";
}  // namespace batch_schedule
namespace stop_measure {
inline constexpr char kTrainLoss[] = "train_loss";
inline constexpr char kValLoss[] = "val_loss";
inline constexpr char kBatchLoss[] = "batch_loss";
}  // namespace stop_measure
}  // namespace choice

}  // namespace ddplab
