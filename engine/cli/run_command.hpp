// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab-engine run` and `worker`: one training run, from its hello to its summary or error
// (docs/protocol.md). `runs` calls runFromFiles once per request, in a child process.

#include "cli/config_options.hpp"
#include "output/event_writer.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ddplab {

// Where a run's settings come from: the command line (flags over a config file) or a request
// of `runs` (a config file and an events file). `resolve` completes `base` (what torchrun or
// Slurm fixed) and checks the result (ConfigError).
struct RunSettings {
    std::function<Config(Config base)> resolve;
    std::string configFile;                 // for the check that events are not written into it
    std::vector<std::string> strayArguments;  // refused, naming each
};

// The command line's: `sub` is the CLI11 subcommand (its stray arguments), `options` its flags.
RunSettings settingsFromCommandLine(const ConfigOptions& options, const CLI::App& sub);

// `command` is "run" or "worker".
int runTraining(const std::string& command, const RunSettings& settings);

// One request of `runs`: the config file, with the events file over its `events` key.
int runFromFiles(const std::string& configPath, const std::string& eventsPath);

// One message for the person on stderr, the same as an event for the program on stdout.
int fail(EventWriter& events, const std::string& message, const std::string& key, int code);

}  // namespace ddplab
