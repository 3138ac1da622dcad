// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/config.hpp"
#include "train/workload.hpp"

#include <c10/core/Device.h>

#include <memory>

namespace ddplab {

// The workload a config names, with its data loaded onto `device`, for rank `rank`. Data
// problems throw DataError naming the file; a model that does not fit its data, ConfigError.
std::unique_ptr<Workload> makeWorkload(const Config& config, const c10::Device& device, int rank);

}  // namespace ddplab
