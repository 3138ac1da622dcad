#pragma once

#include "core/config.hpp"
#include "train/workload.hpp"

#include <c10/core/Device.h>

#include <memory>

namespace ddplab {

// The workload a config names, with its data loaded onto `device`. Data problems throw
// DataError naming the file.
std::unique_ptr<Workload> makeWorkload(const Config& config, const c10::Device& device);

}  // namespace ddplab
