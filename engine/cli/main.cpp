// SPDX-License-Identifier: GPL-3.0-or-later
// ddplab-engine: the training engine of DDP Lab.
//
//   run      launch a local multi-process run (world_size ranks over Gloo or NCCL)
//   worker   one rank under torchrun or srun
//   runs     one run after another, as stdin asks (LibTorch loaded once: studies, lessons)
//   inspect  your own model and data (workload torchscript) checked together, as JSON
//   devices  GPUs, backends and versions, as JSON
//   shard    the exact per-rank, per-iteration sample indices of DistributedSampler
//   keys     the config keys, their defaults and what they allow
//
// Every subcommand exits with a code from core/protocol_names.hpp (ExitCode); `run`, `worker`
// and `runs` speak the JSON Lines event protocol of docs/protocol.md on stdout.

#include "cli/config_options.hpp"
#include "cli/inspect_command.hpp"
#include "cli/launch_template.hpp"
#include "cli/run_command.hpp"
#include "cli/runs_command.hpp"
#include "cli/shard_command.hpp"
#include "comm/gpu_inventory.hpp"
#include "core/limits.hpp"
#include "core/protocol.hpp"
#include "output/event_writer.hpp"
#include "output/stderr_lines.hpp"

#include <CLI/CLI.hpp>

#include <csignal>
#include <iostream>
#include <optional>
#include <unistd.h>
#include <utility>

namespace ddplab {
namespace {

// "Exit codes: 0 ok, 1 internal error, ...", from the one table of them.
std::string exitCodesHelp()
{
    std::string help = "Exit codes:";
    for (const ExitCodeMeaning& entry : kExitCodeMeanings)
        help += std::string(&entry == kExitCodeMeanings ? " " : ", ") + std::to_string(int(entry.code)) + " " + entry.meaning;
    return help + ".";
}

// Every subcommand, its options, and where their values land once parsed.
struct CommandLine {
    CLI::App app{"ddplab-engine " + protocol::engineVersion() + ": the training engine of DDP Lab (real multi-process DDP on Gloo/NCCL)",
                 "ddplab-engine"};
    CLI::App* run = nullptr;
    CLI::App* worker = nullptr;
    CLI::App* runs = nullptr;
    CLI::App* inspect = nullptr;
    CLI::App* devices = nullptr;
    CLI::App* keys = nullptr;
    CLI::App* shard = nullptr;
    std::optional<ConfigOptions> runOptions;
    std::optional<ConfigOptions> workerOptions;
    std::optional<ConfigOptions> inspectOptions;
    RunsOptions runsOptions;
    ShardRequest shardRequest;

    CommandLine();
};

CommandLine::CommandLine()
{
    app.set_version_flag("--version", "ddplab-engine " + protocol::engineVersion() + " (event protocol " +
                                          std::to_string(kProtocolVersion) + ")");
    app.require_subcommand(1);
    app.footer(exitCodesHelp() + "\nEvents: JSON Lines on stdout, described in docs/protocol.md.");

    run = app.add_subcommand("run", "launch a local run: world_size worker processes over Gloo (CPU) or NCCL (GPU)");
    runOptions.emplace(*run);
    run->allow_extras();

    worker = app.add_subcommand("worker", "run one rank under torchrun (--no-python) or srun, from their environment");
    workerOptions.emplace(*worker);
    worker->allow_extras();

    runs = app.add_subcommand(protocol::role::kRuns, "run one config after another, as stdin asks: one JSON line per run, "
                                                     "{\"config\": PATH, \"events\": PATH} (docs/protocol.md)");
    runs->add_flag("--stop-when-input-ends", runsOptions.stopWhenInputEnds,
                   "stop the run in progress when stdin ends: its controller (the lab, an SSH connection) has gone");
    runs->add_option("--launcher", runsOptions.launcher,
                     "start each run with this shell command instead of the built-in launcher: {engine}, {config} and "
                     "{ranks} are filled in (torchrun, srun; docs/remote.md)");
    runs->add_option("--run-dir", runsOptions.runDirectory,
                     "where a config given on stdin is kept while its run lasts (default $TMPDIR or /tmp; a leading ~/ is "
                     "the home folder): under Slurm, a folder every node sees");

    inspect = app.add_subcommand("inspect", "load your own model and data (workload torchscript), run the first batch "
                                            "through a training step, and print what they are as JSON (docs/own-model.md)");
    inspectOptions.emplace(*inspect);

    devices = app.add_subcommand("devices", "print GPUs, NCCL/Gloo availability and the LibTorch version as JSON");
    keys = app.add_subcommand("keys", "print every config key (flag, type, default, what is allowed, help) as JSON");

    shard = app.add_subcommand("shard", "print the exact sample indices of every rank and iteration as JSON "
                                         "(beyond 1,000,000 indices, the first iterations: listed_iterations)");
    // The same limits as `run`'s keys (core/limits.hpp).
    shard->add_option("--num-examples", shardRequest.numExamples, "examples in the dataset")->required()->check(CLI::Range(int64_t(1), limits::kMaxExamples));
    shard->add_option("--world-size", shardRequest.worldSize, "ranks")->required()->check(CLI::Range(int64_t(1), limits::kMaxRanks));
    shard->add_option("--batch-size", shardRequest.batchSize, "batch size per rank")->required()->check(CLI::Range(int64_t(1), limits::kMaxBatch));
    shard->add_flag("--drop-last", shardRequest.dropLast, "DistributedSampler's drop_last");
    shard->add_flag("--shuffle", shardRequest.shuffle, "shuffle with a permutation seeded by seed + epoch");
    shard->add_option("--seed", shardRequest.seed, "shuffle seed")->check(CLI::Range(int64_t(0), limits::kMaxSeed));
    shard->add_option("--epoch", shardRequest.epoch, "epoch (DistributedSampler.set_epoch)")->check(CLI::Range(int64_t(0), limits::kMaxEpochs));
}

// A command line CLI11 could not take, said so that the reader knows what to type instead;
// `run` and `worker` say it as events too, for the program that reads them.
int explainParseError(const CLI::ParseError& error, const CLI::App& app, int argc, char** argv)
{
    const std::string command = argc > 1 ? argv[1] : "";
    std::string message = error.what();
    if (error.get_name() == "ConversionError")
        message += " (on/off settings are switches: --shuffle or --no-shuffle, with no value)";
    if (command == "run" || command == "worker") {
        EventWriter events;
        events.addFd(STDOUT_FILENO);
        events.emit(protocol::helloEvent(command == "run" ? protocol::role::kLauncher : protocol::role::kWorker));
        return fail(events, message, "", kExitInvalidInput);
    }
    if (argc == 1) {
        std::cerr << app.help() << std::endl;
        return kExitInvalidInput;
    }
    // CLI11 takes an unknown word for a stray argument and asks for a subcommand.
    std::string known;
    bool isKnown = false;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        known += (known.empty() ? "" : ", ") + sub->get_name();
        isKnown = isKnown || sub->get_name() == command;
    }
    if (!isKnown && !command.empty() && command[0] != '-') {
        std::cerr << "ddplab-engine: error: unknown subcommand \"" << command << "\"; use one of " << known
                  << " (see 'ddplab-engine --help')" << std::endl;
        return kExitInvalidInput;
    }
    std::cerr << "ddplab-engine: error: " << message << "\n(see 'ddplab-engine " << command << " --help')" << std::endl;
    return kExitInvalidInput;
}

// devices, keys, shard: one JSON document on stdout (text that is not UTF-8 replaced, as the
// event encoder does, never a throw).
int printReport(const Json& report, int indent)
{
    std::cout << report.dump(indent, ' ', false, Json::error_handler_t::replace) << std::endl;
    return kExitOk;
}

// The subcommand that was asked for, run.
int runCommand(const CommandLine& line)
{
    if (*line.run)
        return runTraining("run", settingsFromCommandLine(*line.runOptions, *line.run));
    if (*line.worker)
        return runTraining("worker", settingsFromCommandLine(*line.workerOptions, *line.worker));
    if (*line.runs)
        return runRequests(line.runsOptions);
    if (*line.inspect)
        return runInspect(*line.inspectOptions);
    if (*line.devices)
        return printReport(deviceReport(), 2);
    if (*line.keys)
        return printReport(protocol::keysReport(), 2);
    if (*line.shard)
        return printReport(shardReport(line.shardRequest), -1);
    return kExitInvalidInput;
}

}  // namespace
}  // namespace ddplab

int main(int argc, char** argv)
{
    using namespace ddplab;
    // A file-size limit (ulimit -f) must fail a write with EFBIG, which the engine reports
    // (exit 6), not kill the process with SIGXFSZ; ranks and checks inherit the setting.
    ::signal(SIGXFSZ, SIG_IGN);
    // Ranks and their launcher share stderr: lines must not cut into one another.
    writeStderrInWholeLines();
    CommandLine line;
    try {
        line.app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return line.app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return line.app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return line.app.exit(e);
    } catch (const CLI::ParseError& e) {
        return explainParseError(e, line.app, argc, argv);
    }
    try {
        return runCommand(line);
    } catch (const std::exception& error) {
        std::cerr << "ddplab-engine: internal error: " << error.what() << std::endl;
        return kExitInternal;
    }
}
