#pragma once
// `ddplab-engine runs`: one run after another, as stdin asks, from one process. Loading
// LibTorch costs 0.65-1 s a process here, more than a short run itself; this process loads it
// once and forks a child per run, which does exactly what `ddplab-engine run` does (its own
// ranks, its own events). A study of 32 short runs no longer spends most of its time starting.
//
//   stdin:  one request per line, {"config": PATH, "events": PATH}; end of input: done. The
//           config may be the object itself ({"config": {...}}, events optional): over SSH
//           nothing but stdin reaches the engine; the child keeps it in a private 0700 folder
//           while it runs (one left by a killed process is swept by the next `runs`).
//           {"stop": true} stops the run in progress, whatever lines came before it. Every
//           line is taken in order, each at most 64 KiB; lines that arrive during a run wait
//           for it to end (up to 1 MiB of them; beyond that stdin is read again after the run).
//   stdout: hello (role "runs"); then per request the run's own events (hello ... summary or
//           error) followed by run_end {"exit_code": N}.
//
// With stopWhenInputEnds (--stop-when-input-ends, what the lab asks for), the end of stdin
// while a run is in progress means its controller has gone (the window was killed, the SSH
// connection dropped): the run is stopped like on SIGTERM, and nothing is left running.
// SIGTERM, SIGINT and SIGHUP go on to the run in progress (which stops its ranks as `run`
// does); no further request is read, and the exit code is 5. The process exits 0 at the end of
// input. A run whose process dies without a last word gets an error event written for it.

#include <functional>
#include <string>

namespace ddplab {

// Runs one request in the child: `run --config config --events events`; returns its exit code.
using RunOne = std::function<int(const std::string& configPath, const std::string& eventsPath)>;

struct RunsOptions {
    bool stopWhenInputEnds = false;
    std::string launcher;      // a launch template (launch_template.hpp); empty: the built-in launcher
    std::string runDirectory;  // where configs given on stdin are kept; empty: $TMPDIR or /tmp
};

int runMany(const RunOne& runOne, const RunsOptions& options = RunsOptions());

}  // namespace ddplab
