// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checks between keys (each key's own range is checked when it is read), and of a run
// against the machine that will run it.

#include "config.hpp"
#include "config_error.hpp"

#include <cstdint>
#include <string>

namespace ddplab {

// What the machine that runs the ranks has: the engine reads its own (thisMachine()); the
// window uses what the engine's `devices` report said, for the machine the engine runs on.
struct MachineResources {
    int cpuCores = 0;                  // 0: unknown (no check)
    int64_t memoryAvailableBytes = 0;  // MemAvailable or the cgroup's headroom (host_memory.hpp); 0: unknown (no check)
    std::string memoryLimitedBy;       // what set it when it was not MemAvailable, for the message
    int64_t addressSpacePerRankBytes = 0;  // what RLIMIT_AS leaves each rank's process; 0: no limit
    // device cuda: the free memory of a GPU the ranks use and how many GPUs share them; known
    // to a rank once its GPU is chosen (launch/worker.cpp). 0: unknown (no check).
    int64_t gpuMemoryFreeBytes = 0;
    int gpus = 0;
};

MachineResources thisMachine();

// Every problem found, each attached to the key the user should change. With `machine`, also
// what that machine cannot do: more threads than cores, `ranksHere` ranks that need more
// memory than it has available (for device cuda: more than their GPUs have free).
ConfigProblems findProblems(const Config& config, const MachineResources* machine = nullptr, int64_t ranksHere = 0);

// Throws ConfigError for the first problem.
void requireValid(const Config& config, const MachineResources* machine = nullptr, int64_t ranksHere = 0);

}  // namespace ddplab
