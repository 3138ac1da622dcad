// SPDX-License-Identifier: GPL-3.0-or-later
#include "own_model_check.hpp"

#include "core/config_error.hpp"
#include "core/data_error.hpp"
#include "core/home_path.hpp"
#include "core/json.hpp"
#include "core/key_names.hpp"
#include "core/line_reader.hpp"
#include "core/protocol.hpp"
#include "data/tensor_data.hpp"
#include "output/event_line.hpp"
#include "workloads/model_inspection.hpp"
#include "child_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ddplab {
namespace {

// The longest answer line held: an error message, a path and a model's exception in it.
constexpr size_t kMostAnswerBytes = 1u << 20;

// In the child: the check, and what it found as an error event on `fd`; never returns.
[[noreturn]] void checkAndExit(const Config& config, int fd)
{
    // A forward that never returns: the kernel ends the check (SIGALRM), the parent says why.
    ::alarm(unsigned(modelCheckSeconds(config)));
    protocol::ErrorReport error;
    try {
        inspectOwnModel(config);
        ::_exit(kExitOk);
    } catch (const ConfigError& problem) {
        error = {problem.what(), std::nullopt, problem.key(), kExitInvalidInput};
    } catch (const DataError& problem) {
        error = {problem.what(), std::nullopt, problem.key(), kExitDataError};
    } catch (const std::exception& problem) {
        error = {problem.what(), std::nullopt, "", kExitInternal};
    }
    writeWholeLine(fd, encodeEventLine(protocol::errorEvent(error)));
    ::_exit(error.exitCode);
}

}  // namespace

void checkOwnModelBeforeStart(const Config& config)
{
    loadTensorData(config.trainData, key::kTrainData);
    if (!config.valData.empty())
        loadTensorData(config.valData, key::kValData);

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot create a pipe for the model check: ") + std::strerror(errno));
    ChildSetup setup;
    setup.defaultSignals = {SIGALRM};
    setup.exitWhenOrphaned = kExitCancelled;
    const pid_t pid = forkChild(setup, "the model check");
    if (pid == 0) {
        ::close(fds[0]);
        checkAndExit(config, fds[1]);
    }
    ::close(fds[1]);
    // The check answers with one line (its error event); whatever else arrives is read and let go.
    LineReader answer(kMostAnswerBytes, kMostAnswerBytes);
    std::optional<std::string> said;
    char chunk[4096];
    ssize_t n;
    while ((n = ::read(fds[0], chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR)) {
        answer.append(chunk, size_t(std::max<ssize_t>(n, 0)));
        while (std::optional<LineReader::Line> line = answer.take())
            if (!said)
                said = std::move(line->text);
    }
    ::close(fds[0]);
    if (!said)
        said = answer.takeRest();
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }

    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        throw ConfigError(key::kModelFile, modelCheckTimeoutMessage(expandHome(config.modelFile), modelCheckSeconds(config)));
    if (WIFSIGNALED(status)) {
        const char* name = sigabbrev_np(WTERMSIG(status));
        throw ConfigError(key::kModelFile, std::string(key::kModelFile) + " " + config.modelFile +
                                               ": running the first batch through it killed the process that checked it (signal " +
                                               std::to_string(WTERMSIG(status)) + (name ? std::string(", SIG") + name : "") + ")");
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : kExitInternal;
    if (code == kExitOk)
        return;
    const Json error = Json::parse(*said, nullptr, false);
    const std::string message = error.is_object() ? error.value(protocol::field::kMessage, *said) : *said;
    const std::string key = error.is_object() ? error.value(protocol::field::kKey, std::string()) : std::string();
    if (code == kExitInvalidInput)
        throw ConfigError(key, message);
    if (code == kExitDataError)
        throw DataError(message, key);
    throw std::runtime_error("checking " + std::string(key::kModelFile) + " " + config.modelFile + " failed: " + message);
}

}  // namespace ddplab
