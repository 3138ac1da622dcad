#include "launcher.hpp"

#include "core/data_error.hpp"
#include "core/events.hpp"
#include "core/exit_codes.hpp"
#include "data/fashion_mnist_files.hpp"
#include "run_directory.hpp"
#include "worker.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ddplab {
namespace {

using Clock = std::chrono::steady_clock;

// After a rank failed, how long the others get to notice and exit on their own.
constexpr std::chrono::milliseconds kPeerGrace{1000};
// After SIGTERM, how long workers get to exit before SIGKILL.
constexpr std::chrono::milliseconds kTerminateGrace{2000};
// Upper bound on one poll; signals wake the loop earlier through the self-pipe.
constexpr int kPollMs = 250;
// The worker's end of its event pipe, at a fixed number after all other files are closed.
constexpr int kWorkerEventFd = 3;

int g_signalPipe[2] = {-1, -1};

void onSignal(int signo)
{
    const unsigned char byte = static_cast<unsigned char>(signo);
    const int saved = errno;
    (void)!::write(g_signalPipe[1], &byte, 1);
    errno = saved;
}

void installHandler(int signo, void (*handler)(int))
{
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(signo, &action, nullptr);
}

void closeFrom(int lowest)
{
#ifdef SYS_close_range
    if (::syscall(SYS_close_range, unsigned(lowest), ~0U, 0) == 0)
        return;
#endif
    const long limit = std::min(::sysconf(_SC_OPEN_MAX), 65536L);
    for (int fd = lowest; fd < limit; ++fd)
        ::close(fd);
}

struct Rank {
    int rank = 0;
    pid_t pid = -1;
    int fd = -1;            // read end of the worker's event pipe
    std::string partial;    // bytes after the last newline
    bool exited = false;
    int status = 0;         // waitpid status
    std::string error;      // message of the worker's own error event
    int reportedCode = 0;   // exit code the worker reported in it
    std::string reportedKey;  // the config key it named, if any
    int64_t errorTime = 0;  // when it reported it (steady clock, comparable across processes)
    bool stoppedByUs = false;  // the launcher sent it SIGTERM/SIGKILL
    int exitOrder = 0;         // 1 for the first rank reaped, 2 for the next, ...

    bool failed() const { return exited && !(WIFEXITED(status) && WEXITSTATUS(status) == 0); }
    bool killedBySignal() const { return exited && WIFSIGNALED(status); }
};

class Launcher {
public:
    Launcher(const Config& config, EventWriter& events) : m_config(config), m_events(events) {}

    int run()
    {
        // Read the data once, here: a broken file is reported before any rank starts, and the
        // forked ranks share these pages instead of each decompressing its own copy.
        if (m_config.workload == WorkloadKind::FashionMnist) {
            try {
                loadFashionMnist(m_config.dataDir);
            } catch (const DataError& error) {
                std::cerr << "ddplab-engine: error: " << error.what() << std::endl;
                m_events.emit(errorEvent(error.what(), std::nullopt, "data_dir", kExitDataError));
                return kExitDataError;
            }
        }
        RunDirectory directory;
        setUpSignals();
        for (int r = 0; r < m_config.worldSize; ++r)
            spawn(r, directory.file("store"));
        supervise();
        return finish();
    }

private:
    enum class Stop { None, Failed, Cancelled, ReaderGone };

    void setUpSignals()
    {
        if (::pipe2(g_signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
            throw std::runtime_error(std::string("cannot create the signal pipe: ") + std::strerror(errno));
        installHandler(SIGINT, onSignal);
        installHandler(SIGTERM, onSignal);
        installHandler(SIGHUP, onSignal);
        installHandler(SIGCHLD, onSignal);
        // A reader that goes away shows up as EPIPE on write, handled as a cancel.
        installHandler(SIGPIPE, SIG_IGN);
    }

    void spawn(int rank, const std::string& storePath)
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            throw std::runtime_error(std::string("cannot create an event pipe: ") + std::strerror(errno));
        const pid_t launcherPid = ::getpid();
        const pid_t pid = ::fork();
        if (pid < 0)
            throw std::runtime_error(std::string("cannot start rank ") + std::to_string(rank) + ": " + std::strerror(errno));
        if (pid == 0)
            becomeWorker(rank, fds[1], launcherPid, storePath);
        ::close(fds[1]);
        Rank state;
        state.rank = rank;
        state.pid = pid;
        state.fd = fds[0];
        m_ranks.push_back(state);
    }

    [[noreturn]] void becomeWorker(int rank, int eventFd, pid_t launcherPid, const std::string& storePath)
    {
        // Die with the launcher, even when it is killed with SIGKILL.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != launcherPid)
            ::_exit(kExitCancelled);
        // "ddplab-rank3" in ps/top and /proc/PID/comm: which process is which rank.
        const std::string name = "ddplab-rank" + std::to_string(rank);
        ::prctl(PR_SET_NAME, name.c_str());
        // Ctrl-C reaches the whole process group; the launcher alone decides how to stop.
        ::signal(SIGINT, SIG_IGN);
        ::signal(SIGTERM, SIG_DFL);
        ::signal(SIGHUP, SIG_DFL);
        ::signal(SIGCHLD, SIG_DFL);
        // SIGPIPE stays ignored: runWorker sees to it, for torchrun's ranks too.
        // stdout carries the launcher's event stream: nothing of a worker may land there.
        const int devNull = ::open("/dev/null", O_WRONLY);
        if (devNull >= 0) {
            ::dup2(devNull, STDOUT_FILENO);
            ::close(devNull);
        }
        if (eventFd != kWorkerEventFd) {
            ::dup2(eventFd, kWorkerEventFd);  // dup2 clears close-on-exec on the copy
        }
        closeFrom(kWorkerEventFd + 1);

        EventWriter events;
        events.addFd(kWorkerEventFd);
        WorkerIdentity identity;
        identity.rank = rank;
        identity.worldSize = int(m_config.worldSize);
        identity.localRank = rank;
        identity.localWorldSize = int(m_config.worldSize);
        identity.launchedBy = "ddplab";
        identity.rendezvous.kind = Rendezvous::Kind::File;
        identity.rendezvous.storePath = storePath;
        identity.rendezvous.loopbackOnly = true;
        ::_exit(runWorker(m_config, identity, events));
    }

    void supervise()
    {
        // When to send SIGTERM, then SIGKILL, to the workers still running.
        Clock::time_point terminateAt = Clock::time_point::max();
        Clock::time_point killAt = Clock::time_point::max();
        while (true) {
            pollOnce();
            reap();

            const auto now = Clock::now();
            if (m_stop == Stop::None) {
                if (m_cancelSignal != 0) {
                    m_stop = Stop::Cancelled;
                    terminateAt = now;
                } else if (m_events.lostReader()) {
                    m_stop = Stop::ReaderGone;
                    terminateAt = now;
                } else if (std::any_of(m_ranks.begin(), m_ranks.end(), [](const Rank& r) { return r.failed(); })) {
                    // The peers of a failed rank fail on their own within moments (their
                    // collective loses its connection), after rank 0 has written the steps
                    // every rank completed; only a rank that hangs needs to be told.
                    m_stop = Stop::Failed;
                    terminateAt = now + kPeerGrace;
                }
            } else if (m_cancelSignal != 0) {
                terminateAt = std::min(terminateAt, now);  // Ctrl-C during the grace: stop now
            }
            if (now >= terminateAt) {
                signalRunning(SIGTERM);
                terminateAt = Clock::time_point::max();
                killAt = now + kTerminateGrace;
            }
            if (now >= killAt) {
                signalRunning(SIGKILL);
                killAt = Clock::time_point::max();
            }
            const bool allExited = std::all_of(m_ranks.begin(), m_ranks.end(), [](const Rank& r) { return r.exited; });
            const bool allDrained = std::all_of(m_ranks.begin(), m_ranks.end(), [](const Rank& r) { return r.fd < 0; });
            if (allExited && allDrained)
                return;
        }
    }

    void signalRunning(int signo)
    {
        for (Rank& r : m_ranks) {
            if (!r.exited) {
                r.stoppedByUs = true;
                ::kill(r.pid, signo);
            }
        }
    }

    // The rank that failed first, decided once every pipe is drained. Peers of a failing rank
    // fail soon after it (their collective loses its connection), so: a config or data error
    // (every rank hits the same one), then a rank killed by a signal we did not send, then
    // the earliest error report (workers stamp them with the shared steady clock), then the
    // rank that exited first.
    int pickCulprit() const
    {
        const Rank* best = nullptr;
        auto priority = [](const Rank& r) {
            if (r.reportedCode == kExitInvalidInput || r.reportedCode == kExitDataError)
                return 0;
            if (r.killedBySignal() && r.error.empty())
                return r.stoppedByUs ? 3 : 1;
            return 2;
        };
        auto before = [&](const Rank& a, const Rank& b) {
            if (priority(a) != priority(b))
                return priority(a) < priority(b);
            if (a.errorTime != b.errorTime && a.errorTime != 0 && b.errorTime != 0)
                return a.errorTime < b.errorTime;
            return a.exitOrder < b.exitOrder;
        };
        for (const Rank& r : m_ranks) {
            if (r.failed() && (!best || before(r, *best)))
                best = &r;
        }
        return best ? best->rank : 0;
    }

    void pollOnce()
    {
        std::vector<pollfd> fds;
        fds.push_back({g_signalPipe[0], POLLIN, 0});
        for (const Rank& r : m_ranks) {
            if (r.fd >= 0)
                fds.push_back({r.fd, POLLIN, 0});
        }
        const int ready = ::poll(fds.data(), fds.size(), kPollMs);
        if (ready <= 0)
            return;
        if (fds[0].revents & POLLIN)
            readSignals();
        for (Rank& r : m_ranks) {
            if (r.fd < 0)
                continue;
            const auto it = std::find_if(fds.begin() + 1, fds.end(), [&](const pollfd& p) { return p.fd == r.fd; });
            if (it != fds.end() && (it->revents & (POLLIN | POLLHUP | POLLERR)))
                readFrom(r);
        }
    }

    void readSignals()
    {
        unsigned char bytes[64];
        ssize_t n;
        while ((n = ::read(g_signalPipe[0], bytes, sizeof bytes)) > 0) {
            for (ssize_t i = 0; i < n; ++i) {
                if (bytes[i] != SIGCHLD && m_cancelSignal == 0)
                    m_cancelSignal = bytes[i];
            }
        }
    }

    void readFrom(Rank& r)
    {
        char buffer[65536];
        const ssize_t n = ::read(r.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            return;
        if (n <= 0) {
            // EOF: the worker exited (a partial last line was cut off by a crash: dropped).
            ::close(r.fd);
            r.fd = -1;
            return;
        }
        r.partial.append(buffer, size_t(n));
        size_t start = 0;
        std::string forward;  // rank 0's events of this read, passed on with one write
        for (size_t newline; (newline = r.partial.find('\n', start)) != std::string::npos; start = newline + 1)
            handleLine(r, r.partial.substr(start, newline - start), forward);
        r.partial.erase(0, start);
        if (!forward.empty())
            m_events.writeLine(forward);
    }

    void handleLine(Rank& r, const std::string& line, std::string& forward)
    {
        static const std::string kErrorPrefix = "{\"type\":\"error\"";
        if (line.compare(0, kErrorPrefix.size(), kErrorPrefix) == 0) {
            // Workers' errors are held back: the launcher reports one error, about the
            // rank that failed first, once every worker has stopped.
            const Json error = Json::parse(line, nullptr, false);
            if (!error.is_discarded()) {
                r.error = error.value("message", std::string());
                r.reportedCode = error.value("exit_code", 0);
                r.reportedKey = error.value("key", std::string());
                r.errorTime = error.value("monotonic_ns", int64_t(0));
            }
            return;
        }
        if (r.rank != 0)
            return;
        forward += line;
        forward += '\n';
        static const std::string kSummaryPrefix = "{\"type\":\"summary\"";
        if (line.compare(0, kSummaryPrefix.size(), kSummaryPrefix) == 0)
            m_sawSummary = true;
    }

    void reap()
    {
        int status = 0;
        pid_t pid;
        while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
            for (Rank& r : m_ranks) {
                if (r.pid == pid) {
                    r.exited = true;
                    r.status = status;
                    r.exitOrder = ++m_exits;
                }
            }
        }
    }

    static std::string describeExit(const Rank& r)
    {
        if (WIFSIGNALED(r.status)) {
            const int signo = WTERMSIG(r.status);
            const char* name = sigabbrev_np(signo);
            return "was killed by signal " + std::to_string(signo) + (name ? std::string(" (SIG") + name + ")" : "");
        }
        return "exited with status " + std::to_string(WEXITSTATUS(r.status));
    }

    int finish()
    {
        const int ranks = int(m_ranks.size());
        const std::string all = std::to_string(ranks) + (ranks == 1 ? " rank was" : " ranks were");
        switch (m_stop) {
        case Stop::None:
            if (!m_sawSummary) {
                m_events.emit(errorEvent("rank 0 finished without a summary event", 0, "", kExitInternal));
                return kExitInternal;
            }
            return kExitOk;
        case Stop::Cancelled: {
            const char* name = sigabbrev_np(m_cancelSignal);
            const std::string message = std::string("cancelled by SIG") + (name ? name : "?") + "; all " + all + " stopped";
            std::cerr << "ddplab-engine: " << message << std::endl;
            m_events.emit(errorEvent(message, std::nullopt, "", kExitCancelled));
            return kExitCancelled;
        }
        case Stop::ReaderGone:
            std::cerr << "ddplab-engine: the reader of the event stream went away; all " << all << " stopped" << std::endl;
            m_events.emit(errorEvent("the reader of the event stream went away; all " + all + " stopped", std::nullopt, "",
                                     kExitCancelled));
            return kExitCancelled;
        case Stop::Failed:
            break;
        }
        const Rank& culprit = m_ranks[size_t(pickCulprit())];
        const int code = (culprit.reportedCode == kExitInvalidInput || culprit.reportedCode == kExitDataError)
                             ? culprit.reportedCode
                             : kExitRankFailed;
        std::string message = "rank " + std::to_string(culprit.rank) + " failed";
        message += culprit.error.empty() ? " (it " + describeExit(culprit) + ")" : ": " + culprit.error;
        if (ranks > 1)
            message += "; the run was stopped and all " + all + " ended";
        std::cerr << "ddplab-engine: " << message << std::endl;
        // The key a rank named (device cuda without CUDA, say) still points the window at the field.
        m_events.emit(errorEvent(message, culprit.rank, culprit.reportedKey, code));
        return code;
    }

    const Config& m_config;
    EventWriter& m_events;
    std::vector<Rank> m_ranks;
    Stop m_stop = Stop::None;
    int m_cancelSignal = 0;
    int m_exits = 0;
    bool m_sawSummary = false;
};

}  // namespace

int runLauncher(const Config& config, EventWriter& events)
{
    Launcher launcher(config, events);
    return launcher.run();
}

}  // namespace ddplab
