// SPDX-License-Identifier: GPL-3.0-or-later
#include "runs_command.hpp"

#include "cli/launch_template.hpp"
#include "cli/run_command.hpp"
#include "core/config_error.hpp"
#include "core/home_path.hpp"
#include "core/protocol.hpp"
#include "launch/child_process.hpp"
#include "core/line_reader.hpp"
#include "launch/run_directory.hpp"
#include "launch/signal_pipe.hpp"
#include "output/event_line.hpp"
#include "output/event_writer.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ddplab {
namespace {

// Lines that arrive while a run is in progress wait for it to end, up to this much in all;
// beyond it stdin is left unread until then (a controller sends one request at a time).
constexpr size_t kMaxWaitingBytes = 16 * kMaxRequestBytes;

bool isStopSignal(int signo)
{
    return signo == SIGTERM || signo == SIGINT || signo == SIGHUP;
}

// This process's own lines on stdout (hello, run_end, an error for a run): whole lines, written
// between runs, never while a run writes. False when the reader has gone.
bool writeEvent(const Json& event)
{
    return writeWholeLine(STDOUT_FILENO, encodeEventLine(event));
}

RunsRequest parseRequest(const std::string& line, int64_t number)
{
    RunsRequest request;
    const std::string which = "request " + std::to_string(number) + " on stdin";
    const std::string expected = std::string("{\"") + protocol::request::kConfig + "\": PATH, \"" +
                                 protocol::request::kEvents + "\": PATH}";
    const Json parsed = Json::parse(line, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        request.problem = which + " is not a JSON object; expected " + expected;
        return request;
    }
    if (parsed.size() == 1 && parsed.contains(protocol::request::kStop) && parsed[protocol::request::kStop].is_boolean()) {
        request.stop = parsed[protocol::request::kStop].get<bool>();
        return request;
    }
    for (const auto& [name, value] : parsed.items()) {
        if (name != protocol::request::kConfig && name != protocol::request::kEvents) {
            request.problem = which + " has an unknown field \"" + name + "\"; expected " + expected;
            return request;
        }
        if (name == protocol::request::kConfig && value.is_object()) {
            request.inlineConfig = value.dump();
            continue;
        }
        if (!value.is_string()) {
            request.problem = which + ": \"" + name + "\" must be a path (a string)";
            return request;
        }
        (name == protocol::request::kConfig ? request.config : request.events) = value.get<std::string>();
    }
    if (request.config.empty() && request.inlineConfig.empty())
        request.problem = which + " names no config file; expected " + expected;
    return request;
}

bool isBlank(const std::string& line)
{
    return line.find_first_not_of(" \t\r") == std::string::npos;
}

}  // namespace

RequestLoop::RequestLoop(const RunOne& runOne, const RunsOptions& options)
    : m_runOne(runOne), m_stopWhenInputEnds(options.stopWhenInputEnds), m_runDirectory(options.runDirectory)
{
}

int RequestLoop::run()
{
    std::string error;
    if (!signal_pipe::open(&error)) {  // SIGPIPE ignored too: a reader that goes away is EPIPE, a cancel
        std::cerr << "ddplab-engine runs: " << error << std::endl;
        return kExitInternal;
    }
    sweepConfigFolders();  // those of a `runs` that was killed with SIGKILL

    if (!writeEvent(protocol::helloEvent(protocol::role::kRuns)))
        return kExitCancelled;
    int64_t number = 0;
    while (!m_stopping) {
        std::optional<std::string> line = nextLine();
        if (!line)
            break;
        const RunsRequest request = parseRequest(*line, ++number);
        if (request.problem.empty() && (request.stop || (request.config.empty() && request.inlineConfig.empty())))
            continue;  // a stop with nothing running: nothing to do
        int code = kExitOk;
        if (request.problem.empty()) {
            code = runChild(request);
        } else {
            std::cerr << "ddplab-engine runs: error: " << request.problem << std::endl;
            code = kExitInvalidInput;
            if (!writeEvent(protocol::errorEvent({request.problem, std::nullopt, protocol::errorKey::kConfig, code})))
                return kExitCancelled;
        }
        if (!writeEvent(protocol::runEndEvent(code)))
            return kExitCancelled;
    }
    if (m_tooLong) {
        std::cerr << "ddplab-engine runs: error: a request on stdin is longer than " << kMaxRequestBytes
                  << " bytes; a request is {\"config\": PATH, \"events\": PATH} on one line" << std::endl;
        return kExitInvalidInput;
    }
    return m_stopping ? kExitCancelled : kExitOk;
}

// The next request line: one that waited while a run was in progress, else the next of
// stdin. Nothing at the end of input, on a stop signal, or when a line is too long.
std::optional<std::string> RequestLoop::nextLine()
{
    while (true) {
        if (!m_waiting.empty()) {
            std::string line = std::move(m_waiting.front());
            m_waiting.pop_front();
            m_waitingBytes -= line.size();
            return line;
        }
        if (std::optional<LineReader::Line> line = m_input.take()) {
            if (line->overlong) {
                refuseLongLine();
                return std::nullopt;
            }
            if (isBlank(line->text))
                continue;  // blank lines separate nothing
            return std::move(line->text);
        }
        if (m_inputEnded) {
            const std::string rest = m_input.takeRest();
            if (isBlank(rest))
                return std::nullopt;
            return rest;
        }
        pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {signal_pipe::fd(), POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0 && errno != EINTR)
            return std::nullopt;
        for (int signo : signal_pipe::take()) {
            if (isStopSignal(signo))
                m_stopping = true;
        }
        if (m_stopping)
            return std::nullopt;
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR))
            readInput();
    }
}

void RequestLoop::readInput()
{
    char buffer[65536];
    const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n > 0)
        m_input.append(buffer, size_t(n));
    else if (n == 0 || (errno != EINTR && errno != EAGAIN))
        m_inputEnded = true;
}

// A line without an end is not held: it is dropped, and nothing more is read.
void RequestLoop::refuseLongLine()
{
    m_tooLong = true;
    m_input.clear();
}

int RequestLoop::runChild(const RunsRequest& request)
{
    // Die with this process, even when it is killed with SIGKILL; the requests on stdin
    // are this process's to read, not the run's.
    ChildSetup setup;
    setup.exitWhenOrphaned = kExitCancelled;
    setup.defaultSignals = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};
    setup.stdinFromNull = true;
    pid_t pid = -1;
    try {
        pid = forkChild(setup, "a run process");
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        std::cerr << "ddplab-engine runs: error: " << message << std::endl;
        writeEvent(protocol::errorEvent({message, std::nullopt, "", kExitInternal}));
        return kExitInternal;
    }
    if (pid == 0)
        becomeRun(request);

    m_sawHangup = false;
    takeLinesDuringRun(pid);  // those that came in the read that held this request
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) != pid) {
        // stdin too, while it is open: a stop request, or its end when that means the
        // controller has gone. Other lines wait their turn in m_waiting, up to a bound;
        // beyond it stdin waits too, watched only for its writer going away.
        const bool watchInput = !m_inputEnded && !m_sawHangup && !m_tooLong;
        const bool readMore = watchInput && m_waitingBytes < kMaxWaitingBytes;
        pollfd fds[2] = {{signal_pipe::fd(), POLLIN, 0}, {watchInput ? STDIN_FILENO : -1, short(readMore ? POLLIN : 0), 0}};
        ::poll(fds, 2, -1);
        for (int signo : signal_pipe::take()) {
            if (isStopSignal(signo)) {
                m_stopping = true;
                ::kill(pid, signo);  // the run stops its ranks; a second Ctrl-C kills them
            }
        }
        if (readMore && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            readInputDuringRun(pid);
        else if (watchInput && (fds[1].revents & (POLLHUP | POLLERR)))
            inputHungUp(pid);
    }
    if (WIFEXITED(status))
        // A run stopped on request is cancelled, whatever code a launcher (torchrun, srun) ended with.
        return m_stopping && WEXITSTATUS(status) != 0 ? kExitCancelled : WEXITSTATUS(status);
    const int code = reportKilledRun(request, WTERMSIG(status));
    sweepConfigFolders();  // the killed run could not remove its own
    return code;
}

void RequestLoop::stopRun(pid_t child)
{
    if (!m_stopping) {
        m_stopping = true;
        ::kill(child, SIGTERM);
    }
}

void RequestLoop::readInputDuringRun(pid_t child)
{
    readInput();
    if (m_inputEnded && m_stopWhenInputEnds && !m_stopping) {
        std::cerr << "ddplab-engine runs: stdin ended during a run: its controller has gone; stopping the run" << std::endl;
        stopRun(child);
    }
    takeLinesDuringRun(child);
}

void RequestLoop::takeLinesDuringRun(pid_t child)
{
    // Every line, in order: a stop stops the run now, wherever it stands among them (the
    // process ends after the run; what waited before it goes with it). Blank lines and
    // {"stop": false} ask nothing; anything else waits for the run to end.
    while (std::optional<LineReader::Line> line = m_input.take()) {
        if (line->overlong) {
            std::cerr << "ddplab-engine runs: a line on stdin is longer than " << kMaxRequestBytes
                      << " bytes during a run; stopping the run" << std::endl;
            refuseLongLine();
            stopRun(child);
            return;
        }
        if (isBlank(line->text))
            continue;
        const RunsRequest request = parseRequest(line->text, 0);
        if (request.problem.empty() && request.stop) {
            stopRun(child);
            continue;
        }
        if (request.problem.empty() && request.config.empty() && request.inlineConfig.empty())
            continue;
        m_waitingBytes += line->text.size();
        m_waiting.push_back(std::move(line->text));
    }
}

// The writer of stdin went away while its lines waited unread: with --stop-when-input-ends
// that means the controller has gone.
void RequestLoop::inputHungUp(pid_t child)
{
    m_sawHangup = true;
    if (m_stopWhenInputEnds && !m_stopping) {
        std::cerr << "ddplab-engine runs: stdin was closed during a run: its controller has gone; stopping the run" << std::endl;
        stopRun(child);
    }
}

// Where a config from stdin is kept: --run-dir (a leading ~/ is the home folder), else
// $TMPDIR, else /tmp. "" when that cannot be known (only the sweep asks this way).
std::string RequestLoop::configParentPath() const
{
    const std::string base = expandHome(m_runDirectory);
    if (base.rfind("~/", 0) == 0)
        return std::string();  // HOME is not set
    if (!base.empty())
        return base;
    try {
        return RunDirectory::temporaryFolder();
    } catch (const ConfigError&) {
        return std::string();
    }
}

// The same folder for a run: --run-dir is made when it is not there yet (a new folder under
// Slurm that every node sees); TMPDIR must exist, as for `run`. ConfigError("environment")
// says what is wrong.
std::string RequestLoop::configParent() const
{
    if (m_runDirectory.empty())
        return RunDirectory::temporaryFolder();
    const std::string base = configParentPath();
    if (base.empty())
        throw ConfigError(protocol::errorKey::kEnvironment, "--run-dir \"" + m_runDirectory +
                                                                "\" starts with ~/ but HOME is not set; give the folder's full path");
    ::mkdir(base.c_str(), 0700);
    struct stat info {};
    if (::stat(base.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || ::access(base.c_str(), W_OK | X_OK) != 0)
        throw ConfigError(protocol::errorKey::kEnvironment,
                          "--run-dir \"" + base + "\" is not a folder this user can write to; give one, or leave --run-dir out to use TMPDIR");
    return base;
}

void RequestLoop::sweepConfigFolders() const
{
    const std::string parent = configParentPath();
    if (!parent.empty())
        RunDirectory::removeStale(parent, RunDirectory::kConfigPrefix);
}

void RequestLoop::becomeRun(const RunsRequest& request)
{
    signal_pipe::close();
    const int code = request.inlineConfig.empty() ? m_runOne(request.config, request.events) : runInlineConfig(request);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    ::_exit(code);
}

// The config as it came on stdin, in a folder only this user can read (RunDirectory),
// gone after the run; one left by a run that was killed is swept by the next.
int RequestLoop::runInlineConfig(const RunsRequest& request)
{
    std::optional<RunDirectory> folder;
    std::string path;
    try {
        folder.emplace(RunDirectory::kConfigPrefix, configParent());
        path = folder->file("config.json");
        const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        const bool written = file >= 0 && ::write(file, request.inlineConfig.data(), request.inlineConfig.size()) ==
                                              ssize_t(request.inlineConfig.size());
        const std::string why = std::strerror(errno);
        if (file >= 0)
            ::close(file);
        if (!written)
            throw std::runtime_error("cannot write " + path + ": " + why);
    } catch (const ConfigError& error) {
        return refuseBeforeRun(request, error.what(), error.key(), kExitInvalidInput);
    } catch (const std::exception& error) {
        return refuseBeforeRun(request, std::string("cannot keep the config it was given: ") + error.what(), "", kExitInternal);
    }
    return m_runOne(path, request.events);  // the folder goes when `folder` does, before _exit
}

// A run that cannot begin still speaks like one: hello, then an error, on stdout and in
// its events file.
int RequestLoop::refuseBeforeRun(const RunsRequest& request, const std::string& message, const std::string& key, int code)
{
    EventWriter events;
    events.addFd(STDOUT_FILENO);
    const Json hello = protocol::helloEvent(protocol::role::kLauncher);
    events.emit(hello);
    if (!request.events.empty()) {
        try {
            events.appendToFile(request.events, hello);
        } catch (const std::exception&) {
            // The events file is the run's own affair; the reader gets the error regardless.
        }
    }
    return fail(events, message, key, code);
}

// A run's process that dies by a signal wrote no last word: write it, to the reader and to
// the run's events file, so that the run ends with an error like any other. A stop that
// came before the run had set up its own handling ended it that way too: it is a cancel.
int RequestLoop::reportKilledRun(const RunsRequest& request, int signo)
{
    const bool cancelled = m_stopping && isStopSignal(signo);
    std::string message = cancelled ? "cancelled by SIG" + std::string(sigabbrev_np(signo)) + " as the run was starting"
                                    : "the run's process was killed by signal " + std::to_string(signo) + " (" +
                                          strsignal(signo) + ")";
    if (signo == SIGKILL)
        message += "; the system may have run out of memory";
    const int code = cancelled ? kExitCancelled : kExitInternal;
    std::cerr << "ddplab-engine runs: error: " << message << std::endl;
    const Json error = protocol::errorEvent({message, std::nullopt, "", code});
    if (!request.events.empty()) {
        try {
            EventWriter file;
            file.appendToFile(request.events);
            file.emit(error);
        } catch (const std::exception&) {
            // The file is the run's own affair; the reader gets the error regardless.
        }
    }
    writeEvent(error);
    return code;
}

int runMany(const RunOne& runOne, const RunsOptions& options)
{
    return RequestLoop(runOne, options).run();
}

int runRequests(const RunsOptions& options)
{
    if (options.launcher.empty())
        return runMany(runFromFiles, options);
    return runMany([&](const std::string& config, const std::string& events) { return runLaunchTemplate(options.launcher, config, events); },
                   options);
}

}  // namespace ddplab
