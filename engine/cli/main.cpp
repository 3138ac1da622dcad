// ddplab-engine: the training engine of DDP Lab.
//
//   run      launch a local multi-process run (world_size ranks over Gloo or NCCL)
//   worker   one rank under torchrun or srun
//   runs     one run after another, as stdin asks (LibTorch loaded once: studies, lessons)
//   devices  GPUs, backends and versions, as JSON
//   shard    the exact per-rank, per-iteration sample indices of DistributedSampler
//   keys     the config keys, their defaults and what they allow
//
// Every subcommand exits with a code from core/protocol_names.hpp (ExitCode); `run`, `worker`
// and `runs` speak the JSON Lines event protocol of docs/protocol.md on stdout.

#include "cli/config_options.hpp"
#include "cli/launch_template.hpp"
#include "cli/run_command.hpp"
#include "cli/runs_command.hpp"
#include "cli/shard_command.hpp"
#include "comm/gpu_inventory.hpp"
#include "core/config_keys.hpp"
#include "core/limits.hpp"
#include "core/protocol.hpp"
#include "output/event_writer.hpp"

#include <CLI/CLI.hpp>

#include <iostream>
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

// The config-key table with defaults, for tools and for docs/configuration.md.
Json keyReport()
{
    const Config defaults;
    Json report = Json::array();
    for (const ConfigKey& key : configKeys()) {
        static const char* const kTypeNames[] = {"integer", "number", "boolean", "choice", "text"};
        Json entry;
        entry[protocol::keys::kKey] = key.name;
        entry[protocol::keys::kFlag] = key.type == KeyType::Boolean ? key.flag() + " / --no-" + key.flag().substr(2) : key.flag();
        entry[protocol::keys::kType] = kTypeNames[int(key.type)];
        entry[protocol::keys::kDefault] = key.read(defaults);
        entry[protocol::keys::kAllowed] = key.allowed;
        entry[protocol::keys::kHelp] = key.help;
        if (!key.choices.empty())
            entry[protocol::keys::kChoices] = key.choices;
        report.push_back(entry);
    }
    return report;
}

}  // namespace
}  // namespace ddplab

int main(int argc, char** argv)
{
    using namespace ddplab;
    CLI::App app{"ddplab-engine " + protocol::engineVersion() + ": the training engine of DDP Lab (real multi-process DDP on Gloo/NCCL)",
                 "ddplab-engine"};
    app.set_version_flag("--version", "ddplab-engine " + protocol::engineVersion() + " (event protocol " +
                                          std::to_string(kProtocolVersion) + ")");
    app.require_subcommand(1);
    app.footer(exitCodesHelp() + "\nEvents: JSON Lines on stdout, described in docs/protocol.md.");

    CLI::App* run = app.add_subcommand("run", "launch a local run: world_size worker processes over Gloo (CPU) or NCCL (GPU)");
    ConfigOptions runOptions(*run);
    run->allow_extras();

    CLI::App* worker = app.add_subcommand("worker", "run one rank under torchrun (--no-python) or srun, from their environment");
    ConfigOptions workerOptions(*worker);
    worker->allow_extras();

    CLI::App* runs = app.add_subcommand(protocol::role::kRuns, "run one config after another, as stdin asks: one JSON line per run, "
                                                "{\"config\": PATH, \"events\": PATH} (docs/protocol.md)");
    RunsOptions runsOptions;
    runs->add_flag("--stop-when-input-ends", runsOptions.stopWhenInputEnds,
                   "stop the run in progress when stdin ends: its controller (the lab, an SSH connection) has gone");
    runs->add_option("--launcher", runsOptions.launcher,
                     "start each run with this shell command instead of the built-in launcher: {engine}, {config} and "
                     "{ranks} are filled in (torchrun, srun; docs/remote.md)");
    runs->add_option("--run-dir", runsOptions.runDirectory,
                     "where a config given on stdin is kept while its run lasts (default $TMPDIR or /tmp; a leading ~/ is "
                     "the home folder): under Slurm, a folder every node sees");

    CLI::App* devices = app.add_subcommand("devices", "print GPUs, NCCL/Gloo availability and the LibTorch version as JSON");
    CLI::App* keys = app.add_subcommand("keys", "print every config key (flag, type, default, what is allowed, help) as JSON");

    ShardRequest shard;
    CLI::App* shardCommand = app.add_subcommand("shard", "print the exact sample indices of every rank and iteration as JSON "
                                                         "(beyond 1,000,000 indices, the first iterations: listed_iterations)");
    // The same limits as `run`'s keys (core/limits.hpp).
    shardCommand->add_option("--num-examples", shard.numExamples, "examples in the dataset")->required()->check(CLI::Range(int64_t(1), limits::kMaxExamples));
    shardCommand->add_option("--world-size", shard.worldSize, "ranks")->required()->check(CLI::Range(int64_t(1), limits::kMaxRanks));
    shardCommand->add_option("--batch-size", shard.batchSize, "batch size per rank")->required()->check(CLI::Range(int64_t(1), limits::kMaxBatch));
    shardCommand->add_flag("--drop-last", shard.dropLast, "DistributedSampler's drop_last");
    shardCommand->add_flag("--shuffle", shard.shuffle, "shuffle with a permutation seeded by seed + epoch");
    shardCommand->add_option("--seed", shard.seed, "shuffle seed")->check(CLI::Range(int64_t(0), limits::kMaxSeed));
    shardCommand->add_option("--epoch", shard.epoch, "epoch (DistributedSampler.set_epoch)")->check(CLI::Range(int64_t(0), limits::kMaxEpochs));

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        const std::string command = argc > 1 ? argv[1] : "";
        std::string message = e.what();
        if (e.get_name() == "ConversionError")
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
        for (const CLI::App* sub : std::as_const(app).get_subcommands([](const CLI::App*) { return true; })) {
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

    try {
        if (*run)
            return runTraining("run", runOptions, *run);
        if (*worker)
            return runTraining("worker", workerOptions, *worker);
        if (*runs)
            return runMany(runsOptions.launcher.empty() ? RunOne(runFromFiles)
                                                        : RunOne([&](const std::string& config, const std::string&) {
                                                              return runLaunchTemplate(runsOptions.launcher, config);
                                                          }),
                           runsOptions);
        if (*devices) {
            std::cout << deviceReport().dump(2) << std::endl;
            return kExitOk;
        }
        if (*keys) {
            std::cout << keyReport().dump(2) << std::endl;
            return kExitOk;
        }
        if (*shardCommand) {
            std::cout << shardReport(shard).dump() << std::endl;
            return kExitOk;
        }
    } catch (const std::exception& error) {
        std::cerr << "ddplab-engine: internal error: " << error.what() << std::endl;
        return kExitInternal;
    }
    return kExitInvalidInput;
}
