// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Each workload's code, by the name of its row (core/workload_table.hpp): what makes it on a
// rank, and what the launcher reads once before the ranks start. The built-in ones are listed
// in make_workload.cpp; one whose code lives elsewhere (a test's) registers itself.

#include "core/config.hpp"
#include "core/workload_table.hpp"
#include "train/workload.hpp"

#include <c10/core/Device.h>

#include <functional>
#include <memory>

namespace ddplab {

// Makes the workload of `config` on `device` for rank `rank`.
using WorkloadMaker = std::function<std::unique_ptr<Workload>(const Config& config, const c10::Device& device, int rank)>;
// Reads its data once in the launcher, before the ranks fork (they share the pages); may be empty.
using WorkloadReader = std::function<void(const Config& config)>;

// The workload a config names, with its data loaded onto `device`, for rank `rank`. Data
// problems throw DataError naming the file; a model that does not fit its data, ConfigError.
std::unique_ptr<Workload> makeWorkload(const Config& config, const c10::Device& device, int rank);

// What the launcher reads once for `config`'s workload (Fashion-MNIST's files), before any rank
// starts: a broken file is reported then. Throws DataError.
void readWorkloadDataOnce(const Config& config);

// Adds a workload whose code is not in engine/workloads (a test's own): its row
// (core/workload_table.hpp's addWorkloadRow, with its rules) and its code. Returns its kind.
WorkloadKind registerWorkload(WorkloadTraits row, WorkloadMaker make, WorkloadReader readOnce = {});

}  // namespace ddplab
