#pragma once
// What `ddplab-engine devices` reports: GPUs, which backends were built, LibTorch's version.

#include "core/json.hpp"

namespace ddplab {

Json deviceReport();

}  // namespace ddplab
