#include "runs_command.hpp"

#include "core/home_path.hpp"
#include "core/protocol.hpp"
#include "launch/signal_pipe.hpp"
#include "output/event_writer.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace ddplab {
namespace {

// A request is two paths or a config object: anything longer is not one (and is not held in memory).
constexpr size_t kMaxRequestBytes = 64 * 1024;

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
    std::string config;        // a path
    std::string inlineConfig;  // or the config itself, as JSON text
    std::string events;
    bool stop = false;         // {"stop": true}
    std::string problem;       // why the line is not a request; empty when it is one
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

class RequestLoop {
public:
    RequestLoop(const RunOne& runOne, const RunsOptions& options)
        : m_runOne(runOne), m_stopWhenInputEnds(options.stopWhenInputEnds), m_runDirectory(options.runDirectory)
    {
    }

    int run()
    {
        std::string error;
        if (!signal_pipe::open(&error)) {  // SIGPIPE ignored too: a reader that goes away is EPIPE, a cancel
            std::cerr << "ddplab-engine runs: " << error << std::endl;
            return kExitInternal;
        }

        if (!writeEvent(protocol::helloEvent(protocol::role::kRuns)))
            return kExitCancelled;
        int64_t number = 0;
        while (!m_stopping) {
            std::optional<std::string> line = nextLine();
            if (!line)
                break;
            const Request request = parseRequest(*line, ++number);
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
            pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {signal_pipe::fd(), POLLIN, 0}};
            if (::poll(fds, 2, -1) < 0 && errno != EINTR)
                return std::nullopt;
            for (int signo : signal_pipe::take()) {
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
            // stdin too, while it is open: a stop request, or its end when that means the
            // controller has gone. Other lines wait in m_pending for their turn.
            pollfd fds[2] = {{signal_pipe::fd(), POLLIN, 0}, {m_inputEnded ? -1 : STDIN_FILENO, POLLIN, 0}};
            ::poll(fds, 2, -1);
            for (int signo : signal_pipe::take()) {
                if (isStopSignal(signo)) {
                    m_stopping = true;
                    ::kill(pid, signo);  // the run stops its ranks; a second Ctrl-C kills them
                }
            }
            if (fds[1].revents & (POLLIN | POLLHUP | POLLERR))
                readInputDuringRun(pid);
        }
        if (WIFEXITED(status))
            // A run stopped on request is cancelled, whatever code a launcher (torchrun, srun) ended with.
            return m_stopping && WEXITSTATUS(status) != 0 ? kExitCancelled : WEXITSTATUS(status);
        reportKilledRun(request, WTERMSIG(status));
        return kExitInternal;
    }

    void readInputDuringRun(pid_t child)
    {
        char buffer[4096];
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n > 0) {
            m_pending.append(buffer, size_t(n));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
            m_inputEnded = true;
            if (m_stopWhenInputEnds && !m_stopping) {
                std::cerr << "ddplab-engine runs: stdin ended during a run: its controller has gone; stopping the run" << std::endl;
                m_stopping = true;
                ::kill(child, SIGTERM);
            }
        }
        // A stop request among what arrived stops the run now; the lines before it are dropped
        // with it (nothing asks for a run while one is in progress).
        size_t newline;
        while ((newline = m_pending.find('\n')) != std::string::npos) {
            const std::string line = m_pending.substr(0, newline);
            const Request request = parseRequest(line, 0);
            if (!request.stop)
                break;
            m_pending.erase(0, newline + 1);
            if (!m_stopping) {
                m_stopping = true;
                ::kill(child, SIGTERM);
            }
        }
    }

    // Where a config from stdin is kept: --run-dir (a leading ~/ is the home folder), else $TMPDIR, else /tmp.
    std::string privateFolderTemplate() const
    {
        std::string base = expandHome(m_runDirectory);
        if (base.empty())
            base = std::getenv("TMPDIR") ? std::string(std::getenv("TMPDIR")) : std::string("/tmp");
        ::mkdir(base.c_str(), 0700);  // the folder itself may be new; mkdtemp makes the private one inside
        return base + "/ddplab-config-XXXXXX";  // not ddplab-run-: those are the launchers' (run_directory.cpp)
    }

    [[noreturn]] void becomeRun(const Request& request, pid_t parent)
    {
        // Die with this process, even when it is killed with SIGKILL.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent)
            ::_exit(kExitCancelled);
        for (int signo : {SIGINT, SIGTERM, SIGHUP, SIGCHLD})
            ::signal(signo, SIG_DFL);
        signal_pipe::close();
        // The requests are this process's to read, not the run's.
        const int devNull = ::open("/dev/null", O_RDONLY);
        if (devNull >= 0) {
            ::dup2(devNull, STDIN_FILENO);
            ::close(devNull);
        }
        int code = kExitInternal;
        if (request.inlineConfig.empty()) {
            code = m_runOne(request.config, request.events);
        } else {
            // The config as it came on stdin, in a folder only this user can read, gone after.
            std::string folder = privateFolderTemplate();
            if (::mkdtemp(folder.data()) == nullptr) {
                std::cerr << "ddplab-engine runs: error: cannot create a private folder for the config: " << std::strerror(errno) << std::endl;
                ::_exit(kExitInternal);
            }
            const std::string path = folder + "/config.json";
            const int file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            const bool written = file >= 0 && ::write(file, request.inlineConfig.data(), request.inlineConfig.size()) ==
                                                  ssize_t(request.inlineConfig.size());
            if (file >= 0)
                ::close(file);
            if (written)
                code = m_runOne(path, request.events);
            else
                std::cerr << "ddplab-engine runs: error: cannot write " << path << ": " << std::strerror(errno) << std::endl;
            ::unlink(path.c_str());
            ::rmdir(folder.c_str());
        }
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
    const bool m_stopWhenInputEnds;
    const std::string m_runDirectory;
    std::string m_pending;
    bool m_inputEnded = false;
    bool m_tooLong = false;
    bool m_stopping = false;
};

}  // namespace

int runMany(const RunOne& runOne, const RunsOptions& options)
{
    return RequestLoop(runOne, options).run();
}

}  // namespace ddplab
