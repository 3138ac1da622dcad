// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// main() of a PyTorch script (script_training.cpp): the process group, DDP, the sampler and
// loader, and the optimizer steps as the engine's trainer takes them.

#include "client/script/script_workloads.hpp"
#include "core/config.hpp"

#include <QString>

namespace ddplab::ui::script {

// The collective backend the engine would pick: gloo, or nccl for GPUs under backend auto.
QString backendName(const Config& config);
// main(): the process group, the model under DDP, the sampler and loader, the steps.
QString trainingCode(const Config& config, const WorkloadCode& workload);

}  // namespace ddplab::ui::script
