#pragma once
// `ddplab-engine run` and `worker`: one training run, from its hello to its summary or error
// (docs/protocol.md). `runs` calls runFromFiles once per request, in a child process.

#include "cli/config_options.hpp"
#include "output/event_writer.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace ddplab {

// `command` is "run" or "worker"; `sub` is its CLI11 subcommand (for stray arguments).
int runTraining(const std::string& command, const ConfigOptions& options, const CLI::App& sub);

// `run --config configPath [--events eventsPath]`.
int runFromFiles(const std::string& configPath, const std::string& eventsPath);

// One message for the person on stderr, the same as an event for the program on stdout.
int fail(EventWriter& events, const std::string& message, const std::string& key, int code);

}  // namespace ddplab
