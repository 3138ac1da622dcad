// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The most batch per GPU that memory allows (issue 28 §1), the Advise page's and `--advise`'s
// default for "most batch per GPU": what one rank holds whatever its batch, plus what a training
// step adds per sample, against one GPU's memory (the Run-on host's GPU when it reported one),
// else the host's memory split over the ranks. Rounded down to a power of two and never below the
// base's batch per GPU (docs/advisor.md).

#include "core/config.hpp"

#include <QString>

namespace ddplab::ui {

class DeviceInventory;
struct ModelInspection;

// What a rank needs: `fixedBytes` whatever its batch (parameters, buffers, gradients, optimizer
// state, the process) and `bytesPerSample` for each sample of its batch in a training step.
struct BatchMemory {
    double fixedBytes = 0.0;
    double bytesPerSample = 0.0;  // 0: not known
    QString from;                 // in words: "inspect's measured step on your model"
};

// Your own model (workload torchscript): from inspect's report (its step's measured peak over the
// first batch's samples), nothing known before it; the built-in workloads: the engine's own
// estimate of a rank's memory at this batch and twice it (core/derived.hpp's estimatedRankBytes,
// what its memory check uses).
BatchMemory batchMemoryOf(const ddplab::Config& base, const ModelInspection* inspection);

// The memory one GPU of the plan has.
struct GpuMemory {
    double bytes = 0.0;  // 0: not known
    QString from;        // "the Run-on host's NVIDIA H100 (80 GiB)"
};

// The Run-on host's smallest GPU when the settings run on CUDA and the host reported its memory;
// else the memory available for ranks (the Run-on host's report, else this computer's: the
// engine's own reading of MemAvailable and the cgroup) split over `ranks`.
GpuMemory memoryPerGpu(const ddplab::Config& base, const DeviceInventory& runOn, int ranks);

struct MostBatch {
    qint64 batch = 0;
    QString source;  // where the number came from, one sentence with its arithmetic
    QString brief;   // the same in a few words: "what fits in the Run-on host's NVIDIA H100 (80.0 GiB)"
};

// floor((memory - fixed) / per sample), rounded down to a power of two, at most kLargest and at
// most `samplesPerGpu` (the training set over the GPUs to plan for: a larger batch would take
// less than one step an epoch; 0: not known), never below `baseBatchPerGpu`; the base's batch
// per GPU when either side is not known.
MostBatch mostBatchPerGpu(const BatchMemory& need, const GpuMemory& memory, qint64 baseBatchPerGpu, qint64 samplesPerGpu = 0);

// The training set's samples over `gpus` (0 when the set's size is not known yet: your own data
// before inspect has read it).
qint64 trainingSamplesPerGpu(const ddplab::Config& base, int gpus);

constexpr qint64 kLargestBatchPerGpu = qint64(1) << 20;

}  // namespace ddplab::ui
