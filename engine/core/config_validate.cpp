#include "config_validate.hpp"

#include "derived.hpp"
#include "key_names.hpp"
#include "wording.hpp"

#include <cfloat>
#include <cmath>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

namespace ddplab {
namespace {
// Toy and linreg data live in memory on every rank; beyond this a run would swap, not teach.
constexpr double kMaxDataValues = 200'000'000;

// The key whose value makes a run big, for the field the message is shown at.
std::string biggestKey(const Config& c)
{
    if (c.workload == WorkloadKind::FashionMnist || c.workload == WorkloadKind::TorchScript)
        return c.batchSize > 1000 ? key::kBatchSize : key::kWorldSize;
    if (c.experiments > 1 && double(c.experiments) * double(c.batchSize) > double(c.numExamples))
        return key::kExperiments;
    return c.numExamples >= c.batchSize ? key::kNumExamples : key::kBatchSize;
}

void machineProblems(const Config& c, const MachineResources& machine, int64_t ranksHere,
                     const std::function<void(const std::string&, const std::string&)>& problem)
{
    if (machine.cpuCores > 0 && c.threads > machine.cpuCores)
        problem(key::kThreads, "threads must be at most the " + countOf(machine.cpuCores, "CPU core") +
                               " of this machine (got " + std::to_string(c.threads) +
                               "); more threads than cores only wait for each other. 0 shares the cores among the ranks");
    if (machine.memoryAvailableBytes > 0 && ranksHere > 0) {
        const double perRank = double(estimatedRankBytes(c));
        const double total = perRank * double(ranksHere);
        if (total > double(machine.memoryAvailableBytes))
            problem(biggestKey(c), "this run needs about " + gibText(total) + " of memory (" + countOf(ranksHere, "rank") +
                                       " x " + gibText(perRank) + ", each rank holds its own data) but the machine has " +
                                       gibText(double(machine.memoryAvailableBytes)) +
                                       " available; use fewer ranks, fewer examples or experiments, or a smaller batch");
    }
}

}  // namespace

MachineResources thisMachine()
{
    MachineResources machine;
    machine.cpuCores = int(std::thread::hardware_concurrency());
    std::ifstream meminfo("/proc/meminfo");
    std::string name;
    int64_t kib = 0;
    std::string unit;
    while (meminfo >> name >> kib) {
        std::getline(meminfo, unit);
        if (name == "MemAvailable:") {
            machine.memoryAvailableBytes = kib * 1024;
            break;
        }
    }
    return machine;
}

ConfigProblems findProblems(const Config& c, const MachineResources* machine, int64_t ranksHere)
{
    ConfigProblems problems;
    auto problem = [&](const std::string& key, const std::string& message) { problems.push_back({key, message}); };

    const bool vectorised = c.workload == WorkloadKind::Toy || c.workload == WorkloadKind::Linreg;
    if (c.experiments > 1 && !vectorised)
        problem(key::kExperiments, "experiments > 1 needs workload toy or linreg (Fashion-MNIST and torchscript train one model)");

    if (c.workload == WorkloadKind::TorchScript) {
        if (c.modelFile.empty())
            problem(key::kModelFile, "workload torchscript needs model_file: a TorchScript file, saved with "
                                     "torch.jit.script(model).save(PATH) (docs/own-model.md)");
        if (c.trainData.empty())
            problem(key::kTrainData, "workload torchscript needs train_data: a torch.save({\"inputs\": X, \"targets\": Y}) "
                                     "file or a folder holding inputs.npy and targets.npy (docs/own-model.md)");
    }

    const double dataValues = double(c.experiments) * double(c.numExamples) *
                              (c.workload == WorkloadKind::Linreg ? double(c.dim + 1) : 2.0);
    if (vectorised && dataValues > kMaxDataValues)
        problem(key::kExperiments, "experiments * num_examples" + std::string(c.workload == WorkloadKind::Linreg ? " * (dim + 1)" : " * 2") +
                                   " must be at most 200000000 values held in memory (got " +
                                   std::to_string(int64_t(dataValues)) + "); lower experiments or num_examples");

    // torchscript: known once train_data is read (the engine checks again then).
    const bool sizeKnown = c.workload != WorkloadKind::TorchScript || c.trainSamples > 0;
    if (sizeKnown && planShards(c).samplesPerRank == 0)
        problem(c.workload == WorkloadKind::FashionMnist ? key::kTrainSubset
                : c.workload == WorkloadKind::TorchScript ? key::kTrainData
                                                          : key::kNumExamples,
                "drop_last with " + countOf(datasetSize(c), "example") + " over " + countOf(c.worldSize, "rank") +
                    " leaves no sample for any rank; use more examples, fewer ranks or no drop_last");

    if (c.backend == BackendKind::Nccl && c.device != DeviceKind::Cuda)
        problem(key::kBackend, "backend nccl needs device cuda (NCCL only moves GPU memory); use gloo or auto for CPU ranks");

    if (c.warmupSteps > 0 && c.warmupEpochs > 0)
        problem(key::kWarmupSteps, "set warmup_steps or warmup_epochs, not both");

    if (c.nesterov && (c.momentum <= 0 || c.dampening != 0))
        problem(key::kNesterov, "nesterov needs momentum > 0 and dampening = 0 (as torch.optim.SGD)");

    if (c.failAt && c.failAt->rank >= c.worldSize)
        problem(key::kFailAt, "fail_at names rank " + std::to_string(c.failAt->rank) + " but world_size is " +
                               std::to_string(c.worldSize) + " (ranks are 0 to " + std::to_string(c.worldSize - 1) + ")");

    // The optimizer applies it in float: beyond FLT_MAX it overflows mid-run.
    if (!(effectiveLr(c) <= double(FLT_MAX)))
        problem(c.lrRule == LrRule::Power ? key::kLrPower : key::kLr,
                "the scaled learning rate lr * (effective_batch / base_batch_size)^p is beyond what a float holds (3.4e38); "
                "lower " + std::string(c.lrRule == LrRule::Power ? key::kLrPower : key::kLr));

    if (machine)
        machineProblems(c, *machine, ranksHere, problem);

    return problems;
}

void requireValid(const Config& config, const MachineResources* machine, int64_t ranksHere)
{
    const ConfigProblems problems = findProblems(config, machine, ranksHere);
    if (!problems.empty())
        throw ConfigError(problems.front().key, problems.front().message);
}

}  // namespace ddplab
