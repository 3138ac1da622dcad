// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The `inspection` event: what `ddplab-engine inspect` found out about the user's own model and
// data (workload torchscript) by loading both and running the first batch through a training
// step: the model's parameters and buffers, each data set's samples, shapes and dtypes, the
// first batch's output and how it fits the loss, an estimate of memory per rank, and what
// follows from the number of samples (steps per epoch). The window shows it beside the
// effective batch and LR; docs/protocol.md describes every field.

#include "config.hpp"
#include "json.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddplab::protocol {

struct TensorFacts {
    std::vector<int64_t> shape;
    std::string dtype;  // "float32", "int64", "uint8", ...
    int64_t bytes = 0;
};

struct NamedTensorFacts {
    std::string name;  // "layer1.0.bn1.running_mean"
    TensorFacts tensor;
    bool trainable = true;  // parameters: requires_grad
};

struct DataFacts {
    std::string path;
    std::string format;  // inspection::kFormatTorchSave or kFormatNpyFolder
    int64_t samples = 0;
    TensorFacts inputs;   // the whole set: [samples, ...]
    TensorFacts targets;
};

struct MemoryEstimate {
    int64_t parameters = 0;
    int64_t buffers = 0;
    int64_t gradients = 0;       // the gradient buckets
    int64_t optimizerState = 0;  // momentum, Adam's moments
    int64_t step = 0;            // a forward and backward on one batch at its peak, measured
    int64_t process = 0;         // the process itself and the sampler's indices
    int64_t data = 0;            // train_data and val_data
    bool dataShared = true;      // local runs read the data once for all ranks

    int64_t perRank() const { return parameters + buffers + gradients + optimizerState + step + process; }
};

struct InspectionReport {
    std::string modelFile;
    std::string forwardSignature;
    std::string torchVersion;
    std::vector<NamedTensorFacts> parameters;  // registration order
    std::vector<NamedTensorFacts> buffers;
    DataFacts train;
    std::optional<DataFacts> val;
    TensorFacts batchInputs;  // the first batch
    TensorFacts batchTargets;
    TensorFacts output;       // forward's on it
    double firstLoss = 0.0;
    double stepSeconds = 0.0;  // a forward and backward on the first batch: the median of stepTakes
    std::vector<double> stepTakes;  // its timed takes in order, after an untimed first (allocations)
    double stepCpuSeconds = 0.0;       // the median of stepCpuTakes
    std::vector<double> stepCpuTakes;  // the CPU seconds of each take (one thread)
    std::string lossFit;      // "10 class scores per sample, against class indices"
    std::optional<int64_t> classes;
    MemoryEstimate memory;
    // Submodules that couple or randomise a batch's samples, by kind (their class names): the
    // advisor's cautions are about the model's own layers.
    int64_t batchNormLayers = 0;  // BatchNorm1d/2d/3d, SyncBatchNorm
    int64_t dropoutLayers = 0;    // Dropout, Dropout1d/2d/3d, AlphaDropout
    int64_t layerNormLayers = 0;  // LayerNorm
};

// The layer counts of a model from its submodules' class names.
void countLayers(const std::vector<std::string>& moduleKinds, InspectionReport& report);

// `config` with trainSamples filled in: its loss, effective batch, LR and steps go along.
Json inspectionEvent(const Config& config, const InspectionReport& report);

}  // namespace ddplab::protocol
