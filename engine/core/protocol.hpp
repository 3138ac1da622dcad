// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The event protocol (engine -> lab): one builder per event type, and reading a line's type.
// The names themselves, the version and the exit codes are protocol_names.hpp's.

#include "config.hpp"
#include "shard_request.hpp"
#include "json.hpp"
#include "protocol_names.hpp"

#include <cstdint>
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ddplab::protocol {

// ---------------------------------------------------------------------------------------
// Builders: the engine writes every event through one of these.
// ---------------------------------------------------------------------------------------

// role::kLauncher (`run`), role::kWorker (`worker` under torchrun/Slurm) or role::kRuns.
Json helloEvent(const std::string& role);

struct ErrorReport {
    std::string message;
    std::optional<int64_t> rank;
    std::string key;    // the config key at fault, "" when none
    int exitCode = 0;   // 0: not stated
    int64_t monotonicNs = 0;  // workers: when (the launcher names the rank that failed first)
};
Json errorEvent(const ErrorReport& report);

// `runs`: one run's events have ended; how its process ended.
Json runEndEvent(int exitCode);

// What only a running rank knows about its run, beside the config itself.
struct RunFacts {
    BackendKind backend = BackendKind::Gloo;
    std::string backendReason;
    std::string deviceName;
    int threadsPerRank = 1;
    std::string threadsReason;  // how threads_per_rank was chosen
    std::string launchedBy;
    std::string torchVersion;
    int64_t parameterCount = 0;
    int64_t parameterTensors = 0;
    struct Bucket {
        std::vector<size_t> parameters;
        int64_t elements = 0;
    };
    std::vector<Bucket> buckets;
    std::string resumedFrom;  // resume_from, as read
    int64_t resumedStep = 0;  // the optimizer step it was written after
};
// The resolved config (every key, derived defaults filled in) and what follows from it.
Json configEvent(const Config& config, const RunFacts& facts);

struct StepReport {
    int64_t step = 0;
    int64_t epoch = 0;
    double lr = 0.0;
    double loss = 0.0;
    std::optional<double> accuracy;  // classifiers
    // The loss over the training set (a fixed set of it), at steps where it was measured.
    std::optional<double> trainLoss, trainAccuracy;
    double samples = 0.0;
    int64_t effectiveBatch = 0;              // the batch this step was planned with (all ranks, all micro-batches)
    std::optional<double> gain, tau;         // batch_schedule adascale
    double gradNorm = 0.0;
    std::optional<double> updateMean;        // workloads that track updates
    std::optional<double> updateVariance;    // ... with experiments >= 2
    std::optional<double> noiseScale;        // world_size >= 2
    std::optional<double> updateVarianceEstimate;
    std::optional<double> weightMean;        // toy
    double dataMs = 0.0, computeMs = 0.0, commMs = 0.0, optimizerMs = 0.0, stepMs = 0.0;
    double wallSeconds = 0.0;  // since the run's first step began, at the end of this one
};
Json stepEvent(const StepReport& report);

struct EvalReport {
    int64_t step = 0;
    int64_t epoch = 0;
    double loss = 0.0;
    std::optional<double> accuracy;  // classifiers
    int64_t samples = 0;
};
Json evalEvent(const EvalReport& report);

struct EpochReport {
    int64_t epoch = 0;
    int64_t step = 0;
    int64_t steps = 0;
    double samples = 0.0;
    double loss = 0.0;
    std::optional<double> accuracy;
    double seconds = 0.0;
};
Json epochEvent(const EpochReport& report);

struct SummaryReport {
    int64_t steps = 0;
    int64_t epochs = 0;
    double loss = 0.0;
    std::optional<double> accuracy;
    std::optional<double> trainLoss, trainAccuracy;  // the last measurement's
    std::optional<EvalReport> lastEval;
    std::optional<double> updateMean, updateVariance;
    std::optional<int64_t> updateCount;
    std::optional<double> noiseScale, gradVarianceTrace;
    std::optional<double> weightMean;
    double samples = 0.0;
    double trainSeconds = 0.0;
    double wallSeconds = 0.0;
};
Json summaryEvent(const SummaryReport& report);

// checkpoint_at: rank 0 wrote the checkpoint after `step` to `path`.
struct CheckpointReport {
    int64_t step = 0;
    int64_t epoch = 0;
    std::string path;
    int64_t bytes = 0;
};
Json checkpointEvent(const CheckpointReport& report);

// batch_schedule: after optimizer step `step` the effective batch grew from `previous` to
// `effectiveBatch`, each rank carrying `batchSize` x `gradAccum`; `reason` is batch_reason's,
// with the smoothed noise scale that passed twice the batch under noise.
struct BatchChange {
    int64_t step = 0;
    int64_t previous = 0;
    int64_t effectiveBatch = 0;
    int64_t batchSize = 0;
    int64_t gradAccum = 1;
    std::string reason;
    std::optional<double> noiseScale;
};
Json batchChangedEvent(const BatchChange& change);

// lr_range_test's result (range_test.hpp computes it).
struct RangeTestReport {
    struct Point {
        double lr = 0.0, loss = 0.0, smoothedLoss = 0.0;
    };
    std::vector<Point> points;
    std::string stopReason;
    std::optional<double> steepest, minimumTenth, valley;
    double minimumLr = 0.0, minimumLoss = 0.0;
};
Json rangeTestEvent(const RangeTestReport& report);

// `ddplab-engine shard`: every rank's sample indices per iteration (shard_command computes them).
struct ShardListing {
    ShardRequest request;
    int64_t samplesPerRank = 0;
    int64_t iterations = 0;
    int64_t listedIterations = 0;
    std::vector<std::vector<std::vector<int64_t>>> ranks;  // [rank][iteration] -> indices
    std::vector<std::array<int64_t, 3>> padding;            // [rank, iteration, position] of each repeat
    std::vector<int64_t> dropped;                           // sorted
};
Json shardReport(const ShardListing& listing);

// `ddplab-engine keys`: every config key, its flag, type, default, what is allowed and its help.
Json keysReport();

std::string engineVersion();

}  // namespace ddplab::protocol
