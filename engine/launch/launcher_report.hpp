// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a cluster launcher and its ranks say on standard error, read line by line while a run
// started by a launch template goes on (launch_template.cpp), to name the rank that failed
// first where the event stream cannot: rank 0 writes the events, and when another rank dies
// rank 0 only sees its connection go ("Connection reset by peer"). srun reports each task
// that ended badly ("srun: error: NODE: task 1: Killed", "... tasks 0-1: Exited with exit
// code 2"), and every worker says its own error before it exits ("ddplab-engine: rank 1:
// error: ..."). With --kill-on-bad-exit, srun then ends the step ("Terminating StepId=..."):
// what ends after that are its consequences, not causes, with one exception: a rank whose
// own error is a lost connection ("Connection reset by peer") did not fail first, even when
// srun reports it first; the task that srun then reports killed did. A step Slurm cancels (scancel, a time
// limit: "*** STEP 12.0 ON node CANCELLED AT ... ***") before any task failed was cancelled,
// whatever its tasks then report.

#include "core/protocol.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ddplab {

class LauncherReport {
public:
    void addLine(const std::string& line);

    // The error to add to the run's events: Slurm's cancel (exit code 5, no rank), or the first
    // task the launcher reported, when it died by a signal (it could say nothing) or is not
    // rank 0 (only rank 0 writes events; exit code 4); nothing when rank 0 failed first with
    // an error of its own, which is already the run's last event, or when no task was reported.
    std::optional<protocol::ErrorReport> firstFailure() const;

private:
    const std::string* ownError(int rank) const;  // what the rank said, or none

    struct TaskEnd {
        int rank = 0;  // of the tasks one report names, the one that said its error first
        std::string node;
        std::string reason;  // "Killed", "Exited with exit code 4"
        bool bySignal = false;
    };
    std::optional<TaskEnd> m_first;
    // A task srun reported dead by a signal after the step began ending: the cause when the
    // first task reported had only lost its connection to it.
    std::optional<TaskEnd> m_signalledLater;
    std::string m_cancelled;  // Slurm's line saying it cancelled the step, before any task failed
    bool m_stepEnding = false;
    std::vector<std::pair<int, std::string>> m_rankErrors;  // each rank's own first error, in the order they came
};

}  // namespace ddplab
