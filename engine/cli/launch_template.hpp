// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab-engine runs --launcher TEMPLATE`: each run started by a command of the user's instead
// of the built-in launcher — torchrun on one node, srun on a cluster (docs/remote.md). The
// template is a shell command with placeholders, each replaced by one shell-quoted word:
//   {engine}  this engine's own path     {config}  the run's config file
//   {ranks}   the config's world_size
// Rank 0's events reach this process's stdout through the launcher (torchrun and srun pass
// their ranks' stdout on), so they come back like a built-in run's. The launcher's stderr is
// passed on line by line and read (launch/launcher_report.hpp): when a rank other than rank 0
// failed first, or one died without a word, a last `error` event names it. The command runs in
// its own process group; a stop (signal, stop request, end of input) goes to the whole group.

#include <string>

namespace ddplab {

// The command with its placeholders filled in ({ranks} is 1 when the config names no world_size),
// or "" with `error` set (an unknown placeholder, no {config}).
std::string expandLaunchTemplate(const std::string& launchTemplate, const std::string& enginePath, const std::string& configPath,
                                 std::string* error);

// Where the run's events file is, for the template's rank 0 (`worker` reads it when its
// config names no `events`): torchrun and srun pass the environment on to their ranks, and the
// user's config file stays as given.
inline constexpr char kRunEventsVariable[] = "DDPLAB_RUN_EVENTS";

// Runs the expanded template through /bin/sh and returns its exit code (128 + N when signal N
// ended it), 4 when it named the rank that failed; 2 when the template cannot be expanded.
// `eventsPath` (may be ""): the run's events file, which rank 0 appends to as a built-in
// run's does, and where a failure the launcher's stderr names is appended too.
int runLaunchTemplate(const std::string& launchTemplate, const std::string& configPath, const std::string& eventsPath);

}  // namespace ddplab
