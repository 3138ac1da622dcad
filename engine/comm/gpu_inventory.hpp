// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `ddplab-engine devices` reports: GPUs, which backends were built, LibTorch's version.

#include "core/json.hpp"

#include <c10/core/Device.h>

#include <cstdint>

namespace ddplab {

Json deviceReport();

// The free memory of `device` (a CUDA device, made current by the caller); 0 when this engine
// was built without the CUDA toolkit or the runtime cannot say.
int64_t gpuMemoryFreeBytes(const c10::Device& device);

}  // namespace ddplab
