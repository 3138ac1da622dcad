// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which kernels a rank's LibTorch may pick. By default the fastest: on a GPU cuDNN may choose
// convolution and BatchNorm kernels that sum with atomics, in another order each run, so two runs
// of a BatchNorm CNN part within 20 steps (1.5e-2 relative on an H200, docs/gpu-validation.md) and
// a resumed run cannot be compared with a straight one bit for bit. `deterministic` asks LibTorch
// for deterministic kernels only, as torch.use_deterministic_algorithms(True) does in Python.

namespace ddplab {

struct Config;

// Call once per rank, before its first CUDA call: cuBLAS reads its workspace setting when a
// handle is made.
void chooseKernels(const Config& config);

}  // namespace ddplab
