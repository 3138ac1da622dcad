#include "runs_command.hpp"

#include "core/event_writer.hpp"
#include "core/protocol.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ddplab {
namespace {

// A request is two paths: anything longer is not one (and is not held in memory).
constexpr size_t kMaxRequestBytes = 16 * 1024;

// Signals wake the loop through this pipe: a byte per signal, read back in the loop.
int g_wakePipe[2] = {-1, -1};

void onSignal(int signo)
{
    const int saved = errno;
    const auto byte = static_cast<unsigned char>(signo);
    (void)!::write(g_wakePipe[1], &byte, 1);
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

std::vector<int> takeSignals()
{
    std::vector<int> signals;
    unsigned char bytes[64];
    ssize_t n;
    while ((n = ::read(g_wakePipe[0], bytes, sizeof bytes)) > 0)
        signals.insert(signals.end(), bytes, bytes + n);
    return signals;
}

bool isStopSignal(int signo)
{
    return signo == SIGTERM || signo == SIGINT || signo == SIGHUP;
}

// This process's own lines on stdout (hello, run_end, an error for a run): whole lines, written
// between runs, never while a run writes. False when the reader has gone.
bool writeEvent(const Json& event)
{
    const std::string line = event.dump() + "\n";
    size_t done = 0;
    while (done < line.size()) {
        const ssize_t written = ::write(STDOUT_FILENO, line.data() + done, line.size() - done);
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0 && errno == EAGAIN) {
            pollfd ready{STDOUT_FILENO, POLLOUT, 0};
            ::poll(&ready, 1, 100);
            continue;
        }
        if (written <= 0)
            return false;
        done += size_t(written);
    }
    return true;
}

struct Request {
    std::string config;
    std::string events;
    std::string problem;  // why the line is not a request; empty when it is one
};

Request parseRequest(const std::string& line, int64_t number)
{
    Request request;
    const std::string which = "request " + std::to_string(number) + " on stdin";
    const std::string expected = std::string("{\"") + protocol::request::kConfig + "\": PATH, \"" +
                                 protocol::request::kEvents + "\": PATH}";
    const Json parsed = Json::parse(line, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        request.problem = which + " is not a JSON object; expected " + expected;
        return request;
    }
    for (const auto& [name, value] : parsed.items()) {
        if (name != protocol::request::kConfig && name != protocol::request::kEvents) {
            request.problem = which + " has an unknown field \"" + name + "\"; expected " + expected;
            return request;
        }
        if (!value.is_string()) {
            request.problem = which + ": \"" + name + "\" must be a path (a string)";
            return request;
        }
        (name == protocol::request::kConfig ? request.config : request.events) = value.get<std::string>();
    }
    if (request.config.empty())
        request.problem = which + " names no config file; expected " + expected;
    return request;
}

class RequestLoop {
public:
    explicit RequestLoop(const RunOne& runOne) : m_runOne(runOne) {}

    int run()
    {
        if (::pipe2(g_wakePipe, O_CLOEXEC | O_NONBLOCK) != 0) {
            std::cerr << "ddplab-engine runs: cannot create the signal pipe: " << std::strerror(errno) << std::endl;
            return kExitInternal;
        }
        installHandler(SIGINT, onSignal);
        installHandler(SIGTERM, onSignal);
        installHandler(SIGHUP, onSignal);
        installHandler(SIGCHLD, onSignal);
        installHandler(SIGPIPE, SIG_IGN);  // a reader that goes away: EPIPE, a cancel

        if (!writeEvent(protocol::helloEvent(protocol::role::kRuns)))
            return kExitCancelled;
        int64_t number = 0;
        while (!m_stopping) {
            std::optional<std::string> line = nextLine();
            if (!line)
                break;
            const Request request = parseRequest(*line, ++number);
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

private:
    // The next line of stdin; nothing at its end, on a stop signal, or when a line is too long.
    std::optional<std::string> nextLine()
    {
        while (true) {
            const size_t newline = m_pending.find('\n');
            if (newline != std::string::npos) {
                std::string line = m_pending.substr(0, newline);
                m_pending.erase(0, newline + 1);
                if (line.find_first_not_of(" \t\r") == std::string::npos)
                    continue;  // blank lines separate nothing
                return line;
            }
            if (m_pending.size() > kMaxRequestBytes) {
                m_tooLong = true;
                return std::nullopt;
            }
            if (m_inputEnded) {
                if (m_pending.find_first_not_of(" \t\r") == std::string::npos)
                    return std::nullopt;
                return std::exchange(m_pending, std::string());
            }
            pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {g_wakePipe[0], POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0 && errno != EINTR)
                return std::nullopt;
            for (int signo : takeSignals()) {
                if (isStopSignal(signo))
                    m_stopping = true;
            }
            if (m_stopping)
                return std::nullopt;
            if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
                char buffer[4096];
                const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
                if (n > 0)
                    m_pending.append(buffer, size_t(n));
                else if (n == 0 || (errno != EINTR && errno != EAGAIN))
                    m_inputEnded = true;
            }
        }
    }

    int runChild(const Request& request)
    {
        const pid_t parent = ::getpid();
        const pid_t pid = ::fork();
        if (pid < 0) {
            const std::string message = std::string("cannot start a run process: ") + std::strerror(errno);
            std::cerr << "ddplab-engine runs: error: " << message << std::endl;
            writeEvent(protocol::errorEvent({message, std::nullopt, "", kExitInternal}));
            return kExitInternal;
        }
        if (pid == 0)
            becomeRun(request, parent);

        int status = 0;
        while (::waitpid(pid, &status, WNOHANG) != pid) {
            pollfd wake{g_wakePipe[0], POLLIN, 0};
            ::poll(&wake, 1, -1);
            for (int signo : takeSignals()) {
                if (isStopSignal(signo)) {
                    m_stopping = true;
                    ::kill(pid, signo);  // the run stops its ranks; a second Ctrl-C kills them
                }
            }
        }
        if (WIFEXITED(status))
            return WEXITSTATUS(status);
        reportKilledRun(request, WTERMSIG(status));
        return kExitInternal;
    }

    [[noreturn]] void becomeRun(const Request& request, pid_t parent)
    {
        // Die with this process, even when it is killed with SIGKILL.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(kExitCancelled);
        for (int signo : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
            ::signal(signo, SIG_DFL);
        ::close(g_wakePipe[0]);
        ::close(g_wakePipe[1]);
        // The requests are this process's to read, not the run's.
        const int devNull = ::open("/dev/null", O_RDONLY);
        if (devNull >= 0) {
            ::dup2(devNull, STDIN_FILENO);
            ::close(devNull);
        }
        const int code = m_runOne(request.config, request.events);
        std::cout.flush();
        std::cerr.flush();
        std::fflush(nullptr);
        ::_exit(code);
    }

    // A run's process that dies by a signal wrote no last word: write it, to the reader and to
    // the run's events file, so that the run ends with an error like any other.
    void reportKilledRun(const Request& request, int signo)
    {
        std::string message = "the run's process was killed by signal " + std::to_string(signo) + " (" +
                              strsignal(signo) + ")";
        if (signo == SIGKILL)
            message += "; the system may have run out of memory";
        std::cerr << "ddplab-engine runs: error: " << message << std::endl;
        const Json error = protocol::errorEvent({message, std::nullopt, "", kExitInternal});
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
    }

    const RunOne& m_runOne;
    std::string m_pending;
    bool m_inputEnded = false;
    bool m_tooLong = false;
    bool m_stopping = false;
};

}  // namespace

int runMany(const RunOne& runOne)
{
    return RequestLoop(runOne).run();
}

}  // namespace ddplab
