// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A checkpoint: everything a run needs to go on exactly where it stopped (docs/checkpoints.md).
// One file, written by torch::pickle_save, so Python reads it with torch.load: a dict of the
// step, the epoch and the sampler's position in it, the parameters and buffers in the
// model's order, the optimizer's state per parameter, every rank's RNG states, the noise scale's
// and the update statistics' running figures, and the config of the run that wrote it.
// Written beside its name and renamed over it (a reader never sees half a checkpoint); read back
// with every storage at its record's real size and every view checked inside it
// (torch_save_archive.hpp), so a damaged or crafted file is refused, never trusted.

#include "optim/optimizer_state.hpp"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ddplab {

struct Checkpoint {
    int64_t step = 0;      // optimizer steps taken
    int64_t epoch = 0;     // the epoch the next step belongs to
    int64_t position = 0;  // positions of that epoch's padded sampler list already consumed
    double samplesSeen = 0.0;
    // batch_schedule: [multiplier, base steps, tau, patience] (BatchGrowth::State); empty in a
    // checkpoint written before it existed.
    std::vector<double> batchGrowth;
    int64_t datasetSize = 0;  // the training examples the sampler's positions refer to
    std::string workload;   // "toy", "fashion_mnist/cnn", "torchscript": a resumed run must train the same
    std::string optimizer;  // "sgd", "adam", ...
    std::string config;     // the writing run's config, as JSON text
    std::vector<std::string> parameterNames;
    std::vector<at::Tensor> parameters;  // CPU copies
    std::vector<at::Tensor> buffers;
    std::vector<ParameterState> optimizerState;
    std::vector<at::Tensor> cpuRng;     // per rank: the default CPU generator's state
    std::vector<at::Tensor> deviceRng;  // per rank: the rank's GPU generator's state (CUDA runs), else empty
    int64_t noiseUpdates = 0;
    double noiseTrace = 0.0, noiseSquaredNorm = 0.0;
    int64_t updateCount = 0;
    at::Tensor updateMean, updateM2;  // undefined unless the workload tracks update variance
};

// The file's name for a step: "step-000010.pt".
std::string checkpointFileName(int64_t step);

// Writes `checkpoint` to `path` (beside, synced, renamed). Returns the bytes written. Throws
// OutputError (key checkpoint_dir) for a full disk or a quota, ConfigError (key checkpoint_dir)
// for a folder that cannot be written.
int64_t writeCheckpoint(const std::string& path, const Checkpoint& checkpoint);

// Throws ConfigError (key resume_from) naming the file and what is wrong with it.
Checkpoint readCheckpoint(const std::string& path);

}  // namespace ddplab
