#include "launch_template.hpp"

#include "core/json.hpp"
#include "core/key_names.hpp"
#include "core/protocol_names.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ddplab {
namespace {

pid_t g_group = 0;

void forwardToGroup(int signo)
{
    if (g_group > 0)
        ::kill(-g_group, signo);
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

int runLaunchTemplate(const std::string& launchTemplate, const std::string& configPath)
{
    std::string error;
    const std::string command = expandLaunchTemplate(launchTemplate, ownPath(), configPath, &error);
    if (command.empty()) {
        std::cerr << "ddplab-engine runs: error: " << error << std::endl;
        return kExitInvalidInput;
    }
    std::cerr << "ddplab-engine runs: launching: " << command << std::endl;
    const pid_t pid = ::fork();
    if (pid < 0) {
        std::cerr << "ddplab-engine runs: error: cannot start the launcher: " << std::strerror(errno) << std::endl;
        return kExitInternal;
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    g_group = pid;
    struct sigaction action {};
    action.sa_handler = forwardToGroup;
    sigemptyset(&action.sa_mask);
    for (int signo : {SIGINT, SIGTERM, SIGHUP})
        ::sigaction(signo, &action, nullptr);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    // What the launcher left behind in its group (a rank it did not reap) goes too.
    ::kill(-pid, SIGTERM);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WIFEXITED(status) ? WEXITSTATUS(status) : kExitInternal;
}

}  // namespace ddplab
