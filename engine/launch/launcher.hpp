// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab-engine run`: forks world_size workers (this same program, already loaded, so the
// 0.7 s LibTorch start-up is paid once), supervises them, forwards rank 0's events, and on
// any failure or cancel stops every worker and reports which rank failed.

#include "core/config.hpp"
#include "rank_progress.hpp"

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>
#include <sys/wait.h>
#include <vector>

namespace ddplab {

class EventWriter;
class LineReader;

// One rank as the launcher supervises it: its process, its event pipe, how it ended.
struct SupervisedRank {
    int rank = 0;
    pid_t pid = -1;
    int fd = -1;            // read end of the worker's event pipe
    std::shared_ptr<LineReader> lines;  // what it writes, line by line
    bool exited = false;
    int status = 0;         // waitpid status
    std::string error;      // message of the worker's own error event
    int reportedCode = 0;   // exit code the worker reported in it
    std::string reportedKey;  // the config key it named, if any
    int64_t errorTime = 0;  // when it reported it (steady clock, comparable across processes)
    bool stoppedByUs = false;  // the launcher sent it SIGTERM/SIGKILL
    int exitOrder = 0;         // 1 for the first rank reaped, 2 for the next, ...
    // When the run began to fail: was it stopped (SIGSTOP, a debugger), how far had it come.
    bool stoppedAtFailure = false;
    int64_t collectivesAtFailure = 0;
    bool silentTooLong = false;  // the launcher's watchdog: no rank progressed for collective_timeout

    bool failed() const { return exited && !(WIFEXITED(status) && WEXITSTATUS(status) == 0); }
    bool killedBySignal() const { return exited && WIFSIGNALED(status); }
};

// Forks the ranks and supervises them (docs/architecture.md, "A run, top to bottom").
class Launcher {
public:
    Launcher(const Config& config, EventWriter& events) : m_config(config), m_events(events) {}

    int run();

private:
    using Clock = std::chrono::steady_clock;
    enum class Stop { None, Failed, Cancelled, ReaderGone, OutputFailed };

    void setUpSignals();

    void spawn(int rank, const std::string& storePath);

    [[noreturn]] void becomeWorker(int rank, int eventFd, const std::string& storePath);

    // ------------------------------------------------------------------------------------
    // Supervision: one loop that reacts to signals, rank output, rank exits and stdout, and
    // never waits on any one of them.
    // ------------------------------------------------------------------------------------
    void supervise();

    // Peers time a stuck rank out in their collective (collective_timeout). A run of one rank
    // has no peer, and ranks that are all stuck computing (a forward that never returns) have
    // none waiting: the launcher itself watches them, from rank 0's first word on (the config
    // event, once it is set up). Progress is any event from rank 0 or any collective begun by
    // any rank; with peers, it waits kWatchdogGrace longer. While stdout's reader lags, rank 0
    // is not read: its silence then says nothing.
    bool noRankProgressing(Clock::time_point now);

    void signalRunning(int signo);

    void noteProgressAtFailure();

    void pollOnce();

    void readSignals();

    void readFrom(SupervisedRank& r);

    void handleLine(SupervisedRank& r, const std::string& line, std::string& forward);

    // A rank wrote something that is no event of ours: it is said, not dropped.
    void noteBadLine(SupervisedRank& r, const std::string& excerpt);

    void reap();

    // ------------------------------------------------------------------------------------
    // Who failed first
    // ------------------------------------------------------------------------------------

    // A rank that made no progress while its peers waited for it: stopped when the run began
    // to fail, or behind every rank that reported an error (they gave up waiting on it).
    const SupervisedRank* stalledRank() const;

    // The rank that failed first, decided once every pipe is drained. Peers of a failing rank
    // fail soon after it (their collective loses its connection, or times out waiting), so: a
    // config or data error (every rank hits the same one), then a rank that stalled, then a
    // rank killed by a signal we did not send, then the earliest error report (workers stamp
    // them with the shared steady clock), then the rank that exited first.
    const SupervisedRank& pickCulprit() const;

    static std::string describeExit(const SupervisedRank& r);

    std::string stallDescription(const SupervisedRank& culprit) const;

    int finish();

    const Config& m_config;
    EventWriter& m_events;
    std::optional<RankProgress> m_progress;
    std::vector<SupervisedRank> m_ranks;
    Stop m_stop = Stop::None;
    int m_cancelSignal = 0;
    int m_cancels = 0;
    int m_exits = 0;
    bool m_sawSummary = false;
    int64_t m_lastStep = 0;  // of rank 0's step events
    double m_busyCores = std::numeric_limits<double>::quiet_NaN();  // other programs' cores, read before forking
    bool m_heardFromRank0 = false;           // its first event: it is set up, the watch begins
    Clock::time_point m_lastWordFromRank0;  // its latest event
    int64_t m_collectivesSeen = 0;           // by all ranks together, at the last look
    Clock::time_point m_lastCollectiveBegun;  // when that sum last changed
};


// Returns the process exit code (ExitCode, core/protocol_names.hpp). Emits the final `error` event itself;
// `hello` is the caller's.
int runLauncher(const Config& config, EventWriter& events);

}  // namespace ddplab
