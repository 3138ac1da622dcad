// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_command.hpp"

#include "launch_template.hpp"

#include "comm/worker_identity.hpp"
#include "core/config_error.hpp"
#include "core/config_file.hpp"
#include "core/config_keys.hpp"
#include "core/config_validate.hpp"
#include "core/data_error.hpp"
#include "core/protocol.hpp"
#include "launch/launcher.hpp"
#include "launch/worker.hpp"
#include "output/output_error.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace ddplab {
namespace {

// Whether two paths name the same file (a run must not append its events to its own config).
bool sameFile(const std::string& a, const std::string& b)
{
    struct stat first {}, second {};
    if (::stat(a.c_str(), &first) != 0 || ::stat(b.c_str(), &second) != 0)
        return false;
    return first.st_dev == second.st_dev && first.st_ino == second.st_ino;
}

std::string unknownOptionMessage(const std::vector<std::string>& extras, const std::string& command)
{
    std::string message;
    for (const std::string& extra : extras) {
        if (!message.empty())
            message += "; ";
        if (extra.rfind("--", 0) == 0) {
            const std::string name = extra.substr(2, extra.find('=') == std::string::npos ? std::string::npos : extra.find('=') - 2);
            const std::string suggestion = suggestKey(name);
            message += "unknown option " + extra;
            if (!suggestion.empty())
                message += " (did you mean " + findConfigKey(suggestion)->flag() + "?)";
        } else {
            message += "unexpected argument \"" + extra + "\"";
        }
    }
    return message + "; 'ddplab-engine " + command + " --help' lists the options";
}

}  // namespace

int fail(EventWriter& events, const std::string& message, const std::string& key, int code)
{
    std::cerr << "ddplab-engine: error: " << message << std::endl;
    events.emit(protocol::errorEvent({message, std::nullopt, key, code}));
    return code;
}

// `run` and `worker`: the stream starts with hello, written before anything is read (a
// config that never ends, a FIFO) or can fail, and ends with summary or one error naming the
// key at fault where there is one. Under torchrun only rank 0 speaks on stdout and writes the
// events file; the other ranks report their own failure on stderr.
RunSettings settingsFromCommandLine(const ConfigOptions& options, const CLI::App& sub)
{
    return {[&options](Config base) { return options.resolve(base); }, options.configFile(), sub.remaining()};
}

int runTraining(const std::string& command, const RunSettings& settings)
{
    const bool isWorker = command == "worker";
    const Json hello = protocol::helloEvent(isWorker ? protocol::role::kWorker : protocol::role::kLauncher);
    // At the end, how long a reader that stopped reading stdout gets to take the last events
    // (they are in the events file already, if there is one).
    constexpr std::chrono::milliseconds kLastWordsDrain{1000};
    EventWriter stream;
    if (!isWorker)
        stream.addStream(STDOUT_FILENO);  // the launcher's stdout never blocks its supervision

    WorkerIdentity identity;
    if (isWorker) {
        try {
            identity = identityFromEnvironment();
        } catch (const ConfigError& error) {
            stream.addFd(STDOUT_FILENO);  // no rank is known: say it on stdout
            stream.emit(hello);
            return fail(stream, error.what(), error.key(), kExitInvalidInput);
        }
        if (identity.rank == 0)
            stream.addFd(STDOUT_FILENO);
    }
    stream.emit(hello);

    int code = kExitOk;
    try {
        if (!settings.strayArguments.empty())
            throw ConfigError("", unknownOptionMessage(settings.strayArguments, command));
        // Under torchrun or Slurm the launcher already says how many ranks there are.
        Config base;
        base.worldSize = identity.worldSize;
        // Started by `runs --launcher` (torchrun, srun): the run's events file, unless the config names one.
        if (const char* events = std::getenv(kRunEventsVariable); isWorker && events)
            base.events = events;
        const Config config = settings.resolve(base);
        const MachineResources machine = thisMachine();
        requireValid(config, &machine, isWorker ? identity.localWorldSize : config.worldSize);
        if (!config.events.empty() && (!isWorker || identity.rank == 0)) {
            if (!settings.configFile.empty() && (config.events == settings.configFile || sameFile(config.events, settings.configFile)))
                throw ConfigError(key::kEvents, "events file \"" + config.events +
                                                "\" is the config file: events would be appended to the settings; give another file");
            stream.appendToFile(config.events, hello);
        }
        code = isWorker ? runWorker(config, identity, stream) : runLauncher(config, stream);
    } catch (const ConfigError& error) {
        code = fail(stream, error.what(), error.key(), kExitInvalidInput);
    } catch (const DataError& error) {
        code = fail(stream, error.what(), error.key(), kExitDataError);
    } catch (const OutputError& error) {
        code = fail(stream, error.what(), error.key(), kExitOutputError);
    } catch (const std::exception& error) {
        code = fail(stream, std::string("internal error: ") + error.what(), "", kExitInternal);
    }
    stream.drainStream(kLastWordsDrain);
    return code;
}

int runFromFiles(const std::string& configPath, const std::string& eventsPath)
{
    const auto resolve = [&](Config config) {
        applyJson(config, readConfigFile(configPath), "config file \"" + configPath + "\"");
        if (!eventsPath.empty())
            config.events = eventsPath;
        requireValid(config);
        return config;
    };
    return runTraining("run", RunSettings{resolve, configPath, {}});
}

}  // namespace ddplab
