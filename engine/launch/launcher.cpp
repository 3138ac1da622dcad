// SPDX-License-Identifier: GPL-3.0-or-later
#include "launcher.hpp"

#include "core/config_error.hpp"
#include "core/data_error.hpp"
#include "core/key_names.hpp"
#include "core/protocol.hpp"
#include "core/wording.hpp"
#include "core/workload_table.hpp"
#include "workloads/make_workload.hpp"
#include "output/event_writer.hpp"
#include "child_process.hpp"
#include "core/line_reader.hpp"
#include "own_model_check.hpp"
#include "workloads/saved_model_file.hpp"
#include "rank_progress.hpp"
#include "run_directory.hpp"
#include "signal_pipe.hpp"
#include "thread_share.hpp"
#include "worker.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <poll.h>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ddplab {
namespace {

using Clock = std::chrono::steady_clock;

// After a rank failed, how long the others get to notice and exit on their own.
constexpr std::chrono::milliseconds kPeerGrace{1000};
// The launcher's own watchdog waits this much longer than collective_timeout when the ranks
// have peers: a peer that times out in its collective names the stalled rank, and comes first.
constexpr std::chrono::seconds kWatchdogGrace{5};
// After SIGTERM, how long workers get to exit before SIGKILL (a second Ctrl-C: at once).
constexpr std::chrono::milliseconds kTerminateGrace{2000};
// Upper bound on one poll; signals wake the loop earlier through the self-pipe.
constexpr int kPollMs = 250;
// The worker's end of its event pipe, at a fixed number after all other files are closed.
constexpr int kWorkerEventFd = 3;
// stdout's reader lags by this much: stop reading rank 0, whose writes then wait (training
// pauses) instead of the launcher's memory growing. Supervision goes on regardless.
constexpr size_t kMaxPendingStdout = 16u << 20;
// How long the launcher looks at how busy the machine is before it forks (thread_share.hpp).
constexpr int kBusySampleMs = 100;
// A line from a rank longer than this is not an event of ours.
constexpr size_t kMaxLineBytes = 8u << 20;
// How much of a line that is not an event an error message quotes.
constexpr size_t kQuotedBytes = 200;

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

// 'T' (stopped by a signal) or 't' (stopped by a debugger) in /proc/PID/stat.
bool isStopped(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto afterName = text.rfind(')');  // the name may hold spaces and parentheses
    return afterName != std::string::npos && afterName + 2 < text.size() &&
           (text[afterName + 2] == 'T' || text[afterName + 2] == 't');
}

std::string excerptOf(const std::string& text)
{
    return text.size() > kQuotedBytes ? text.substr(0, kQuotedBytes) + "..." : text;
}

}  // namespace

int Launcher::run()
{
    // Read the data once, here: a broken file is reported before any rank starts, and the
    // forked ranks share these pages instead of each decompressing its own copy.
    readWorkloadDataOnce(m_config);  // DataError: the caller reports it
    if (traitsOf(m_config).ownModel) {
        const std::string notice = checkSaveTarget(m_config.saveModel);  // ConfigError: the caller reports it
        if (!notice.empty())
            std::cerr << "ddplab-engine: " << notice << std::endl;
        checkOwnModelBeforeStart(m_config);  // ConfigError, DataError: the caller reports them
    }
    RunDirectory directory;
    m_progress.emplace(int(m_config.worldSize));
    // Once, before any rank exists: the ranks then share what other programs leave free.
    if (m_config.threads == 0)
        m_busyCores = busyCoresNow(kBusySampleMs);
    setUpSignals();
    for (int r = 0; r < m_config.worldSize; ++r)
        spawn(r, directory.file("store"));
    supervise();
    return finish();
}

void Launcher::setUpSignals()
{
    // A reader that goes away shows up as EPIPE on write (SIGPIPE is ignored), handled as a cancel.
    std::string error;
    if (!signal_pipe::open(&error))
        throw std::runtime_error(error);
}

void Launcher::spawn(int rank, const std::string& storePath)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot create an event pipe: ") + std::strerror(errno));
    // Dies with the launcher, even when it is killed with SIGKILL; "ddplab-rank3" in ps,
    // top and /proc/PID/comm; Ctrl-C reaches the whole process group, and the launcher
    // alone decides how to stop; stdin and stdout belong to the launcher (its config, its
    // event stream): nothing of a worker may read or land there.
    ChildSetup setup;
    setup.exitWhenOrphaned = kExitCancelled;
    setup.name = "ddplab-rank" + std::to_string(rank);
    setup.ignoredSignals = {SIGINT};
    setup.defaultSignals = {SIGTERM, SIGHUP, SIGCHLD};  // SIGPIPE stays ignored: runWorker sees to it
    setup.stdinFromNull = setup.stdoutToNull = true;
    const pid_t pid = forkChild(setup, "rank " + std::to_string(rank));
    if (pid == 0)
        becomeWorker(rank, fds[1], storePath);
    ::close(fds[1]);
    SupervisedRank state;
    state.rank = rank;
    state.pid = pid;
    state.fd = fds[0];
    state.lines = std::make_shared<LineReader>(kMaxLineBytes, kQuotedBytes);
    m_ranks.push_back(state);
}

void Launcher::becomeWorker(int rank, int eventFd, const std::string& storePath)
{
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
    identity.collectivesBegun = m_progress->counter(rank);
    identity.busyCoresAtStart = m_busyCores;
    ::_exit(runWorker(m_config, identity, events));
}

// ------------------------------------------------------------------------------------
// Supervision: one loop that reacts to signals, rank output, rank exits and stdout, and
// never waits on any one of them.
// ------------------------------------------------------------------------------------
void Launcher::supervise()
{
    // When to send SIGTERM, then SIGKILL, to the workers still running.
    Clock::time_point terminateAt = Clock::time_point::max();
    Clock::time_point killAt = Clock::time_point::max();
    bool terminated = false;
    int cancelsSeen = 0;
    while (true) {
        pollOnce();
        reap();

        const auto now = Clock::now();
        if (m_stop == Stop::None) {
            if (m_cancels > 0) {
                m_stop = Stop::Cancelled;
                terminateAt = now;
            } else if (!m_events.fileError().empty()) {
                m_stop = Stop::OutputFailed;
                terminateAt = now;
            } else if (m_events.lostReader()) {
                m_stop = Stop::ReaderGone;
                terminateAt = now;
            } else if (std::any_of(m_ranks.begin(), m_ranks.end(), [](const SupervisedRank& r) { return r.failed(); })) {
                // The peers of a failed rank fail on their own within moments (their
                // collective loses its connection), after rank 0 has written the steps
                // every rank completed; only a rank that hangs needs to be told.
                m_stop = Stop::Failed;
                terminateAt = now + kPeerGrace;
                noteProgressAtFailure();
            } else if (noRankProgressing(now)) {
                m_stop = Stop::Failed;
                terminateAt = now;
                noteProgressAtFailure();
                m_ranks.front().silentTooLong = true;
            }
            cancelsSeen = m_cancels;
        } else if (m_cancels > cancelsSeen) {
            // Ctrl-C while stopping: during the grace, stop now; after SIGTERM, kill now.
            cancelsSeen = m_cancels;
            if (terminated)
                killAt = now;
            else
                terminateAt = now;
        }
        if (!terminated && now >= terminateAt) {
            signalRunning(SIGTERM);
            terminated = true;
            killAt = std::min(killAt, now + kTerminateGrace);
        }
        if (now >= killAt) {
            signalRunning(SIGKILL);
            killAt = Clock::time_point::max();
        }
        const bool allExited = std::all_of(m_ranks.begin(), m_ranks.end(), [](const SupervisedRank& r) { return r.exited; });
        const bool allDrained = std::all_of(m_ranks.begin(), m_ranks.end(), [](const SupervisedRank& r) { return r.fd < 0; });
        if (allExited && allDrained)
            return;
    }
}

// Peers time a stuck rank out in their collective (collective_timeout). A run of one rank
// has no peer, and ranks that are all stuck computing (a forward that never returns) have
// none waiting: the launcher itself watches them, from rank 0's first word on (the config
// event, once it is set up). Progress is any event from rank 0 or any collective begun by
// any rank; with peers, it waits kWatchdogGrace longer. While stdout's reader lags, rank 0
// is not read: its silence then says nothing.
bool Launcher::noRankProgressing(Clock::time_point now)
{
    if (!m_heardFromRank0 || std::any_of(m_ranks.begin(), m_ranks.end(), [](const SupervisedRank& r) { return r.exited; }))
        return false;
    if (m_events.pendingStreamBytes() > kMaxPendingStdout)
        m_lastWordFromRank0 = now;
    int64_t collectives = 0;
    for (const SupervisedRank& r : m_ranks)
        collectives += m_progress->collectivesBegun(r.rank);
    if (collectives != m_collectivesSeen) {
        m_collectivesSeen = collectives;
        m_lastCollectiveBegun = now;
    }
    const auto lastSign = std::max(m_lastWordFromRank0, m_lastCollectiveBegun);
    const auto patience = std::chrono::duration_cast<Clock::duration>(std::chrono::seconds(m_config.collectiveTimeout)) +
                          (m_ranks.size() > 1 ? Clock::duration(kWatchdogGrace) : Clock::duration::zero());
    return now - lastSign > patience;
}

void Launcher::signalRunning(int signo)
{
    for (SupervisedRank& r : m_ranks) {
        if (!r.exited) {
            r.stoppedByUs = true;
            ::kill(r.pid, signo);
            // A stopped rank (SIGSTOP, Ctrl-Z) would hold SIGTERM until continued.
            ::kill(r.pid, SIGCONT);
        }
    }
}

void Launcher::noteProgressAtFailure()
{
    for (SupervisedRank& r : m_ranks) {
        r.collectivesAtFailure = m_progress->collectivesBegun(r.rank);
        r.stoppedAtFailure = !r.exited && isStopped(r.pid);
    }
}

void Launcher::pollOnce()
{
    // Once stdout's reader lags far behind, rank 0 waits; while stopping, every rank's
    // output is read all the same (the events file must get all of it).
    const bool backPressure = m_stop == Stop::None && m_events.pendingStreamBytes() > kMaxPendingStdout;
    std::vector<pollfd> fds;
    fds.push_back({signal_pipe::fd(), POLLIN, 0});
    const bool watchStdout = m_events.streamFd() >= 0 && !m_events.lostReader();
    if (watchStdout)  // events 0 still reports a reader that went away (POLLERR)
        fds.push_back({m_events.streamFd(), short(m_events.pendingStreamBytes() > 0 ? POLLOUT : 0), 0});
    const size_t firstRank = fds.size();
    for (const SupervisedRank& r : m_ranks) {
        if (r.fd >= 0 && !backPressure)
            fds.push_back({r.fd, POLLIN, 0});
    }
    const int ready = ::poll(fds.data(), fds.size(), kPollMs);
    if (ready <= 0)
        return;
    if (fds[0].revents & POLLIN)
        readSignals();
    if (watchStdout && fds[1].revents)
        m_events.pumpStream();  // also notices a reader that went away
    for (size_t i = firstRank; i < fds.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
        for (SupervisedRank& r : m_ranks) {
            if (r.fd == fds[i].fd)
                readFrom(r);
        }
    }
}

void Launcher::readSignals()
{
    for (int signo : signal_pipe::take()) {
        if (signo == SIGCHLD)
            continue;
        if (m_cancelSignal == 0)
            m_cancelSignal = signo;
        ++m_cancels;
    }
}

void Launcher::readFrom(SupervisedRank& r)
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
    std::string forward;  // rank 0's events of this read, passed on with one write
    r.lines->append(buffer, size_t(n));
    while (std::optional<LineReader::Line> line = r.lines->take()) {
        if (line->overlong)
            noteBadLine(r, line->text + "... (" + std::to_string(line->bytes) + "+ bytes, no end of line)");
        else
            handleLine(r, line->text, forward);
    }
    if (!forward.empty())
        m_events.writeLine(forward);
}

void Launcher::handleLine(SupervisedRank& r, const std::string& line, std::string& forward)
{
    const Json event = Json::parse(line, nullptr, false);
    const bool isEvent = event.is_object() && event.contains(protocol::field::kType) &&
                         event[protocol::field::kType].is_string();
    if (!isEvent) {
        noteBadLine(r, excerptOf(line));
        return;
    }
    const std::string type = event[protocol::field::kType].get<std::string>();
    if (type == protocol::type::kError) {
        // Workers' errors are held back: the launcher reports one error, about the
        // rank that failed first, once every worker has stopped.
        r.error = event.value(protocol::field::kMessage, std::string());
        r.reportedCode = event.value(protocol::field::kExitCode, 0);
        r.reportedKey = event.value(protocol::field::kKey, std::string());
        r.errorTime = event.value(protocol::field::kMonotonicNs, int64_t(0));
        return;
    }
    if (r.rank != 0)
        return;
    forward += line;
    forward += '\n';
    if (type == protocol::type::kSummary)
        m_sawSummary = true;
    if (type == protocol::type::kStep && event.contains(protocol::field::kStep) && event[protocol::field::kStep].is_number_integer())
        m_lastStep = event[protocol::field::kStep].get<int64_t>();
    m_heardFromRank0 = true;
    m_lastWordFromRank0 = Clock::now();
}

// A rank wrote something that is no event of ours: it is said, not dropped.
void Launcher::noteBadLine(SupervisedRank& r, const std::string& excerpt)
{
    std::cerr << "ddplab-engine: rank " << r.rank << " wrote a line that is not an event: " << excerpt << std::endl;
    if (r.error.empty())
        r.error = "it wrote a line that is not an event: " + excerpt;
}

void Launcher::reap()
{
    int status = 0;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
        for (SupervisedRank& r : m_ranks) {
            if (r.pid == pid) {
                r.exited = true;
                r.status = status;
                r.exitOrder = ++m_exits;
            }
        }
    }
}

// A rank that made no progress while its peers waited for it: stopped when the run began
// to fail, or behind every rank that reported an error (they gave up waiting on it).
const SupervisedRank* Launcher::stalledRank() const
{
    for (const SupervisedRank& r : m_ranks) {
        if (r.stoppedAtFailure || r.silentTooLong)
            return &r;
    }
    std::optional<int64_t> slowestReporter;
    for (const SupervisedRank& r : m_ranks) {
        if (r.failed() && !r.error.empty())
            slowestReporter = std::min(slowestReporter.value_or(r.collectivesAtFailure), r.collectivesAtFailure);
    }
    if (!slowestReporter)
        return nullptr;
    const SupervisedRank* stalled = nullptr;
    for (const SupervisedRank& r : m_ranks) {
        const bool silent = r.error.empty() && (!r.exited || r.stoppedByUs);
        if (silent && r.collectivesAtFailure < *slowestReporter &&
            (!stalled || r.collectivesAtFailure < stalled->collectivesAtFailure))
            stalled = &r;
    }
    return stalled;
}

// The rank that failed first, decided once every pipe is drained. Peers of a failing rank
// fail soon after it (their collective loses its connection, or times out waiting), so: a
// config or data error (every rank hits the same one), then a rank that stalled, then a
// rank killed by a signal we did not send, then the earliest error report (workers stamp
// them with the shared steady clock), then the rank that exited first.
const SupervisedRank& Launcher::pickCulprit() const
{
    const SupervisedRank* best = nullptr;
    auto priority = [](const SupervisedRank& r) {
        if (r.reportedCode == kExitInvalidInput || r.reportedCode == kExitDataError)
            return 0;
        if (r.killedBySignal() && r.error.empty())
            return r.stoppedByUs ? 3 : 1;
        return 2;
    };
    auto before = [&](const SupervisedRank& a, const SupervisedRank& b) {
        if (priority(a) != priority(b))
            return priority(a) < priority(b);
        if (a.errorTime != b.errorTime && a.errorTime != 0 && b.errorTime != 0)
            return a.errorTime < b.errorTime;
        return a.exitOrder < b.exitOrder;
    };
    for (const SupervisedRank& r : m_ranks) {
        if (r.failed() && (!best || before(r, *best)))
            best = &r;
    }
    if (best && priority(*best) > 0) {
        if (const SupervisedRank* stalled = stalledRank())
            return *stalled;
    }
    return best ? *best : m_ranks.front();
}

std::string Launcher::describeExit(const SupervisedRank& r)
{
    if (WIFSIGNALED(r.status)) {
        const int signo = WTERMSIG(r.status);
        const char* name = sigabbrev_np(signo);
        return "was killed by signal " + std::to_string(signo) + (name ? std::string(" (SIG") + name + ")" : "");
    }
    return "exited with status " + std::to_string(WEXITSTATUS(r.status));
}

std::string Launcher::stallDescription(const SupervisedRank& culprit) const
{
    std::string peerError;
    for (const SupervisedRank& r : m_ranks) {
        if (&r != &culprit && !r.error.empty()) {
            peerError = "rank " + std::to_string(r.rank) + ": " + r.error;
            break;
        }
    }
    std::string text = "rank " + std::to_string(culprit.rank) + " stopped making progress";
    if (culprit.silentTooLong && m_lastStep > 0)
        text += " after step " + std::to_string(m_lastStep);
    if (culprit.stoppedAtFailure)
        text += " (it was stopped: SIGSTOP or a debugger)";
    if (culprit.silentTooLong && m_ranks.size() > 1)
        return "every rank (0 to " + std::to_string(m_ranks.size() - 1) + ") stopped making progress" +
               (m_lastStep > 0 ? " after step " + std::to_string(m_lastStep) : std::string()) + "; none made a step or began a " +
               "collective for " + std::to_string(m_config.collectiveTimeout) +
               " s (collective_timeout): all were computing (a forward that never returns?), with no peer waiting to time "
               "them out, so the launcher stopped them";
    if (culprit.silentTooLong)
        return text + "; it made no step for " + std::to_string(m_config.collectiveTimeout) +
               " s (collective_timeout), with no peer to time it out, so the launcher stopped it";
    text += "; its peers waited " + std::to_string(m_config.collectiveTimeout) +
            " s for it in a collective (collective_timeout) and gave up";
    if (!peerError.empty())
        text += " (" + excerptOf(peerError) + ")";
    return text;
}

int Launcher::finish()
{
    const int ranks = int(m_ranks.size());
    const std::string all = countOf(ranks, "rank") + (ranks == 1 ? " was" : " were");
    int code = kExitOk;
    protocol::ErrorReport report;
    switch (m_stop) {
    case Stop::None:
        if (!m_sawSummary) {
            report = {"rank 0 finished without a summary event", 0, "", kExitInternal};
            code = kExitInternal;
        }
        break;
    case Stop::Cancelled: {
        const char* name = sigabbrev_np(m_cancelSignal);
        report.message = std::string("cancelled by SIG") + (name ? name : "?") + "; all " + all + " stopped";
        code = kExitCancelled;
        break;
    }
    case Stop::ReaderGone:
        report.message = "the reader of the event stream went away; all " + all + " stopped";
        code = kExitCancelled;
        break;
    case Stop::OutputFailed:
        report.message = m_events.fileError() + "; all " + all + " stopped";
        report.key = key::kEvents;
        code = kExitOutputError;
        break;
    case Stop::Failed: {
        const SupervisedRank& culprit = pickCulprit();
        const bool stalled = &culprit == stalledRank();
        // What the rank's input or output was at fault for keeps its code (a save_model on a
        // full disk: 6); anything else is a failed rank.
        code = (culprit.reportedCode == kExitInvalidInput || culprit.reportedCode == kExitDataError ||
                culprit.reportedCode == kExitOutputError)
                   ? culprit.reportedCode
                   : kExitRankFailed;
        const std::string name = "rank " + std::to_string(culprit.rank);
        if (stalled)
            report.message = stallDescription(culprit);
        else if (culprit.error.rfind(name + " ", 0) == 0)
            report.message = culprit.error;  // it names itself already ("rank 0 ran out of memory ...")
        else
            report.message = name + " failed" + (culprit.error.empty() ? " (it " + describeExit(culprit) + ")" : ": " + culprit.error);
        if (ranks > 1)
            report.message += "; the run was stopped and all " + all + " ended";
        report.rank = culprit.rank;
        // The key a rank named (device cuda without CUDA, say) still points the window at the field.
        report.key = culprit.reportedKey;
        break;
    }
    }
    if (code != kExitOk) {
        report.exitCode = code;
        std::cerr << "ddplab-engine: " << report.message << std::endl;
        m_events.emit(protocol::errorEvent(report));
    }
    return code;  // the caller gives stdout's reader a moment to take the last events
}

int runLauncher(const Config& config, EventWriter& events)
{
    Launcher launcher(config, events);
    return launcher.run();
}

}  // namespace ddplab
