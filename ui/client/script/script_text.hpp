#pragma once
// The pieces a PyTorch script is written from (script/pytorch_script.cpp assembles them): Python
// literals of the lab's values, and the script's sections for the settings at hand, each
// written for exactly these settings (no branch the settings do not take).

#include "core/config.hpp"

#include <QString>

#include <cstdint>
#include <initializer_list>
#include <utility>

namespace ddplab::ui::script {

// Python literals: the shortest text that reads back as the same double ("0.005", "1e-08",
// "2.0"), an integer, True/False, a double-quoted string.
QString pyFloat(double value);
QString pyInt(int64_t value);
QString pyBool(bool value);
QString pyString(const QString& text);

// `text` with every @NAME@ replaced ("@LR@" -> "0.002"): Python's own braces stay as they are.
QString filled(QString text, std::initializer_list<std::pair<const char*, QString>> values);

// What one workload brings: its settings, functions (data, model, loss), the lines of main()
// that build `dataset` and `model`, and how a step's loss is computed and summed.
struct WorkloadCode {
    QString imports;    // extra import lines
    QString settings;   // UPPER_CASE constants
    QString functions;  // the data, the model and the loss
    QString build;      // main()'s lines (indented 4) that set `dataset` and `model`
    QString forward;    // the expression of a micro-batch's loss, from ddp, inputs and targets
    QString lossSum;    // the expression of its loss summed over its samples, from loss and targets
    QString trained;    // the expression of the parameters the optimizer gets
};
WorkloadCode workloadCode(const Config& config);

// The optimizer with the LR (and betas, eps, weight decay) the lab applies, its rule as comments.
QString learningRateSettings(const Config& config);
QString optimizerFunction(const Config& config);
// Warmup and schedule as torch.optim.lr_scheduler; empty for a constant LR.
QString schedulerFunction(const Config& config);
bool hasScheduler(const Config& config);
// The collective backend the engine would pick: gloo, or nccl for GPUs under backend auto.
QString backendName(const Config& config);
// main(): the process group, the model under DDP, the sampler and loader, the steps.
QString trainingCode(const Config& config, const WorkloadCode& workload);

}  // namespace ddplab::ui::script
