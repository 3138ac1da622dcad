// SPDX-License-Identifier: GPL-3.0-or-later
#include "scalar_tags.hpp"

#include "core/protocol_names.hpp"

namespace ddplab::tensorboard {
namespace {

namespace type = protocol::type;
namespace field = protocol::field;

struct TagRule {
    const char* eventType;
    const char* field;
    const char* tag;  // "" : not written
};

// docs/tensorboard.md's table; the test's reader (tests/tools/read_tensorboard.py) has its own copy.
constexpr TagRule kRules[] = {
    // step: one optimizer step over all ranks
    {type::kStep, field::kStep, ""},
    {type::kStep, field::kLoss, "loss/train"},
    {type::kStep, field::kTrainLoss, "loss/train_set"},
    {type::kStep, field::kAccuracy, "accuracy/train"},
    {type::kStep, field::kTrainAccuracy, "accuracy/train_set"},
    {type::kStep, field::kLr, "lr/step"},
    {type::kStep, field::kEffectiveBatch, "batch/effective"},
    {type::kStep, field::kSamples, "batch/samples"},
    {type::kStep, field::kGain, "batch/adascale_gain"},
    {type::kStep, field::kTau, "batch/adascale_tau"},
    {type::kStep, field::kNoiseScale, "noise/scale"},
    {type::kStep, field::kUpdateVar, "noise/update_var"},
    {type::kStep, field::kUpdateVarEstimate, "noise/update_var_estimate"},
    {type::kStep, field::kUpdateMean, "noise/update_mean"},
    {type::kStep, field::kGradNorm, "noise/grad_norm"},
    {type::kStep, field::kWMean, "weight/mean"},
    {type::kStep, field::kSamplesPerSec, "throughput/step"},
    {type::kStep, field::kDataMs, "time/data_ms"},
    {type::kStep, field::kComputeMs, "time/compute_ms"},
    {type::kStep, field::kCommMs, "time/comm_ms"},
    {type::kStep, field::kOptimizerMs, "time/optimizer_ms"},
    {type::kStep, field::kStepMs, "time/step_ms"},
    {type::kStep, field::kWallS, "time/wall_s"},
    {type::kStep, field::kEpoch, "epoch/current"},
    // eval: the validation set (and the samples it had)
    {type::kEval, field::kStep, ""},
    {type::kEval, field::kEpoch, ""},
    {type::kEval, field::kValLoss, "loss/val"},
    {type::kEval, field::kValAccuracy, "accuracy/val"},
    {type::kEval, field::kSamples, "eval/samples"},
    // epoch: a finished epoch, at its last step
    {type::kEpoch, field::kStep, ""},
    {type::kEpoch, field::kEpoch, ""},
    {type::kEpoch, field::kLoss, "loss/epoch"},
    {type::kEpoch, field::kAccuracy, "accuracy/epoch"},
    {type::kEpoch, field::kSamplesPerSec, "throughput/epoch"},
    {type::kEpoch, field::kTrainS, "time/epoch_train_s"},
    {type::kEpoch, field::kSteps, "epoch/steps"},
    {type::kEpoch, field::kSamples, "epoch/samples"},
    // config: what the settings made of the run, once
    {type::kConfig, field::kEffectiveBatchSize, "batch/effective"},
    {type::kConfig, field::kLrEffective, "lr/effective"},
};

}  // namespace

std::string scalarTag(std::string_view eventType, std::string_view name)
{
    for (const TagRule& rule : kRules) {
        if (eventType == rule.eventType && name == rule.field)
            return rule.tag;
    }
    const bool figures = eventType == type::kStep || eventType == type::kEval || eventType == type::kEpoch ||
                         eventType == type::kSummary;
    if (!figures)
        return {};  // config's other numbers, batch_changed, checkpoint, ...: not series
    return std::string(eventType) + "/" + std::string(name);
}

}  // namespace ddplab::tensorboard
