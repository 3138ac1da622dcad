// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Each workload's part of a PyTorch script (script_workloads.cpp): its data, model and loss as
// the engine builds them.

#include "core/config.hpp"

#include <QString>

namespace ddplab::ui::script {

// What one workload brings: its settings, functions (data, model, loss), the lines of main()
// that build `dataset` and `model`, and how a step's loss is computed and summed.
struct WorkloadCode {
    QString imports;    // extra import lines
    QString settings;   // UPPER_CASE constants
    QString functions;  // the data, the model and the loss
    QString build;      // main()'s lines (indented 4) that set `dataset` and `model`
    QString forward;    // the expression of a micro-batch's loss, from ddp, inputs and targets
    QString lossSum;    // the expression of its loss summed over its samples (a float64 tensor on the device), from loss and targets
    QString trained;    // the expression of the parameters the optimizer gets
};
// Throws std::logic_error for a workload it has no code for: ask workloadRefusal first.
WorkloadCode workloadCode(const Config& config);

// Why no script of `config`'s workload can be written (one added without script code, as a
// test's), in a sentence; empty when it can.
QString workloadRefusal(const Config& config);

}  // namespace ddplab::ui::script
