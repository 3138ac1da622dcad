// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The training loop every rank runs: sample its shard, forward/backward, synchronise
// gradients as DDP does, step the optimizer at the scheduled LR, reduce the metrics, and (on
// rank 0) report each step, evaluation and epoch. Returns the summary, which rank 0 emits as
// the last event.

#include "core/config.hpp"
#include "core/json.hpp"
#include "core/protocol.hpp"
#include "core/range_test.hpp"
#include "train/batch_growth.hpp"
#include "train/noise_scale.hpp"
#include "update_statistics.hpp"
#include "step_plan.hpp"
#include "workload.hpp"

#include <ATen/core/Tensor.h>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace torch::optim {
class Optimizer;
}

namespace ddplab {

class BufferSync;
class Communicator;
class EventWriter;
class GradientSync;
class StepTimer;
struct TrainingState;

class Trainer {
public:
    // `events` is rank 0's event stream, nullptr on the other ranks. Rank 0 emits the
    // `config` event once the model is known, from `facts` completed with its parameters and
    // buckets. Throws OutputError when the events file cannot be written (a full disk).
    Trainer(const Config& config, Workload& workload, Communicator& comm, EventWriter* events,
            protocol::RunFacts facts = {});
    ~Trainer();

    // Throws OutOfMemory when an allocation fails (out_of_memory.hpp).
    Json run();

private:
    Json train();
    // Everything one optimizer step measured, reduced over ranks where it says so.
    struct StepRecord {
        int64_t step = 0;  // 1-based, after the step
        int64_t epoch = 0;
        double lr = 0.0;
        double loss = 0.0;      // over all ranks' samples
        double accuracy = 0.0;  // classifiers
        std::optional<EvalResult> training;  // the training loss without sampling noise, where measured
        double samples = 0.0;   // all ranks
        int64_t effectiveBatch = 0;      // planned for the step
        std::optional<double> gain, tau; // adascale
        double gradNorm = 0.0;  // of the averaged gradient
        double gradScale = 1.0; // gradient / mean per-sample gradient (summed losses)
        double updateMean = 0.0, updateVariance = 0.0;  // workloads that track updates
        std::optional<double> weightMean;  // toy
        double dataMs = 0.0, computeMs = 0.0, commMs = 0.0, optimizerMs = 0.0, stepMs = 0.0;
        double wallSeconds = 0.0;  // since the run's first step began
    };

    struct EpochTally {
        int64_t steps = 0;
        double samples = 0.0, lossSum = 0.0, correct = 0.0, seconds = 0.0;
    };

    void emitConfig();
    void stopOnMissingGradients() const;
    StepRecord trainStep(const MicroBatches& microBatches, int64_t epoch);
    // batch_schedule: after a step, advance its clocks and, unless the run ends here, grow the
    // batch where the schedule says; true when it grew.
    bool growBatch(const StepRecord& record, bool runGoesOn);
    void forwardBackward(const MicroBatches& microBatches, BatchResult& local);
    TrainingState trainingState();
    void evaluateAndReport(int64_t epoch);
    void measureTraining(StepRecord& record);
    bool meetsTarget(const StepRecord& record) const;
    protocol::StepReport stepReport(const StepRecord& record) const;
    protocol::EpochReport epochReport(int64_t epoch, const EpochTally& tally) const;
    protocol::SummaryReport summaryReport(const StepRecord& last, double trainingSeconds, double samplesSeen,
                                          std::chrono::steady_clock::time_point start) const;
    void emit(const Json& event, bool batched = false);

    const Config& m_config;
    Workload& m_workload;
    Communicator& m_comm;
    EventWriter* m_events;
    protocol::RunFacts m_facts;

    std::vector<at::Tensor> m_parameters;
    int64_t m_parameterCount = 0;
    std::unique_ptr<torch::optim::Optimizer> m_optimizer;
    std::unique_ptr<GradientSync> m_sync;
    std::unique_ptr<BufferSync> m_bufferSync;  // models with buffers
    std::unique_ptr<StepTimer> m_timer;
    UpdateStatistics m_updateStats;
    NoiseScaleEstimator m_noiseScale;
    BatchGrowth m_growth;
    std::optional<protocol::EvalReport> m_lastEval;
    std::optional<EvalResult> m_lastTraining;
    std::optional<RangeTest> m_rangeTest;  // lr_range_test
    int64_t m_step = 0;
    int64_t m_firstStep = 0;  // the step training began after: 0, or a checkpoint's
    int64_t m_lastEvalStep = -1;
};

}  // namespace ddplab
