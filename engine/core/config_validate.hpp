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
};

MachineResources thisMachine();

// Every problem found, each attached to the key the user should change. With `machine`, also
// what that machine cannot do: more threads than cores, `ranksHere` ranks that need more
// memory than it has available.
ConfigProblems findProblems(const Config& config, const MachineResources* machine = nullptr, int64_t ranksHere = 0);

// Throws ConfigError for the first problem.
void requireValid(const Config& config, const MachineResources* machine = nullptr, int64_t ranksHere = 0);

}  // namespace ddplab
