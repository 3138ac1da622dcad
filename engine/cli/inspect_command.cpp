// SPDX-License-Identifier: GPL-3.0-or-later
#include "inspect_command.hpp"

#include "cli/run_command.hpp"
#include "core/config_error.hpp"
#include "core/config_validate.hpp"
#include "core/data_error.hpp"
#include "core/home_path.hpp"
#include "core/key_names.hpp"
#include "core/protocol.hpp"
#include "core/protocol_inspection.hpp"
#include "core/protocol_names.hpp"
#include "core/workload_table.hpp"
#include "output/event_line.hpp"
#include "output/event_writer.hpp"
#include "workloads/model_inspection.hpp"
#include "workloads/saved_model_file.hpp"

#include <csignal>
#include <fcntl.h>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace ddplab {
namespace {

// What the time limit says, prepared before the model runs: a signal handler may only write.
std::string g_timeoutLine;
int g_answerFd = STDOUT_FILENO;

extern "C" void onCheckTimeout(int)
{
    for (size_t written = 0; written < g_timeoutLine.size();) {
        const ssize_t n = ::write(g_answerFd, g_timeoutLine.data() + written, g_timeoutLine.size() - written);
        if (n <= 0)
            break;
        written += size_t(n);
    }
    ::_exit(kExitInvalidInput);
}

// A forward that never returns must not hold inspect (or the window that waits on it)
// forever: after modelCheckSeconds the process says so, naming model_file, and exits 2.
class CheckTimeLimit {
public:
    explicit CheckTimeLimit(const Config& config)
    {
        const int64_t seconds = modelCheckSeconds(config);
        // Through the one encoder: a model_file path that is not UTF-8 is replaced, not refused.
        g_timeoutLine = encodeEventLine(protocol::errorEvent({modelCheckTimeoutMessage(expandHome(config.modelFile), seconds), std::nullopt,
                                                              key::kModelFile, kExitInvalidInput}));
        ::signal(SIGALRM, onCheckTimeout);
        ::alarm(unsigned(seconds));
    }
    ~CheckTimeLimit() { ::alarm(0); }
    CheckTimeLimit(const CheckTimeLimit&) = delete;
    CheckTimeLimit& operator=(const CheckTimeLimit&) = delete;
};

// The model is code and may print(): its words go to stderr, so that stdout carries the one
// line inspect answers with. Returns the descriptor of the original stdout.
int keepStdoutForTheAnswer()
{
    const int answer = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (answer < 0)
        return STDOUT_FILENO;
    std::cout.flush();
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    return answer;
}

}  // namespace

int runInspect(const ConfigOptions& options)
{
    g_answerFd = keepStdoutForTheAnswer();
    EventWriter out;
    out.addFd(g_answerFd);
    try {
        Config config = options.resolve();
        if (!traitsOf(config).ownModel)
            throw ConfigError(key::kWorkload, "inspect checks your own model and data: workload torchscript with model_file "
                                              "and train_data (docs/own-model.md)");
        const MachineResources machine = thisMachine();
        requireValid(config, &machine, config.worldSize);
        const std::string notice = checkSaveTarget(config.saveModel);
        if (!notice.empty())
            std::cerr << "ddplab-engine: " << notice << std::endl;
        std::optional<protocol::InspectionReport> report;
        {
            const CheckTimeLimit limit(config);
            report = inspectOwnModel(config);
        }
        config.trainSamples = report->train.samples;
        out.emit(protocol::inspectionEvent(config, *report));
        return kExitOk;
    } catch (const ConfigError& error) {
        return fail(out, error.what(), error.key(), kExitInvalidInput);
    } catch (const DataError& error) {
        return fail(out, error.what(), error.key(), kExitDataError);
    } catch (const std::exception& error) {
        return fail(out, std::string("internal error: ") + error.what(), "", kExitInternal);
    }
}

}  // namespace ddplab
