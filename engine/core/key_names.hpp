#pragma once
// The name of every config key, for code that reads one key by name: the engine's checks and
// reports, the window, the `config` event's readers. config_keys.cpp's table gives them their
// meaning; adding a key means a line there, a field in config.hpp and a name here.

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
inline constexpr char kModelFile[] = "model_file";
inline constexpr char kLoss[] = "loss";
inline constexpr char kTrainData[] = "train_data";
inline constexpr char kValData[] = "val_data";
inline constexpr char kSaveModel[] = "save_model";
inline constexpr char kWorldSize[] = "world_size";
inline constexpr char kBatchSize[] = "batch_size";
inline constexpr char kGradAccum[] = "grad_accum";
inline constexpr char kBackend[] = "backend";
inline constexpr char kDevice[] = "device";
inline constexpr char kThreads[] = "threads";
inline constexpr char kBucketCapMb[] = "bucket_cap_mb";
inline constexpr char kOverlap[] = "overlap";
inline constexpr char kCollectiveTimeout[] = "collective_timeout";
inline constexpr char kShuffle[] = "shuffle";
inline constexpr char kDropLast[] = "drop_last";
inline constexpr char kSeed[] = "seed";
inline constexpr char kLr[] = "lr";
inline constexpr char kLrRule[] = "lr_rule";
inline constexpr char kLrPower[] = "lr_power";
inline constexpr char kBaseBatchSize[] = "base_batch_size";
inline constexpr char kOptimizer[] = "optimizer";
inline constexpr char kMomentum[] = "momentum";
inline constexpr char kDampening[] = "dampening";
inline constexpr char kNesterov[] = "nesterov";
inline constexpr char kWeightDecay[] = "weight_decay";
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
inline constexpr char kEvalEvery[] = "eval_every";
inline constexpr char kEvents[] = "events";
inline constexpr char kFailAt[] = "fail_at";
}  // namespace key

}  // namespace ddplab
