// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The user's own data set (workload torchscript): inputs and targets, samples along the first
// dimension, from a file written by torch.save({"inputs": X, "targets": Y}, PATH) (read with
// LibTorch's own unpickler, torch::jit::pickle_load) or from a folder holding inputs.npy and
// targets.npy (npy_file.hpp). Read and checked once per process and kept: the launcher reads
// them before it forks, so its ranks share the pages and a bad file is reported before any
// rank starts. Reading allocates and copies only: no tensor operation runs (none may before
// the fork, docs/architecture.md).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace ddplab {

enum class DataFormat { TorchSave, NpyFolder };

struct TensorData {
    std::string path;  // as read (a leading ~/ expanded)
    DataFormat format = DataFormat::TorchSave;
    at::Tensor inputs;   // [N, ...], CPU
    at::Tensor targets;  // [N, ...], CPU
    int64_t bytes = 0;   // of both tensors

    int64_t samples() const { return inputs.size(0); }
};

// `key` is the config key that named the file (train_data, val_data): every message names it
// and the file. Throws DataError for a missing, unreadable, malformed or non-finite data set,
// ConfigError when the machine lacks the memory to read it.
const TensorData& loadTensorData(const std::string& path, const std::string& key);

}  // namespace ddplab
