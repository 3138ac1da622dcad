// SPDX-License-Identifier: GPL-3.0-or-later
#include "kernel_choice.hpp"

#include "core/config.hpp"

#include <ATen/Context.h>

#include <cstdlib>

namespace ddplab {

void chooseKernels(const Config& config)
{
    if (!config.deterministic)
        return;
    // cuBLAS is deterministic with a fixed workspace per stream (NVIDIA's cuBLAS docs,
    // "Results reproducibility"); LibTorch refuses deterministic mode on CUDA 10.2+ without it.
    // A value the user set stays.
    ::setenv("CUBLAS_WORKSPACE_CONFIG", ":4096:8", 0);
    at::globalContext().setDeterministicCuDNN(true);
    at::globalContext().setBenchmarkCuDNN(false);
    at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/false);
}

}  // namespace ddplab
