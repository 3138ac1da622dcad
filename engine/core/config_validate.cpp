#include "config_validate.hpp"

#include "derived.hpp"
#include "host_memory.hpp"
#include "key_names.hpp"
#include "wording.hpp"

#include <cfloat>
#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

namespace ddplab {
namespace {
// Toy and linreg data live in memory on every rank; beyond this a run would swap, not teach.
constexpr double kMaxDataValues = 200'000'000;

std::string gib(double bytes)
{
    std::ostringstream text;
    text.precision(bytes < 10.0 * (1 << 30) ? 2 : 3);
    text << bytes / double(1 << 30) << " GiB";
    return text.str();
}

// The key whose value makes a run big, for the field the message is shown at.
std::string biggestKey(const Config& c)
{
    if (c.workload == WorkloadKind::FashionMnist)
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
            problem(biggestKey(c), "this run needs about " + gib(total) + " of memory (" + countOf(ranksHere, "rank") +
                                       " x " + gib(perRank) + ", each rank holds its own data) but the machine has " +
                                       gib(double(machine.memoryAvailableBytes)) + " available" +
                                       (machine.memoryLimitedBy.empty() ? "" : " (" + machine.memoryLimitedBy + ")") +
                                       "; use fewer ranks, fewer examples or experiments, or a smaller batch");
    }
    // An address-space limit holds for each process alone: every rank is one.
    if (machine.addressSpacePerRankBytes > 0 && double(estimatedRankBytes(c)) > double(machine.addressSpacePerRankBytes))
        problem(biggestKey(c), "each rank needs about " + gib(double(estimatedRankBytes(c))) +
                                   " of memory but the address-space limit (RLIMIT_AS, ulimit -v) leaves a rank " +
                                   gib(double(machine.addressSpacePerRankBytes)) +
                                   "; raise the limit, or use fewer examples or experiments, or a smaller batch");
}

}  // namespace

MachineResources thisMachine()
{
    MachineResources machine;
    machine.cpuCores = int(std::thread::hardware_concurrency());
    const HostMemory memory = hostMemory();
    machine.memoryAvailableBytes = memory.availableBytes;
    machine.memoryLimitedBy = memory.limitedBy;
    machine.addressSpacePerRankBytes = memory.perProcessBytes;
    return machine;
}

ConfigProblems findProblems(const Config& c, const MachineResources* machine, int64_t ranksHere)
{
    ConfigProblems problems;
    auto problem = [&](const std::string& key, const std::string& message) { problems.push_back({key, message}); };

    if (c.experiments > 1 && c.workload == WorkloadKind::FashionMnist)
        problem(key::kExperiments, "experiments > 1 needs workload toy or linreg (Fashion-MNIST trains one model)");

    const double dataValues = double(c.experiments) * double(c.numExamples) *
                              (c.workload == WorkloadKind::Linreg ? double(c.dim + 1) : 2.0);
    if (c.workload != WorkloadKind::FashionMnist && dataValues > kMaxDataValues)
        problem(key::kExperiments, "experiments * num_examples" + std::string(c.workload == WorkloadKind::Linreg ? " * (dim + 1)" : " * 2") +
                                   " must be at most 200000000 values held in memory (got " +
                                   std::to_string(int64_t(dataValues)) + "); lower experiments or num_examples");

    if (planShards(c).samplesPerRank == 0)
        problem(c.workload == WorkloadKind::FashionMnist ? key::kTrainSubset : key::kNumExamples,
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
