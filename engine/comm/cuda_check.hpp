// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A check for CUDA runtime calls that carries the call and the place, so a failing rank says
// what failed where. Only for files built with the CUDA toolkit (DDPLAB_WITH_CUDA).

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace ddplab {

inline void checkCuda(cudaError_t result, const char* call, const char* file, int line)
{
    if (result != cudaSuccess)
        throw std::runtime_error(std::string("CUDA error in ") + call + " at " + file + ":" + std::to_string(line) + ": " +
                                 cudaGetErrorString(result));
}

}  // namespace ddplab

#define DDPLAB_CUDA_CHECK(call) ::ddplab::checkCuda((call), #call, __FILE__, __LINE__)
