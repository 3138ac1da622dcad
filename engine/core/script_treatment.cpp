// SPDX-License-Identifier: GPL-3.0-or-later
// The sentences of the key table's script declarations (config_keys.cpp's `.inScript(...)`):
// why a script of these settings is refused, and what its docstring says the lab did that it
// does not.

#include "script_treatment.hpp"

#include "config_keys.hpp"
#include "json.hpp"
#include "workload_table.hpp"

namespace ddplab::script_treatment {
namespace {

// The value of `name` in these settings as a config file writes it ("lamb", "every 10", 0.5).
std::string valueOf(const Config& config, const char* name)
{
    const Json value = findConfigKey(name)->read(config);
    return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string named(const Config& config, const char* name)
{
    return std::string(name) + " " + valueOf(config, name);
}

std::string forAScript()
{
    return std::string("Choose ") + choice::optimizer::kSgd + ", " + choice::optimizer::kAdam + " or " + choice::optimizer::kAdamW +
           " for a PyTorch script.";
}

}  // namespace

ScriptTreatment reproduced()
{
    ScriptTreatment treatment;
    treatment.kind = ScriptTreatment::Kind::Reproduced;
    return treatment;
}

ScriptTreatment reproducedUnless(std::function<std::string(const Config&)> refusal)
{
    ScriptTreatment treatment = reproduced();
    treatment.refusal = std::move(refusal);
    return treatment;
}

ScriptTreatment leftOut(std::string why, std::function<std::string(const Config&)> note)
{
    ScriptTreatment treatment;
    treatment.kind = ScriptTreatment::Kind::LeftOut;
    treatment.why = std::move(why);
    treatment.note = std::move(note);
    return treatment;
}

std::string optimizerRefusal(const Config& c)
{
    switch (c.optimizer) {
    case OptimizerKind::Sgd:
    case OptimizerKind::Adam:
    case OptimizerKind::AdamW:
        return "";
    case OptimizerKind::AdamBsi:
    case OptimizerKind::AdamWBsi:
        return named(c, key::kOptimizer) +
               " is the lab's own batch-size-invariant Adam (its second moment from every rank's and micro-batch's squared "
               "gradients, which DDP never sees); PyTorch has no such optimizer, so no script of it would train what the lab "
               "did. " + forAScript();
    case OptimizerKind::NovoGrad:
    case OptimizerKind::Lamb:
    case OptimizerKind::Lars:
        break;
    }
    return named(c, key::kOptimizer) + " is the lab's own (engine/optim/); PyTorch 1.13 has no such optimizer, so no script of it "
                                       "would train what the lab did. " + forAScript();
}

std::string experimentsRefusal(const Config& c)
{
    if (!traitsOf(c).vectorised || c.experiments <= 1)
        return "";
    const std::string count = std::to_string(c.experiments);
    return std::string(key::kExperiments) + " " + count + " trains " + count +
           " independent models side by side, each on data of its own; a PyTorch script trains one. Set " + key::kExperiments +
           " to 1 for a PyTorch script.";
}

std::string batchScheduleRefusal(const Config& c)
{
    // What DDP hands a script is the average of the ranks' gradients; the lab's all-reduce also
    // carries each rank's own squared norm, which these two decide from.
    const std::string unseen = "from each rank's own gradient before the ranks' gradients are averaged; DDP hands a script only "
                               "the average, so a script would need a gradient communication hook of its own, which this "
                               "generator does not write.";
    switch (c.batchSchedule) {
    case BatchScheduleKind::Noise:
        return named(c, key::kBatchSchedule) +
               " doubles the batch when the gradient noise scale has stayed above twice the batch, and the lab measures the "
               "noise scale " + unseen + " For a script, use " + key::kBatchSchedule + " " + choice::batch_schedule::kSteps +
               " with " + key::kBatchScheduleSteps + " at the steps the lab's run grew (its batch_changed events).";
    case BatchScheduleKind::AdaScale:
        return named(c, key::kBatchSchedule) + " scales each step's LR by AdaScale's gain ratio, which the lab measures " + unseen +
               " Choose " + key::kBatchSchedule + " " + choice::batch_schedule::kConstant + ", " + choice::batch_schedule::kSteps +
               ", " + choice::batch_schedule::kSmith + " or " + choice::batch_schedule::kSeesaw + " for a PyTorch script.";
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::Steps:
    case BatchScheduleKind::Smith:
    case BatchScheduleKind::Seesaw:
        break;
    }
    return "";
}

std::string resumeFromRefusal(const Config& c)
{
    if (c.resumeFrom.empty())
        return "";
    return std::string(key::kResumeFrom) +
           ": a script of these settings would have to put back the checkpoint's parameters, buffers, optimizer state, RNG "
           "and sampler position and go on mid-epoch as the lab does, which this generator does not write; a script that "
           "started fresh would train something else. Export the run that wrote the checkpoint, or set " + key::kResumeFrom +
           " to \"\" for a script that starts fresh.";
}

std::string stopAtLossNote(const Config& c)
{
    if (!c.stopAtLoss)
        return "";
    return named(c, key::kStopAtLoss) + ": the lab stops at the first step whose " +
           valueOf(c, key::kStopMeasure) + " is at or below it; this script trains every step (its losses up to there are the lab's).";
}

std::string valDataNote(const Config& c)
{
    if (traitsOf(c).validation != WorkloadTraits::Validation::FromValData || c.valData.empty())
        return "";
    return std::string(key::kValData) + ": the lab evaluates the validation set at each epoch's end (and every " + key::kEvalEvery +
           " steps); this script does not.";
}

std::string failAtNote(const Config& c)
{
    return c.failAt ? std::string(key::kFailAt) + ": a testing aid that makes a rank fail; left out." : "";
}

std::string overlapNote(const Config& c)
{
    if (c.overlap)
        return "";
    return std::string(key::kOverlap) + " false: the lab all-reduces after backward; DDP always overlaps them, which changes the "
                                        "timing, not the numbers.";
}

std::string checkpointAtNote(const Config& c)
{
    if (c.checkpointAt.empty())
        return "";
    return named(c, key::kCheckpointAt) + ": the lab writes checkpoints to " + key::kCheckpointDir + " after those steps; this "
                                                                                                    "script does not.";
}

std::string tensorboardDirNote(const Config& c)
{
    if (c.tensorboardDir.empty())
        return "";
    return named(c, key::kTensorboardDir) + ": the lab's rank 0 writes TensorBoard files there; this script writes none.";
}

}  // namespace ddplab::script_treatment
