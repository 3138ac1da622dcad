// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every name that crosses the process boundary between the engine and the lab, and the exit
// codes: the protocol version, every event type and field name, the fields of the `devices`,
// `shard` and `keys` reports. No other source file spells one of them (tests/setup checks);
// the engine builds events through protocol.hpp, the window reads them through these names.
// Config keys travel under their own names (key_names.hpp). docs/protocol.md describes them
// all; bump kProtocolVersion when a field changes meaning or a reader must learn something.
// Light on purpose: no JSON, no Qt, so every file may include it.

namespace ddplab {

constexpr int kProtocolVersion = 3;

// ---------------------------------------------------------------------------------------
// Exit status of every ddplab-engine subcommand.
// ---------------------------------------------------------------------------------------
enum ExitCode : int {
    kExitOk = 0,
    kExitInternal = 1,      // a bug: an unexpected exception in the engine itself
    kExitInvalidInput = 2,  // bad flag, config key or value, unreadable config, a machine that cannot run it
    kExitDataError = 3,     // a data file is missing, truncated or corrupt
    kExitRankFailed = 4,    // a worker rank failed, was killed or stopped making progress; the run was stopped
    kExitCancelled = 5,     // stopped by SIGINT/SIGTERM/SIGHUP, or the reader of stdout went away
    kExitOutputError = 6,   // an output (the events file, save_model) could not be written (a full disk); the run was stopped
};

// Each exit code in a few words, for --help and for messages that name one.
struct ExitCodeMeaning {
    ExitCode code;
    const char* meaning;
};
inline constexpr ExitCodeMeaning kExitCodeMeanings[] = {
    {kExitOk, "ok"},
    {kExitInternal, "internal error"},
    {kExitInvalidInput, "invalid input"},
    {kExitDataError, "data error"},
    {kExitRankFailed, "a rank failed"},
    {kExitCancelled, "cancelled"},
    {kExitOutputError, "the events file could not be written"},
};

namespace protocol {

// ---------------------------------------------------------------------------------------
// Event types
// ---------------------------------------------------------------------------------------
namespace type {
inline constexpr char kHello[] = "hello";
inline constexpr char kConfig[] = "config";
inline constexpr char kStep[] = "step";
inline constexpr char kEval[] = "eval";
inline constexpr char kEpoch[] = "epoch";
inline constexpr char kSummary[] = "summary";
inline constexpr char kCheckpoint[] = "checkpoint";  // checkpoint_at: rank 0 wrote one
inline constexpr char kRangeTest[] = "range_test";   // lr_range_test: the curve and its suggestions, before the summary
inline constexpr char kBatchChanged[] = "batch_changed";  // batch_schedule: the effective batch grew after a step
inline constexpr char kError[] = "error";
inline constexpr char kRunEnd[] = "run_end";  // `runs` only: after each run's own events
inline constexpr char kInspection[] = "inspection";  // `inspect`: the user's model and data, checked
}  // namespace type

// hello's `role`: which subcommand speaks.
namespace role {
inline constexpr char kLauncher[] = "launcher";  // `run`
inline constexpr char kWorker[] = "worker";      // `worker`, under torchrun or Slurm
inline constexpr char kRuns[] = "runs";          // `runs`: one run after another from stdin
}  // namespace role

// `ddplab-engine runs` reads one request per line on stdin: {"config": PATH, "events": PATH}.
namespace request {
inline constexpr char kConfig[] = "config";  // a path, or the config itself (an object: remote runs)
inline constexpr char kEvents[] = "events";
inline constexpr char kStop[] = "stop";      // {"stop": true}: stop the run in progress
}  // namespace request

// ---------------------------------------------------------------------------------------
// Field names (an event's own; config keys are config_keys.hpp's)
// ---------------------------------------------------------------------------------------
namespace field {
inline constexpr char kType[] = "type";
// hello
inline constexpr char kProtocol[] = "protocol";
inline constexpr char kEngine[] = "engine";
inline constexpr char kVersion[] = "version";
inline constexpr char kRole[] = "role";
inline constexpr char kPid[] = "pid";
// error
inline constexpr char kMessage[] = "message";
inline constexpr char kKey[] = "key";
inline constexpr char kRank[] = "rank";
inline constexpr char kExitCode[] = "exit_code";
inline constexpr char kMonotonicNs[] = "monotonic_ns";
// config: what follows from the settings
inline constexpr char kEffectiveBatchSize[] = "effective_batch_size";
inline constexpr char kLrEffective[] = "lr_effective";
inline constexpr char kLrScale[] = "lr_scale";
inline constexpr char kLrFormula[] = "lr_formula";
inline constexpr char kBeta1Effective[] = "beta1_effective";
inline constexpr char kBeta2Effective[] = "beta2_effective";
inline constexpr char kEpsEffective[] = "eps_effective";
inline constexpr char kWeightDecayEffective[] = "weight_decay_effective";
inline constexpr char kWeightDecayTimescale[] = "weight_decay_timescale_epochs";
inline constexpr char kDatasetSize[] = "dataset_size";
inline constexpr char kStepsPerEpoch[] = "steps_per_epoch";
inline constexpr char kTotalSteps[] = "total_steps";
inline constexpr char kPlannedSteps[] = "planned_steps";  // total_steps as batch_schedule grows the batch
inline constexpr char kBatchPlan[] = "batch_plan";        // steps, smith, seesaw: [{step, effective_batch}]
inline constexpr char kSamplesPerRank[] = "samples_per_rank";
inline constexpr char kPaddedSamples[] = "padded_samples";
inline constexpr char kDroppedSamples[] = "dropped_samples";
inline constexpr char kWarmupStepsResolved[] = "warmup_steps_resolved";
inline constexpr char kBackendReason[] = "backend_reason";
inline constexpr char kDeviceName[] = "device_name";
inline constexpr char kThreadsPerRank[] = "threads_per_rank";
inline constexpr char kThreadsReason[] = "threads_reason";
inline constexpr char kLaunchedBy[] = "launched_by";
inline constexpr char kTorchVersion[] = "torch_version";
inline constexpr char kParameterCount[] = "parameter_count";
inline constexpr char kParameterTensors[] = "parameter_tensors";
inline constexpr char kBuckets[] = "buckets";
inline constexpr char kParameters[] = "parameters";
inline constexpr char kElements[] = "elements";
inline constexpr char kResumedFrom[] = "resumed_from";  // the checkpoint a resumed run started from
inline constexpr char kResumedStep[] = "resumed_step";
// checkpoint
inline constexpr char kPath[] = "path";
inline constexpr char kBytes[] = "bytes";
// range_test
inline constexpr char kPoints[] = "points";             // [{lr, loss, smoothed_loss}], one per step
inline constexpr char kSmoothedLoss[] = "smoothed_loss";
inline constexpr char kStopReason[] = "stop_reason";    // "diverged", "not_finite" or "steps"
inline constexpr char kSuggestions[] = "suggestions";   // {steepest, minimum_tenth, valley}: LRs, or null
inline constexpr char kSteepest[] = "steepest";
inline constexpr char kMinimumTenth[] = "minimum_tenth";
inline constexpr char kValley[] = "valley";
inline constexpr char kMinimumLr[] = "minimum_lr";      // the LR at the smoothed loss's minimum
inline constexpr char kMinimumLoss[] = "minimum_loss";
// step, eval, epoch, summary
inline constexpr char kStep[] = "step";
inline constexpr char kEpoch[] = "epoch";
inline constexpr char kLr[] = "lr";
inline constexpr char kLoss[] = "loss";
inline constexpr char kAccuracy[] = "accuracy";
inline constexpr char kTrainLoss[] = "train_loss";          // over the whole training set (a fixed set)
inline constexpr char kTrainAccuracy[] = "train_accuracy";
inline constexpr char kSamples[] = "samples";
inline constexpr char kGradNorm[] = "grad_norm";
inline constexpr char kUpdateMean[] = "update_mean";
inline constexpr char kUpdateVar[] = "update_var";
inline constexpr char kNoiseScale[] = "noise_scale";
inline constexpr char kUpdateVarEstimate[] = "update_var_estimate";
inline constexpr char kWMean[] = "w_mean";
inline constexpr char kSamplesPerSec[] = "samples_per_sec";
inline constexpr char kDataMs[] = "data_ms";
inline constexpr char kComputeMs[] = "compute_ms";
inline constexpr char kCommMs[] = "comm_ms";
inline constexpr char kOptimizerMs[] = "optimizer_ms";
inline constexpr char kStepMs[] = "step_ms";
inline constexpr char kValLoss[] = "val_loss";
inline constexpr char kValAccuracy[] = "val_accuracy";
inline constexpr char kSteps[] = "steps";
inline constexpr char kEpochs[] = "epochs";
inline constexpr char kTrainS[] = "train_s";
inline constexpr char kWallS[] = "wall_s";
inline constexpr char kUpdateCount[] = "update_count";
inline constexpr char kGradVarTrace[] = "grad_var_trace";
// batch_schedule (step, batch_changed)
inline constexpr char kEffectiveBatch[] = "effective_batch";
inline constexpr char kGain[] = "gain";  // adascale: the gain ratio r of the step
inline constexpr char kTau[] = "tau";    // adascale: the schedule's clock after the step
inline constexpr char kPreviousEffectiveBatch[] = "previous_effective_batch";
inline constexpr char kBatchSize[] = "batch_size";
inline constexpr char kGradAccum[] = "grad_accum";
inline constexpr char kReason[] = "reason";
}  // namespace field

// batch_changed's `reason`.
namespace batch_reason {
inline constexpr char kSchedule[] = "schedule";        // steps, smith, seesaw: the schedule called for it
inline constexpr char kNoiseScale[] = "noise_scale";   // noise: the measured noise scale passed twice the batch
}  // namespace batch_reason

// range_test's `stop_reason`.
namespace stop_reason {
inline constexpr char kDiverged[] = "diverged";      // the smoothed loss passed 4x its minimum
inline constexpr char kNotFinite[] = "not_finite";   // a loss was NaN or infinite
inline constexpr char kSteps[] = "steps";            // every lr_range_steps step ran
inline constexpr char kStopped[] = "stopped";        // a target or max_steps ended it first
}  // namespace stop_reason

// A checkpoint's entries (docs/checkpoints.md): Python reads them with torch.load.
namespace checkpoint {
inline constexpr char kFormat[] = "format";
inline constexpr char kFormatName[] = "ddplab-checkpoint";
inline constexpr char kVersion[] = "version";
inline constexpr char kStep[] = "step";
inline constexpr char kEpoch[] = "epoch";
inline constexpr char kPosition[] = "position";
inline constexpr char kSamplesSeen[] = "samples_seen";
inline constexpr char kBatchGrowth[] = "batch_growth";  // [multiplier, base steps, tau, patience]
inline constexpr char kDatasetSize[] = "dataset_size";
inline constexpr char kWorkload[] = "workload";
inline constexpr char kOptimizer[] = "optimizer";
inline constexpr char kConfig[] = "config";
inline constexpr char kParameterNames[] = "parameter_names";
inline constexpr char kParameters[] = "parameters";
inline constexpr char kBuffers[] = "buffers";
inline constexpr char kOptimizerState[] = "optimizer_state";
inline constexpr char kCpuRng[] = "cpu_rng";
inline constexpr char kDeviceRng[] = "device_rng";
inline constexpr char kNoiseScale[] = "noise_scale";  // [updates, trace, squared norm]
inline constexpr char kUpdateCount[] = "update_count";
inline constexpr char kUpdateMean[] = "update_mean";
inline constexpr char kUpdateM2[] = "update_m2";
// optimizer_state's entries per parameter: PyTorch's names where PyTorch has the optimizer
inline constexpr char kStateStep[] = "step";
inline constexpr char kMomentumBuffer[] = "momentum_buffer";
inline constexpr char kExpAvg[] = "exp_avg";
inline constexpr char kExpAvgSq[] = "exp_avg_sq";
inline constexpr char kMaxExpAvgSq[] = "max_exp_avg_sq";
inline constexpr char kFirst[] = "first";
inline constexpr char kSecond[] = "second";
}  // namespace checkpoint

// What an error event's `key` names when it is no config key.
namespace errorKey {
inline constexpr char kConfig[] = "config";            // the config file as a whole
inline constexpr char kEnvironment[] = "environment";  // torchrun's or Slurm's variables, TMPDIR, the store's port
}  // namespace errorKey

// ---------------------------------------------------------------------------------------
// `ddplab-engine inspect`: the `inspection` event (protocol_inspection.hpp). Beside these it
// carries model_file, loss, train_data and val_data under their config keys, and
// torch_version, parameter_count, parameter_tensors, parameters, samples, dataset_size,
// steps_per_epoch, total_steps, effective_batch_size and lr_effective as the config event does.
// ---------------------------------------------------------------------------------------
namespace inspection {
inline constexpr char kForwardSignature[] = "forward_signature";  // "forward(Tensor x) -> Tensor"
inline constexpr char kParameterBytes[] = "parameter_bytes";
inline constexpr char kFrozenParameterCount[] = "frozen_parameter_count";
inline constexpr char kBuffers[] = "buffers";
inline constexpr char kBufferBytes[] = "buffer_bytes";
inline constexpr char kName[] = "name";
inline constexpr char kShape[] = "shape";
inline constexpr char kDtype[] = "dtype";
inline constexpr char kTrainable[] = "trainable";
// train_data and val_data
inline constexpr char kPath[] = "path";
inline constexpr char kFormat[] = "format";
inline constexpr char kFormatTorchSave[] = "torch_save";  // a torch.save({"inputs": X, "targets": Y}) file
inline constexpr char kFormatNpyFolder[] = "npy_folder";  // a folder holding inputs.npy and targets.npy
inline constexpr char kInputsShape[] = "inputs_shape";
inline constexpr char kInputsDtype[] = "inputs_dtype";
inline constexpr char kTargetsShape[] = "targets_shape";
inline constexpr char kTargetsDtype[] = "targets_dtype";
inline constexpr char kBytes[] = "bytes";
// the first batch, run once through forward
inline constexpr char kFirstBatch[] = "first_batch";
inline constexpr char kOutputShape[] = "output_shape";
inline constexpr char kOutputDtype[] = "output_dtype";
inline constexpr char kLossFit[] = "loss_fit";  // a sentence: what the loss compares
inline constexpr char kClasses[] = "classes";   // cross_entropy
// a training step's forward and backward on the first batch, the median of its timed takes (after
// a first that pays for allocations); the takes themselves, in the order taken, so that the ui can
// count inspect's own time
inline constexpr char kStepSeconds[] = "step_seconds";
inline constexpr char kStepTakes[] = "step_takes";
// the same takes in the CPU seconds inspect's one thread spent on them, and their median: the
// step's work without the moment's wait for a core, which a study's estimate rests on
inline constexpr char kStepCpuSeconds[] = "step_cpu_seconds";
inline constexpr char kStepCpuTakes[] = "step_cpu_takes";
// memory per rank, estimated
inline constexpr char kMemory[] = "memory";
inline constexpr char kPerRankBytes[] = "per_rank_bytes";
inline constexpr char kGradientBytes[] = "gradient_bytes";
inline constexpr char kOptimizerBytes[] = "optimizer_bytes";
inline constexpr char kStepBytes[] = "step_bytes";        // one forward and backward, measured
inline constexpr char kProcessBytes[] = "process_bytes";  // the process and the sampler's indices
inline constexpr char kDataBytes[] = "data_bytes";        // train_data and val_data
inline constexpr char kDataShared[] = "data_shared";      // local runs: one copy for all ranks
// the model's layers that couple or randomise a batch's samples, counted by kind
inline constexpr char kLayers[] = "layers";
inline constexpr char kBatchNorm[] = "batch_norm";
inline constexpr char kDropout[] = "dropout";
inline constexpr char kLayerNorm[] = "layer_norm";
}  // namespace inspection

// ---------------------------------------------------------------------------------------
// `ddplab-engine keys`: the key table for tools (docs/configuration.md is made from it)
// ---------------------------------------------------------------------------------------
namespace keys {
inline constexpr char kKey[] = "key";
inline constexpr char kFlag[] = "flag";
inline constexpr char kType[] = "type";
inline constexpr char kDefault[] = "default";
inline constexpr char kAllowed[] = "allowed";
inline constexpr char kHelp[] = "help";
inline constexpr char kChoices[] = "choices";
}  // namespace keys

// ---------------------------------------------------------------------------------------
// `ddplab-engine devices`
// ---------------------------------------------------------------------------------------
namespace devices {
inline constexpr char kEngineVersion[] = "engine_version";
inline constexpr char kProtocol[] = "protocol";
inline constexpr char kTorchVersion[] = "torch_version";
inline constexpr char kCpuCores[] = "cpu_cores";
inline constexpr char kMemoryAvailableBytes[] = "memory_available_bytes";
inline constexpr char kGloo[] = "gloo";
inline constexpr char kNcclBuilt[] = "nccl_built";
inline constexpr char kNcclVersion[] = "nccl_version";
inline constexpr char kTorchCuda[] = "torch_cuda";
inline constexpr char kCudaDeviceCount[] = "cuda_device_count";
inline constexpr char kCudaDevices[] = "cuda_devices";
inline constexpr char kIndex[] = "index";
inline constexpr char kName[] = "name";
inline constexpr char kMemoryMib[] = "memory_mib";
inline constexpr char kComputeCapability[] = "compute_capability";
inline constexpr char kMaxLocalRanks[] = "max_local_ranks";
inline constexpr char kNote[] = "note";
}  // namespace devices

// ---------------------------------------------------------------------------------------
// `ddplab-engine shard` (its settings use the config keys' names)
// ---------------------------------------------------------------------------------------
namespace shard {
inline constexpr char kEpoch[] = "epoch";
inline constexpr char kSamplesPerRank[] = "samples_per_rank";
inline constexpr char kIterations[] = "iterations";
inline constexpr char kListedIterations[] = "listed_iterations";  // fewer than iterations: a summary
inline constexpr char kRanks[] = "ranks";
inline constexpr char kPadding[] = "padding";
inline constexpr char kDropped[] = "dropped";
}  // namespace shard

}  // namespace protocol
}  // namespace ddplab
