#include "config_validate.hpp"

#include "derived.hpp"
#include "wording.hpp"

#include <cmath>
#include <string>

namespace ddplab {
namespace {
// Toy and linreg data live in memory on every rank; beyond this a run would swap, not teach.
constexpr double kMaxDataValues = 200'000'000;
}  // namespace

ConfigProblems findProblems(const Config& c)
{
    ConfigProblems problems;
    auto problem = [&](const std::string& key, const std::string& message) { problems.push_back({key, message}); };

    if (c.experiments > 1 && c.workload == WorkloadKind::FashionMnist)
        problem("experiments", "experiments > 1 needs workload toy or linreg (Fashion-MNIST trains one model)");

    const double dataValues = double(c.experiments) * double(c.numExamples) *
                              (c.workload == WorkloadKind::Linreg ? double(c.dim + 1) : 2.0);
    if (c.workload != WorkloadKind::FashionMnist && dataValues > kMaxDataValues)
        problem("experiments", "experiments * num_examples" + std::string(c.workload == WorkloadKind::Linreg ? " * (dim + 1)" : " * 2") +
                                   " must be at most 200000000 values held in memory (got " +
                                   std::to_string(int64_t(dataValues)) + "); lower experiments or num_examples");

    if (planShards(c).samplesPerRank == 0)
        problem(c.workload == WorkloadKind::FashionMnist ? "train_subset" : "num_examples",
                "drop_last with " + countOf(datasetSize(c), "example") + " over " + countOf(c.worldSize, "rank") +
                    " leaves no sample for any rank; use more examples, fewer ranks or no drop_last");

    if (c.backend == BackendKind::Nccl && c.device != DeviceKind::Cuda)
        problem("backend", "backend nccl needs device cuda (NCCL only moves GPU memory); use gloo or auto for CPU ranks");

    if (c.warmupSteps > 0 && c.warmupEpochs > 0)
        problem("warmup_steps", "set warmup_steps or warmup_epochs, not both");

    if (c.nesterov && (c.momentum <= 0 || c.dampening != 0))
        problem("nesterov", "nesterov needs momentum > 0 and dampening = 0 (as torch.optim.SGD)");

    if (c.failAt && c.failAt->rank >= c.worldSize)
        problem("fail_at", "fail_at names rank " + std::to_string(c.failAt->rank) + " but world_size is " +
                               std::to_string(c.worldSize) + " (ranks are 0 to " + std::to_string(c.worldSize - 1) + ")");

    if (!std::isfinite(effectiveLr(c)))
        problem("lr_power", "the scaled learning rate lr * (effective_batch / base_batch_size)^p overflows; lower lr_power");

    return problems;
}

void requireValid(const Config& config)
{
    const ConfigProblems problems = findProblems(config);
    if (!problems.empty())
        throw ConfigError(problems.front().key, problems.front().message);
}

}  // namespace ddplab
