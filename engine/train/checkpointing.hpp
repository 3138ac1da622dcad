// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checkpoints in a run (docs/checkpoints.md): what the trainer writes after the steps
// checkpoint_at names, and how a run started with resume_from takes it all back. Writing is
// collective (every rank's RNG state travels to rank 0, which writes); reading is done by every
// rank, each restoring its own RNG.

#include "core/config.hpp"
#include "core/protocol.hpp"
#include "train/batch_growth.hpp"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace torch::optim {
class Optimizer;
}

namespace ddplab {

class Communicator;
class NoiseScaleEstimator;
class UpdateStatistics;
class Workload;

// Where training stands: after `step` optimizer steps, the next step in `epoch` at `position`
// of its padded sampler list.
struct TrainingPosition {
    int64_t step = 0;
    int64_t epoch = 0;
    int64_t position = 0;
    double samplesSeen = 0.0;
    BatchGrowth::State batch;  // batch_schedule's multiplier and clocks
};

// Everything of a run a checkpoint holds, by reference.
struct TrainingState {
    const Config& config;
    Workload& workload;
    Communicator& comm;
    const std::vector<at::Tensor>& parameters;
    torch::optim::Optimizer& optimizer;
    NoiseScaleEstimator& noiseScale;
    UpdateStatistics& updateStatistics;
};

// Rank 0, before the first step: makes checkpoint_dir (and its parents) and checks that it
// can be written. Throws ConfigError (key checkpoint_dir).
void prepareCheckpointFolder(const Config& config);

// Every rank at the same step; rank 0 writes the file. Returns what rank 0's event says.
protocol::CheckpointReport saveCheckpoint(const TrainingState& state, const TrainingPosition& position);

// Every rank, before the first step: puts resume_from's state into the model, the optimizer,
// the RNGs and the running figures, and returns where training goes on. Throws ConfigError (key
// resume_from) when the checkpoint is of another model, optimizer or data set, or damaged.
TrainingPosition resumeTraining(const TrainingState& state);

}  // namespace ddplab
