// SPDX-License-Identifier: GPL-3.0-or-later
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

#include "core/line_reader.hpp"

#include <cstddef>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>

namespace ddplab {

// Runs one request in the child: `run --config config --events events`; returns its exit code.
using RunOne = std::function<int(const std::string& configPath, const std::string& eventsPath)>;

struct RunsOptions {
    bool stopWhenInputEnds = false;
    std::string launcher;      // a launch template (launch_template.hpp); empty: the built-in launcher
    std::string runDirectory;  // where configs given on stdin are kept; empty: $TMPDIR or /tmp
};

// A request is two paths or a config object: anything longer is not one (and is not held in memory).
constexpr size_t kMaxRequestBytes = 64 * 1024;

// One line of stdin, understood.
struct RunsRequest {
    std::string config;        // a path
    std::string inlineConfig;  // or the config itself, as JSON text
    std::string events;
    bool stop = false;         // {"stop": true}
    std::string problem;       // why the line is not a request; empty when it is one
};

// Reads the requests on stdin and runs each in a child process, one at a time.
class RequestLoop {
public:
    RequestLoop(const RunOne& runOne, const RunsOptions& options);

    int run();

private:
    // The next request line: one that waited while a run was in progress, else the next of
    // stdin. Nothing at the end of input, on a stop signal, or when a line is too long.
    std::optional<std::string> nextLine();

    void readInput();

    // A line without an end is not held: it is dropped, and nothing more is read.
    void refuseLongLine();

    int runChild(const RunsRequest& request);

    void stopRun(pid_t child);

    void readInputDuringRun(pid_t child);

    void takeLinesDuringRun(pid_t child);

    // The writer of stdin went away while its lines waited unread: with --stop-when-input-ends
    // that means the controller has gone.
    void inputHungUp(pid_t child);

    // Where a config from stdin is kept: --run-dir (a leading ~/ is the home folder), else
    // $TMPDIR, else /tmp. "" when that cannot be known (only the sweep asks this way).
    std::string configParentPath() const;

    // The same folder for a run: --run-dir is made when it is not there yet (a new folder under
    // Slurm that every node sees); TMPDIR must exist, as for `run`. ConfigError("environment")
    // says what is wrong.
    std::string configParent() const;

    void sweepConfigFolders() const;

    [[noreturn]] void becomeRun(const RunsRequest& request);

    // The config as it came on stdin, in a folder only this user can read (RunDirectory),
    // gone after the run; one left by a run that was killed is swept by the next.
    int runInlineConfig(const RunsRequest& request);

    // A run that cannot begin still speaks like one: hello, then an error, on stdout and in
    // its events file.
    static int refuseBeforeRun(const RunsRequest& request, const std::string& message, const std::string& key, int code);

    // A run's process that dies by a signal wrote no last word: write it, to the reader and to
    // the run's events file, so that the run ends with an error like any other. A stop that
    // came before the run had set up its own handling ended it that way too: it is a cancel.
    int reportKilledRun(const RunsRequest& request, int signo);

    const RunOne& m_runOne;
    const bool m_stopWhenInputEnds;
    const std::string m_runDirectory;
    LineReader m_input{kMaxRequestBytes, kMaxRequestBytes};
    std::deque<std::string> m_waiting;  // lines that arrived during a run, for after it
    size_t m_waitingBytes = 0;
    bool m_inputEnded = false;
    bool m_sawHangup = false;  // stdin's writer went away while its lines waited unread
    bool m_tooLong = false;
    bool m_stopping = false;
};

int runMany(const RunOne& runOne, const RunsOptions& options = RunsOptions());

// `runs` as the command line asks: each request through the built-in launcher (runFromFiles),
// or through options.launcher's template (runLaunchTemplate).
int runRequests(const RunsOptions& options);

}  // namespace ddplab
