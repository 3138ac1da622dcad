// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// fork() for the engine's children (ranks, a run of `runs`, the model check, a launch
// template's shell), with what each needs done first in the child, in one place: die with
// the parent even when it is killed with SIGKILL (and go at once when it has gone already),
// signal dispositions back to what a child should have, stdin (and stdout) away from what the
// parent reads and writes.

#include <csignal>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ddplab {

struct ChildSetup {
    int deathSignal = SIGKILL;           // sent when the parent dies (PR_SET_PDEATHSIG)
    int exitWhenOrphaned = 0;            // the child's exit code when the parent went before it began
    std::string name;                    // shown by ps and top (PR_SET_NAME); empty: the parent's
    std::vector<int> defaultSignals;     // back to SIG_DFL
    std::vector<int> ignoredSignals;     // to SIG_IGN
    bool stdinFromNull = false;          // stdin from /dev/null
    bool stdoutToNull = false;           // stdout to /dev/null
    bool ownProcessGroup = false;        // setpgid(0, 0): a group the parent signals as one
};

// Returns 0 in the child, once `setup` is done, and the child's pid in the parent. Throws
// std::runtime_error("cannot start " + what + ": " + the reason) when fork fails.
pid_t forkChild(const ChildSetup& setup, const std::string& what);

}  // namespace ddplab
