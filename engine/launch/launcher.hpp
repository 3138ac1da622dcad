#pragma once
// `ddplab-engine run`: forks world_size workers (this same program, already loaded, so the
// 0.7 s LibTorch start-up is paid once), supervises them, forwards rank 0's events, and on
// any failure or cancel stops every worker and reports which rank failed.

#include "core/config.hpp"

namespace ddplab {

class EventWriter;

// Returns the process exit code (ExitCode, core/protocol_names.hpp). Emits the final `error` event itself;
// `hello` is the caller's.
int runLauncher(const Config& config, EventWriter& events);

}  // namespace ddplab
