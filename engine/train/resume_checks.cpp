// SPDX-License-Identifier: GPL-3.0-or-later
#include "resume_checks.hpp"

#include "checkpoint_file.hpp"
#include "workload.hpp"

#include "core/batch_schedule.hpp"
#include "core/config_error.hpp"
#include "core/config_keys.hpp"
#include "core/derived.hpp"
#include "core/home_path.hpp"
#include "core/json.hpp"
#include "core/key_names.hpp"
#include "core/limits.hpp"
#include "core/protocol_names.hpp"
#include "core/wording.hpp"
#include "core/workload_table.hpp"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

namespace ddplab {
namespace {

namespace field = protocol::checkpoint;
constexpr char kDamaged[] = ": the file is damaged or crafted";

[[noreturn]] void refuse(const Config& run, const std::string& problem)
{
    throw ConfigError(key::kResumeFrom, std::string(key::kResumeFrom) + " " + expandHome(run.resumeFrom) + " " + problem);
}

[[noreturn]] void refuseField(const Config& run, const std::string& name, const std::string& problem)
{
    refuse(run, "holds \"" + name + "\" " + problem + kDamaged);
}

std::string keyText(const Config& config, const char* name)
{
    return findConfigKey(name)->read(config).get<std::string>();
}

std::string namesText(const std::vector<std::string>& names)
{
    constexpr size_t kShown = 6;  // a model of hundreds of tensors: the first few say enough
    std::string text;
    for (size_t i = 0; i < names.size() && i < kShown; ++i)
        text += (i ? ", " : "") + names[i];
    if (names.size() > kShown)
        text += " and " + std::to_string(names.size() - kShown) + " more";
    return names.empty() ? "not named" : text;
}

// The settings of the run that wrote the checkpoint, read back from its "config".
Config writerConfig(const Checkpoint& saved, const Config& run)
{
    const Json json = Json::parse(saved.config, nullptr, false);
    if (!json.is_object())
        refuseField(run, field::kConfig, "that is not the JSON object of a run's settings");
    Config writer;
    try {
        applyJson(writer, json, "its config");
    } catch (const ConfigError& error) {
        refuse(run, std::string("holds settings this engine does not take (") + error.what() +
                        "): it was written by another version of DDP Lab, or is damaged");
    }
    writer.trainSamples = saved.datasetSize;
    return writer;
}

// The keys a resumed run may change, from the key table: what the sentences list.
std::string branchKeys()
{
    std::string names;
    for (const ConfigKey& key : configKeys()) {
        if (key.onResume == OnResume::Branch)
            names += (names.empty() ? "" : ", ") + key.name;
    }
    return names;
}

void requireSameRun(const Checkpoint& saved, const TrainingState& s)
{
    const Config& c = s.config;
    if (saved.workload != checkpointWorkloadLabel(c))
        refuse(c, "was written by a run of " + saved.workload + "; this run trains " + checkpointWorkloadLabel(c));
    if (saved.optimizer != keyText(c, key::kOptimizer))
        refuse(c, "was written with optimizer " + saved.optimizer + "; this run's is " + keyText(c, key::kOptimizer) +
                      " (a branch may change " + branchKeys() + ", not the optimizer)");
    if (saved.datasetSize != s.workload.datasetSize())
        refuse(c, "was written by a run on " + std::to_string(saved.datasetSize) + " training examples; this run has " +
                      std::to_string(s.workload.datasetSize()) + " (the sampler's position would mean other samples)");
}

// Every setting the writing run had but those a resumed run may change.
void requireSameSettings(const Config& writer, const Config& c)
{
    if (const ConfigKey* changed = keyChangedOnResume(writer, c))
        refuse(c, "was written with " + changed->name + " " + changed->read(writer).dump() + "; this run has " + changed->name + " " +
                      changed->read(c).dump() + ": a resumed run keeps the settings of the run that wrote its checkpoint but " +
                      branchKeys() + " (a branch) and those that do not change what is trained (docs/checkpoints.md)");
}

// Same names, shapes and dtypes as this run's model.
void requireSameModel(const Checkpoint& saved, const TrainingState& s)
{
    const Config& c = s.config;
    const std::vector<std::string> names = s.workload.parameterNames();
    if (saved.parameterNames.size() != saved.parameters.size() && !saved.parameterNames.empty())
        refuseField(c, field::kParameterNames, "with " + std::to_string(saved.parameterNames.size()) + " names for " +
                                                    std::to_string(saved.parameters.size()) + " parameters");
    if (saved.parameters.size() != s.parameters.size() || (!names.empty() && saved.parameterNames != names))
        refuse(c, "was written for a model whose parameters are " + namesText(saved.parameterNames) + " (" +
                      std::to_string(saved.parameters.size()) + "); this run's model has " + namesText(names) + " (" +
                      std::to_string(s.parameters.size()) + "): it was written for another model");
    auto requireLike = [&](const at::Tensor& saved, const at::Tensor& mine, const std::string& what) {
        if (saved.sizes() != mine.sizes())
            refuse(c, "holds " + what + " shaped " + c10::str(saved.sizes()) + "; this run's model has it " + c10::str(mine.sizes()) +
                          ": it was written for another model");
        if (saved.scalar_type() != mine.scalar_type())
            refuse(c, "holds " + what + " as " + c10::toString(saved.scalar_type()) + "; this run's model has it as " +
                          c10::toString(mine.scalar_type()) + kDamaged);
    };
    for (size_t i = 0; i < s.parameters.size(); ++i)
        requireLike(saved.parameters[i], s.parameters[i], "parameter " + (names.empty() ? "#" + std::to_string(i) : names[i]));
    const std::vector<at::Tensor> buffers = s.workload.buffers();
    if (saved.buffers.size() != buffers.size())
        refuse(c, "holds " + std::to_string(saved.buffers.size()) + " buffers; this run's model has " + std::to_string(buffers.size()) +
                      ": it was written for another model");
    for (size_t i = 0; i < buffers.size(); ++i)
        requireLike(saved.buffers[i], buffers[i], "buffer #" + std::to_string(i));
}

// Per parameter: a step count no larger than the checkpoint's, every other entry typed as the
// parameter and shaped as it (NovoGrad's second moment: one number a layer).
void requireOptimizerState(const Checkpoint& saved, const TrainingState& s)
{
    const Config& c = s.config;
    if (saved.optimizerState.size() != s.parameters.size())
        refuseField(c, field::kOptimizerState, "for " + std::to_string(saved.optimizerState.size()) + " parameters; the model has " +
                                                    std::to_string(s.parameters.size()));
    for (size_t i = 0; i < s.parameters.size(); ++i) {
        for (const auto& [name, tensor] : saved.optimizerState[i]) {
            const std::string where = "with \"" + name + "\" of parameter #" + std::to_string(i);
            if (name == field::kStateStep) {
                if (tensor.numel() != 1 || tensor.is_complex() || tensor.scalar_type() == at::kBool)
                    refuseField(c, field::kOptimizerState, where + " not one number");
                const double step = tensor.to(at::kDouble).item<double>();
                if (!(step >= 0 && step <= double(saved.step) && std::floor(step) == step))
                    refuseField(c, field::kOptimizerState, where + " " + std::to_string(step) + ", not a count of steps up to the checkpoint's " +
                                                                std::to_string(saved.step));
                continue;
            }
            const at::Tensor& parameter = s.parameters[i];
            if (tensor.scalar_type() != parameter.scalar_type())
                refuseField(c, field::kOptimizerState, where + " as " + std::string(c10::toString(tensor.scalar_type())) +
                                                            "; the parameter is " + c10::toString(parameter.scalar_type()));
            const bool perLayer = name == field::kSecond && tensor.numel() == 1;
            if (tensor.sizes() != parameter.sizes() && !perLayer)
                refuseField(c, field::kOptimizerState, where + " shaped " + c10::str(tensor.sizes()) + "; the parameter is " +
                                                            c10::str(parameter.sizes()));
        }
    }
}

// The batch multiplier a schedule reaches, and the clocks that go with it (BatchGrowth::State).
void requireBatchGrowth(const Checkpoint& saved, const Config& writer, const Config& c)
{
    if (saved.batchGrowth.empty())
        return;
    const int64_t multiplier = int64_t(saved.batchGrowth[0]);
    const double baseSteps = saved.batchGrowth[1], tau = saved.batchGrowth[2];
    const int64_t patience = int64_t(saved.batchGrowth[3]);
    const std::string schedule = keyText(writer, key::kBatchSchedule);
    auto refuseGrowth = [&](const std::string& problem) { refuseField(c, field::kBatchGrowth, problem + " under the writing run's batch_schedule " + schedule); };
    const int64_t largest = largestBatchMultiplier(writer);
    if (multiplier > largest)
        refuseGrowth("with the batch multiplied by " + std::to_string(multiplier) + ", more than the " + std::to_string(largest) + " allowed");
    const bool powerOfTwo = (multiplier & (multiplier - 1)) == 0;
    switch (writer.batchSchedule) {
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::AdaScale:
        if (multiplier != 1)
            refuseGrowth("with the batch multiplied by " + std::to_string(multiplier) + ", which never grows");
        break;
    case BatchScheduleKind::Noise:
    case BatchScheduleKind::Seesaw:
        if (!powerOfTwo)
            refuseGrowth("with the batch multiplied by " + std::to_string(multiplier) + ", which only doubles");
        break;
    case BatchScheduleKind::Steps: {
        bool reached = multiplier == 1;
        int64_t product = 1;
        for (size_t i = 0; i < writer.batchScheduleFactors.size() && !reached; ++i) {
            product = std::min(largest, product * writer.batchScheduleFactors[i]);
            reached = product == multiplier;
        }
        if (!reached)
            refuseGrowth("with the batch multiplied by " + std::to_string(multiplier) + ", which its factors never make");
        break;
    }
    case BatchScheduleKind::Smith:
        break;
    }
    // Each step adds the multiplier in force, which never shrank, to the base-step clock.
    if (baseSteps < double(saved.step) || baseSteps > double(saved.step) * double(multiplier))
        refuseGrowth("with a base-step clock of " + std::to_string(int64_t(baseSteps)) + " after " + std::to_string(saved.step) + " steps");
    // AdaScale's clock moves by the gain, from 1 to the ranks, each step; every other by 1.
    const bool adaScale = writer.batchSchedule == BatchScheduleKind::AdaScale;
    if (adaScale ? tau < double(saved.step) || tau > double(saved.step) * double(limits::kMaxRanks) : tau != double(saved.step))
        refuseGrowth("with AdaScale's clock at " + std::to_string(tau) + " after " + std::to_string(saved.step) + " steps");
    if (writer.batchSchedule == BatchScheduleKind::Noise ? patience >= writer.batchNoisePatience : patience != 0)
        refuseGrowth("with the noise rule's patience at " + std::to_string(patience));
}

// Where the writing run stood: an epoch it had, a position inside it, samples its batches hold.
void requirePosition(const Checkpoint& saved, const Config& writer, const Config& c)
{
    const bool endless = writer.lrRangeTest || writer.batchSchedule == BatchScheduleKind::AdaScale;
    if (!endless && (saved.epoch > writer.epochs || (saved.epoch == writer.epochs && saved.position > 0)))
        refuseField(c, field::kEpoch, std::to_string(saved.epoch) + " (position " + std::to_string(saved.position) +
                                          "), past the writing run's " + std::to_string(writer.epochs) + " epochs");
    if (!writer.lrRangeTest && writer.maxSteps > 0 && saved.step > writer.maxSteps)
        refuseField(c, field::kStep, std::to_string(saved.step) + ", past the writing run's max_steps " + std::to_string(writer.maxSteps));
    // The epoch's padded sampler list: the examples, padded up to a multiple of the (emulated)
    // ranks; with the batch grown and the epoch replanned, less than one more round of them.
    const int64_t multiplier = saved.batchGrowth.empty() ? 1 : int64_t(saved.batchGrowth[0]);
    const int64_t accumulation = std::max(writer.gradAccum, batchShape(writer, multiplier).gradAccum);
    const int64_t ranks = writer.worldSize * (writer.accumulateAsRanks ? accumulation : 1);
    if (saved.position >= saved.datasetSize + ranks)
        refuseField(c, field::kPosition, std::to_string(saved.position) + ", past the end of an epoch of " +
                                             std::to_string(saved.datasetSize) + " examples over " + countOf(ranks, "rank"));
    const double largestStep = double(effectiveBatchSize(writer)) * double(std::max(multiplier, largestBatchMultiplier(writer)));
    if (saved.samplesSeen > double(saved.step) * largestStep)
        refuseField(c, field::kSamplesSeen, std::to_string(saved.samplesSeen) + ", more than " + std::to_string(saved.step) +
                                                " steps of at most " + std::to_string(int64_t(largestStep)) + " samples hold");
}

// The update statistics (toy and linreg) over the model's coordinates, counted per experiment.
void requireUpdateStatistics(const Checkpoint& saved, const TrainingState& s)
{
    if (!s.workload.tracksUpdateVariance())
        return;
    const Config& c = s.config;
    const int64_t experiments = s.workload.experiments();
    if (saved.updateCount > saved.step * experiments || (saved.updateCount > 0) != saved.updateMean.defined())
        refuseField(c, field::kUpdateCount, std::to_string(saved.updateCount) + " after " + std::to_string(saved.step) + " steps of " +
                                                std::to_string(experiments) + " experiments");
    if (!saved.updateMean.defined())
        return;
    int64_t coordinates = 0;
    for (const at::Tensor& p : s.parameters)
        coordinates += p.numel() / experiments;
    for (const auto& [name, tensor] : {std::pair{field::kUpdateMean, saved.updateMean}, std::pair{field::kUpdateM2, saved.updateM2}}) {
        if (tensor.dim() != 1 || tensor.size(0) != coordinates || tensor.scalar_type() != at::kDouble)
            refuseField(c, name, "shaped " + c10::str(tensor.sizes()) + " as " + c10::toString(tensor.scalar_type()) + "; the model's are [" +
                                     std::to_string(coordinates) + "] as Double");
    }
}

void requireRngStates(const Checkpoint& saved, const Config& c)
{
    for (const auto& [name, states] : {std::pair{field::kCpuRng, &saved.cpuRng}, std::pair{field::kDeviceRng, &saved.deviceRng}}) {
        for (const at::Tensor& state : *states) {
            if (state.scalar_type() != at::kByte || state.dim() != 1)
                refuseField(c, name, "with a generator state shaped " + c10::str(state.sizes()) + " as " + c10::toString(state.scalar_type()) +
                                         ", not bytes");
        }
    }
}

// This run would take no step after the checkpoint: said, not a run of nothing.
void requireStepsLeft(const Checkpoint& saved, const Config& c)
{
    if (c.lrRangeTest)
        return;
    if (c.maxSteps > 0 && saved.step >= c.maxSteps)
        throw ConfigError(key::kMaxSteps, "max_steps " + std::to_string(c.maxSteps) + " is reached already: resume_from " + expandHome(c.resumeFrom) +
                                              " was written after step " + std::to_string(saved.step) +
                                              ", and max_steps counts from the first run's start; give more to train on");
    if (c.batchSchedule != BatchScheduleKind::AdaScale && saved.epoch >= c.epochs)
        throw ConfigError(key::kEpochs, "epochs " + std::to_string(c.epochs) + " are done already: resume_from " + expandHome(c.resumeFrom) +
                                            " goes on in epoch " + std::to_string(saved.epoch) +
                                            " (counted from 0 at the first run's start); give more epochs to train on");
}

}  // namespace

std::string checkpointWorkloadLabel(const Config& config)
{
    std::string label = keyText(config, key::kWorkload);
    if (traitsOf(config).choosesModel)
        label += "/" + keyText(config, key::kModel);
    return label;
}

void requireResumable(const Checkpoint& saved, const TrainingState& s)
{
    const Config writer = writerConfig(saved, s.config);
    requireSameRun(saved, s);
    requireSameModel(saved, s);
    requireSameSettings(writer, s.config);
    requireOptimizerState(saved, s);
    requireBatchGrowth(saved, writer, s.config);
    requirePosition(saved, writer, s.config);
    requireUpdateStatistics(saved, s);
    requireRngStates(saved, s.config);
    requireStepsLeft(saved, s.config);
}

}  // namespace ddplab
