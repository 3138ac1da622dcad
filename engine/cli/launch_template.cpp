// SPDX-License-Identifier: GPL-3.0-or-later
#include "launch_template.hpp"

#include "launch/child_process.hpp"
#include "launch/launcher_report.hpp"
#include "core/line_reader.hpp"
#include "output/event_line.hpp"

#include "core/json.hpp"
#include "core/key_names.hpp"
#include "core/protocol_names.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ddplab {
namespace {

// After the launcher exited, how long its stderr may stay open (held by something it left
// behind) before what came is all there is.
constexpr std::chrono::milliseconds kDrainAfterExit{1000};
// A longer line is passed on as its first this many bytes: what the launcher writes is not held whole.
constexpr size_t kLongestLine = 64 * 1024;

pid_t g_group = 0;
volatile sig_atomic_t g_stopSignal = 0;  // a stop was passed on: what ends then is no failure

void forwardToGroup(int signo)
{
    g_stopSignal = signo;
    if (g_group > 0)
        ::kill(-g_group, signo);
}

// Passes the launcher's stderr on line by line, reading each into `report`, until the
// launcher has exited and its stderr is closed (or, after the exit, kDrainAfterExit passed);
// returns its wait status.
int superviseLauncher(pid_t pid, int stderrFd, LauncherReport& report)
{
    LineReader pending(kLongestLine, kLongestLine);
    const auto passOn = [&](bool all) {
        while (std::optional<LineReader::Line> line = pending.take()) {
            // A line past kLongestLine is passed on as its first kLongestLine bytes.
            std::cerr << line->text << '\n';
            report.addLine(line->text);
        }
        if (all && pending.partialBytes() > 0) {
            const std::string rest = pending.takeRest();
            std::cerr << rest << '\n';
            report.addLine(rest);
        }
        std::cerr.flush();
    };
    int status = 0;
    bool exited = false, closed = false;
    auto drainUntil = std::chrono::steady_clock::time_point::max();
    while (!(exited && closed) && std::chrono::steady_clock::now() < drainUntil) {
        pollfd ready{stderrFd, POLLIN, 0};
        if (!closed && ::poll(&ready, 1, 100) > 0) {
            char buffer[4096];
            const ssize_t n = ::read(stderrFd, buffer, sizeof buffer);
            if (n > 0) {
                pending.append(buffer, size_t(n));
                passOn(false);
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                closed = true;
            }
        } else if (closed) {
            ::usleep(100 * 1000);
        }
        if (!exited && ::waitpid(pid, &status, WNOHANG) == pid) {
            exited = true;
            // What the launcher left behind in its group (a rank it did not reap) goes too.
            ::kill(-pid, SIGTERM);
            drainUntil = std::chrono::steady_clock::now() + kDrainAfterExit;
        }
    }
    passOn(true);
    return status;
}

std::string shellQuoted(const std::string& word)
{
    std::string quoted = "'";
    for (char c : word)
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string ownPath()
{
    char buffer[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buffer, sizeof buffer - 1);
    return n > 0 ? std::string(buffer, size_t(n)) : std::string("ddplab-engine");
}

}  // namespace

std::string expandLaunchTemplate(const std::string& launchTemplate, const std::string& enginePath, const std::string& configPath,
                                 std::string* error)
{
    if (launchTemplate.find("{config}") == std::string::npos) {
        *error = "the launch template must pass {config} to the engine, e.g. \"... {engine} worker --config {config}\"";
        return {};
    }
    std::string ranks;
    std::ifstream file(configPath);
    const Json config = Json::parse(file, nullptr, false);
    if (!config.is_discarded() && config.is_object() && config.contains(key::kWorldSize) && config[key::kWorldSize].is_number_integer())
        ranks = std::to_string(config[key::kWorldSize].get<int64_t>());
    else
        ranks = "1";
    std::string expanded;
    for (size_t at = 0; at < launchTemplate.size();) {
        if (launchTemplate[at] != '{') {
            expanded += launchTemplate[at++];
            continue;
        }
        const size_t close = launchTemplate.find('}', at);
        const std::string name = close == std::string::npos ? std::string() : launchTemplate.substr(at + 1, close - at - 1);
        if (name == "engine")
            expanded += shellQuoted(enginePath);
        else if (name == "config")
            expanded += shellQuoted(configPath);
        else if (name == "ranks")
            expanded += ranks;
        else {
            *error = "the launch template has an unknown placeholder \"{" + name + "}\"; it may use {engine}, {config} and {ranks}";
            return {};
        }
        at = close + 1;
    }
    return expanded;
}

int runLaunchTemplate(const std::string& launchTemplate, const std::string& configPath, const std::string& eventsPath)
{
    std::string error;
    const std::string command = expandLaunchTemplate(launchTemplate, ownPath(), configPath, &error);
    if (command.empty()) {
        std::cerr << "ddplab-engine runs: error: " << error << std::endl;
        return kExitInvalidInput;
    }
    std::cerr << "ddplab-engine runs: launching: " << command << std::endl;
    // The launcher's stderr comes through here (passed on line by line) to be read; its
    // stdout, rank 0's events, goes straight on.
    int stderrPipe[2];
    if (::pipe2(stderrPipe, O_CLOEXEC) != 0) {
        std::cerr << "ddplab-engine runs: error: cannot start the launcher: " << std::strerror(errno) << std::endl;
        return kExitInternal;
    }
    ChildSetup setup;
    setup.deathSignal = SIGTERM;  // the launcher (torchrun, srun) stops its own ranks
    setup.exitWhenOrphaned = kExitCancelled;
    setup.ownProcessGroup = true;
    pid_t pid = -1;
    try {
        pid = forkChild(setup, "the launcher");
    } catch (const std::runtime_error& error) {
        std::cerr << "ddplab-engine runs: error: " << error.what() << std::endl;
        return kExitInternal;
    }
    if (pid == 0) {
        ::dup2(stderrPipe[1], STDERR_FILENO);
        if (!eventsPath.empty())
            ::setenv(kRunEventsVariable, eventsPath.c_str(), 1);
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::close(stderrPipe[1]);
    g_group = pid;
    struct sigaction action {};
    action.sa_handler = forwardToGroup;
    sigemptyset(&action.sa_mask);
    for (int signo : {SIGINT, SIGTERM, SIGHUP})
        ::sigaction(signo, &action, nullptr);

    LauncherReport report;
    const int status = superviseLauncher(pid, stderrPipe[0], report);
    ::close(stderrPipe[0]);
    const bool failed = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    if (failed && g_stopSignal == 0) {
        if (const auto failure = report.firstFailure()) {
            // Every writer of stdout has gone: this line cannot land inside one of rank 0's.
            const std::string line = encodeEventLine(protocol::errorEvent(*failure));
            writeWholeLine(STDOUT_FILENO, line);  // a reader that has gone: the run ends the same
            if (!eventsPath.empty())
                std::ofstream(eventsPath, std::ios::app) << line;  // the stored run ends as it did
            std::cerr << "ddplab-engine runs: error: " << failure->message << std::endl;
            return failure->exitCode;
        }
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : kExitInternal;
}

}  // namespace ddplab
