// SPDX-License-Identifier: GPL-3.0-or-later
#include "config_validate.hpp"

#include "batch_schedule.hpp"
#include "config_keys.hpp"
#include "derived.hpp"
#include "host_memory.hpp"
#include "json.hpp"
#include "key_names.hpp"
#include "limits.hpp"
#include "wording.hpp"
#include "workload_table.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
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
    if (traitsOf(c).runsNetwork)
        return c.batchSize > 1000 ? key::kBatchSize : key::kWorldSize;
    if (c.experiments > 1 && double(c.experiments) * double(c.batchSize) > double(c.numExamples))
        return key::kExperiments;
    return c.numExamples >= c.batchSize ? key::kNumExamples : key::kBatchSize;
}

// Device cuda: a rank's data and activations live on its GPU, beside the CUDA context.
void gpuMemoryProblems(const Config& c, const MachineResources& machine, int64_t ranksHere,
                       const std::function<void(const std::string&, const std::string&)>& problem)
{
    // What a rank's process holds on its GPU beyond its tensors: the CUDA context with cuBLAS and
    // cuDNN (0.68 GiB with LibTorch 2.11 on an H200) and the caching allocator's reserve. Measured
    // (docs/gpu-validation.md, second light): a scripted resnet18 took 1.18 GiB more than inspect's
    // estimate of its tensors at batch 128 and 1.23 GiB at 512; this was 512 MiB, which let a run
    // through that would not fit.
    constexpr double kCudaContextBytes = 1.25 * (1 << 30);
    if (machine.gpuMemoryFreeBytes <= 0 || machine.gpus <= 0 || ranksHere <= 0)
        return;
    const int64_t ranksPerGpu = (ranksHere + machine.gpus - 1) / machine.gpus;
    const double perRank = double(estimatedRankBytes(c)) + kCudaContextBytes;
    const double total = perRank * double(ranksPerGpu);
    if (total > double(machine.gpuMemoryFreeBytes))
        problem(biggestKey(c), "this run needs about " + gibText(total) + " of GPU memory (" + countOf(ranksPerGpu, "rank") +
                                   " per GPU x " + gibText(perRank) + ", CUDA's own context included) but the GPU has " +
                                   gibText(double(machine.gpuMemoryFreeBytes)) +
                                   " free; use fewer ranks, fewer examples or experiments, or a smaller batch");
}

void machineProblems(const Config& c, const MachineResources& machine, int64_t ranksHere,
                     const std::function<void(const std::string&, const std::string&)>& problem)
{
    if (machine.cpuCores > 0 && c.threads > machine.cpuCores)
        problem(key::kThreads, "threads must be at most the " + countOf(machine.cpuCores, "CPU core") +
                               " of this machine (got " + std::to_string(c.threads) +
                               "); more threads than cores only wait for each other. 0 shares the cores among the ranks");
    if (c.device == DeviceKind::Cuda) {
        gpuMemoryProblems(c, machine, ranksHere, problem);
        return;
    }
    if (machine.memoryAvailableBytes > 0 && ranksHere > 0) {
        const double perRank = double(estimatedRankBytes(c));
        const double total = perRank * double(ranksHere);
        if (total > double(machine.memoryAvailableBytes))
            problem(biggestKey(c), "this run needs about " + gibText(total) + " of memory (" + countOf(ranksHere, "rank") +
                                       " x " + gibText(perRank) + ", each rank holds its own data) but the machine has " +
                                       gibText(double(machine.memoryAvailableBytes)) + " available" +
                                       (machine.memoryLimitedBy.empty() ? "" : " (" + machine.memoryLimitedBy + ")") +
                                       "; use fewer ranks, fewer examples or experiments, or a smaller batch");
    }
    // An address-space limit holds for each process alone: every rank is one.
    if (machine.addressSpacePerRankBytes > 0 && double(estimatedRankBytes(c)) > double(machine.addressSpacePerRankBytes))
        problem(biggestKey(c), "each rank needs about " + gibText(double(estimatedRankBytes(c))) +
                                   " of memory but the address-space limit (RLIMIT_AS, ulimit -v) leaves a rank " +
                                   gibText(double(machine.addressSpacePerRankBytes)) +
                                   "; raise the limit, or use fewer examples or experiments, or a smaller batch");
}

std::string number(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

std::string optimizerName(const Config& c)
{
    return findConfigKey(key::kOptimizer)->read(c).get<std::string>();
}

// Why lr_rule sde does not describe this optimizer.
std::string whySdeDoesNotApply(OptimizerKind optimizer)
{
    switch (optimizer) {
    case OptimizerKind::Sgd:
    case OptimizerKind::Lars:
        return "it has no beta or eps to rescale; use lr_rule linear or sqrt";
    case OptimizerKind::NovoGrad:
    case OptimizerKind::Lamb:
        return "it normalises per layer, which the SDE of Adam does not describe; use lr_rule sqrt";
    case OptimizerKind::AdamBsi:
    case OptimizerKind::AdamWBsi:
        return "its second moment, a mean of per-rank squared gradients, does not shrink with the batch as the rule "
               "assumes";
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
        break;
    }
    return "";
}

// Below this a beta is 0 as far as the rule is concerned: k (1 - beta) rounds near 1.
constexpr double kZeroBeta = 1e-9;

void scalingRuleProblems(const Config& c, const std::function<void(const std::string&, const std::string&)>& problem)
{
    const double k = batchRatio(c);
    if (c.lrRule == LrRule::Sde) {
        const std::string why = whySdeDoesNotApply(c.optimizer);
        if (!why.empty()) {
            problem(key::kLrRule, "lr_rule sde is Malladi et al.'s rule for adam and adamw (it rescales beta1, beta2 and "
                                  "eps with the batch), not for optimizer " + optimizerName(c) + ": " + why);
        } else {
            const AdamSettings applied = appliedAdamSettings(c);
            const bool beta1Fails = applied.beta1 <= kZeroBeta && applied.beta1 != c.beta1;
            const bool beta2Fails = applied.beta2 <= kZeroBeta && applied.beta2 != c.beta2;
            if (beta1Fails || beta2Fails) {
                const std::string name = beta1Fails ? key::kBeta1 : key::kBeta2;
                const double beta = beta1Fails ? c.beta1 : c.beta2;
                const double limit = sdeRatioLimit(c);
                const double value = beta1Fails ? applied.beta1 : applied.beta2;
                const double shown = std::fabs(value) < kZeroBeta ? 0.0 : value;  // not 2.2e-16: rounding
                problem(key::kLrRule, "lr_rule sde at k = " + number(k) + " (effective batch " +
                                          std::to_string(effectiveBatchSize(c)) + " / base_batch_size " +
                                          std::to_string(baseBatchSize(c)) + ") makes " + name + " " +
                                          sdeBetaFormula(c, beta) + " = " + number(shown) +
                                          ", not above 0; the rule allows k below 1 / (1 - " +
                                          std::string(c.beta1 <= c.beta2 ? key::kBeta1 : key::kBeta2) + ") = " + number(limit) +
                                          " (an effective batch below " + number(limit * double(baseBatchSize(c))) +
                                          " here): use a smaller batch, a larger base_batch_size or a beta closer to 1");
            }
        }
    }
    if (c.weightDecayRule == WeightDecayRule::Timescale) {
        if (c.optimizer != OptimizerKind::AdamW && c.optimizer != OptimizerKind::AdamWBsi) {
            problem(key::kWeightDecayRule, "weight_decay_rule timescale keeps the timescale 1 / (lr * weight_decay) of "
                                           "AdamW's decoupled weight decay: it needs optimizer adamw or adamw_bsi (got " +
                                               optimizerName(c) + ")");
        } else {
            const double decayPerStep = effectiveLr(c) * appliedWeightDecay(c);
            if (!(decayPerStep < 1.0))
                problem(key::kWeightDecayRule, "weight_decay_rule timescale sets weight_decay to " +
                                                   number(appliedWeightDecay(c)) + " at this batch, and lr * weight_decay = " +
                                                   number(decayPerStep) + " is not below 1: AdamW would multiply the weights "
                                                   "by 1 - " + number(decayPerStep) + " every step; lower weight_decay or the batch");
        }
    }
}

// A batch schedule must have something to act on, and a batch it can carry.
void batchScheduleProblems(const Config& c, const std::function<void(const std::string&, const std::string&)>& problem)
{
    const BatchScheduleKind kind = c.batchSchedule;
    if (kind == BatchScheduleKind::Constant)
        return;
    const std::string named = std::string(key::kBatchSchedule) + " " + findConfigKey(key::kBatchSchedule)->read(c).get<std::string>();
    if (c.accumulateAsRanks)
        problem(key::kBatchSchedule, named + " changes grad_accum as the batch grows; accumulate_as_ranks fixes what each "
                                     "micro-batch stands for: use one or the other");
    if (c.lrRangeTest)
        problem(key::kBatchSchedule, named + " and lr_range_test both set the LR: use one or the other");
    if (kind == BatchScheduleKind::Steps) {
        if (c.batchScheduleSteps.empty() || c.batchScheduleSteps.size() != c.batchScheduleFactors.size())
            problem(key::kBatchScheduleFactors, "batch_schedule steps needs as many batch_schedule_factors as "
                                                "batch_schedule_steps, at least one (got " +
                                                    std::to_string(c.batchScheduleSteps.size()) + " steps and " +
                                                    std::to_string(c.batchScheduleFactors.size()) + " factors)");
        if (!std::is_sorted(c.batchScheduleSteps.begin(), c.batchScheduleSteps.end()) ||
            std::adjacent_find(c.batchScheduleSteps.begin(), c.batchScheduleSteps.end()) != c.batchScheduleSteps.end())
            problem(key::kBatchScheduleSteps, "batch_schedule_steps must rise from one step to the next (got \"" +
                                                  findConfigKey(key::kBatchScheduleSteps)->read(c).get<std::string>() + "\")");
        // Each multiplier the factors make must split into micro-batches near the largest a rank
        // carries: a prime share splits equally only into micro-batches of 1.
        int64_t multiplier = 1;
        for (size_t i = 0; i < c.batchScheduleFactors.size() && i < c.batchScheduleSteps.size(); ++i) {
            multiplier = std::min(largestBatchMultiplier(c), multiplier * c.batchScheduleFactors[i]);
            if (splitsWell(c, multiplier))
                continue;
            const BatchShape shape = batchShape(c, multiplier);
            const int64_t share = shape.batchSize * shape.gradAccum;
            const int64_t largest = std::max(c.batchSize, c.maxBatchPerRank);
            problem(key::kBatchScheduleFactors,
                    "batch_schedule_factors multiply the batch by " + std::to_string(multiplier) + " after step " +
                        std::to_string(c.batchScheduleSteps[i]) + ": each rank's " + countOf(share, "sample") +
                        " a step split into equal micro-batches of at most " + std::to_string(largest) +
                        " (max_batch_per_rank, or batch_size) only as " + std::to_string(shape.gradAccum) + " micro-batches of " +
                        std::to_string(shape.batchSize) + ", where " + std::to_string((share + largest - 1) / largest) +
                        " would carry it; choose factors whose product splits evenly (powers of two always do)");
            break;
        }
    }
    if ((kind == BatchScheduleKind::Smith || kind == BatchScheduleKind::Seesaw) && c.schedule == ScheduleKind::Constant)
        problem(key::kSchedule, named + " grows the batch where the LR schedule would decay the LR, and schedule constant "
                                "never decays it: set schedule to step or cosine");
    if ((kind == BatchScheduleKind::Noise || kind == BatchScheduleKind::AdaScale) && c.worldSize < 2)
        problem(key::kWorldSize, named + " needs world_size 2 or more: it measures the gradient noise from two batch "
                                 "sizes, one rank's and all ranks'");
    if (kind == BatchScheduleKind::AdaScale) {
        if (c.optimizer != OptimizerKind::Sgd)
            problem(key::kOptimizer, "batch_schedule adascale is AdaScale SGD: it needs optimizer sgd, with or without "
                                     "momentum (got " + optimizerName(c) + "), as fairscale's AdaScale documents");
        if (c.lrRule != LrRule::None)
            problem(key::kLrRule, "batch_schedule adascale scales the LR by its gain ratio in place of a rule: set "
                                  "lr_rule none (lr is the LR for one rank's share of the batch)");
    }
    if (c.maxBatchPerRank > 0 && c.maxBatchPerRank < c.batchSize)
        problem(key::kMaxBatchPerRank, "max_batch_per_rank must be 0 or at least batch_size " + std::to_string(c.batchSize) +
                                           " (got " + std::to_string(c.maxBatchPerRank) + ")");
    if (c.maxEffectiveBatch > 0 && c.maxEffectiveBatch < effectiveBatchSize(c))
        problem(key::kMaxEffectiveBatch, "max_effective_batch must be 0 or at least the starting effective batch " +
                                             std::to_string(effectiveBatchSize(c)) + " (got " +
                                             std::to_string(c.maxEffectiveBatch) + ")");
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

    const bool vectorised = traitsOf(c).vectorised;
    if (c.experiments > 1 && !vectorised)
        problem(key::kExperiments, "experiments > 1 needs workload toy or linreg (Fashion-MNIST and torchscript train one model)");

    if (traitsOf(c).ownModel) {
        if (c.modelFile.empty())
            problem(key::kModelFile, "workload torchscript needs model_file: a TorchScript file, saved with "
                                     "torch.jit.script(model).save(PATH) (docs/own-model.md)");
        if (c.trainData.empty())
            problem(key::kTrainData, "workload torchscript needs train_data: a torch.save({\"inputs\": X, \"targets\": Y}) "
                                     "file or a folder holding inputs.npy and targets.npy (docs/own-model.md)");
    }

    const WorkloadTraits& row = traitsOf(c);
    if (vectorised && row.heldValuesPerExample) {
        const double dataValues = double(c.experiments) * double(c.numExamples) * row.heldValuesPerExample(c);
        if (dataValues > kMaxDataValues)
            problem(key::kExperiments, "experiments * num_examples * " + std::string(row.heldValuesFactor) +
                                       " must be at most 200000000 values held in memory (got " +
                                       std::to_string(int64_t(dataValues)) + "); lower experiments or num_examples");
    }

    // torchscript: known once train_data is read (the engine checks again then).
    const bool sizeKnown = !traitsOf(c).ownModel || c.trainSamples > 0;
    if (sizeKnown && planShards(c).samplesPerRank == 0)
        problem(traitsOf(c).sizeKey,
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

    scalingRuleProblems(c, problem);
    batchScheduleProblems(c, problem);
    if (usesMoments(c) && !(appliedAdamSettings(c).eps <= double(FLT_MAX)))
        problem(key::kEps, "lr_rule sde makes eps / k^(1/2) larger than a float holds (3.4e38); lower eps");

    const bool hasValidation = hasValidationSet(c);
    if (c.stopAtLoss && c.stopMeasure == StopMeasure::ValLoss && !hasValidation)
        problem(key::kStopMeasure, "stop_measure val_loss needs a validation set, which only fashion_mnist (its 10,000 "
                                   "test images) and torchscript with val_data have; use train_loss, the loss over the "
                                   "training set");

    if (!c.checkpointAt.empty() && c.checkpointDir.empty())
        problem(key::kCheckpointDir, "checkpoint_at needs checkpoint_dir: the folder its checkpoints go to");
    // A checkpoint after the run's last step would never be written. The last step is known
    // from max_steps, or from the epochs of a run that starts fresh at a constant batch (a
    // resumed branch's steps per epoch changed midway; a range test counts from its start).
    const bool epochsKnown = sizeKnown && c.resumeFrom.empty() && c.batchSchedule == BatchScheduleKind::Constant;
    if (!c.checkpointAt.empty() && (c.maxSteps > 0 || epochsKnown) && !c.lrRangeTest) {
        const int64_t last = epochsKnown ? totalSteps(c) : c.maxSteps;
        // "every N": its first step; a list: its last (they are sorted).
        const int64_t named = c.checkpointAt.every > 0 ? c.checkpointAt.every : c.checkpointAt.steps.back();
        const std::string bound = c.maxSteps > 0 && c.maxSteps == last ? "max_steps " + std::to_string(c.maxSteps)
                                                                        : countOf(c.epochs, "epoch") + " of " + countOf(stepsPerEpoch(c), "step");
        if (named > last)
            problem(key::kCheckpointAt, "checkpoint_at \"" + findConfigKey(key::kCheckpointAt)->read(c).get<std::string>() + "\" names step " +
                                            std::to_string(named) + ", after the run's last step " + std::to_string(last) + " (" + bound +
                                            "): that checkpoint would never be written");
    }
    if (c.lrRangeTest && !(c.lrRangeMin < c.lrRangeMax))
        problem(key::kLrRangeMax, "lr_range_max must be above lr_range_min (got " + number(c.lrRangeMax) + " and " +
                                      number(c.lrRangeMin) + ")");
    if (c.accumulateAsRanks && c.worldSize * c.gradAccum > limits::kMaxRanks)
        problem(key::kGradAccum, "accumulate_as_ranks stands for world_size * grad_accum GPUs, at most " +
                                     std::to_string(limits::kMaxRanks) + " (got " + std::to_string(c.worldSize * c.gradAccum) + ")");

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
