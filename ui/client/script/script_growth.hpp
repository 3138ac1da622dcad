// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A batch that grows by plan (batch_schedule steps, smith, seesaw) in a PyTorch script
// (script_growth.cpp), as engine/core/batch_schedule.cpp plans it and the trainer carries it out
// (engine/train/trainer.cpp, batch_growth.cpp): the sampler's places taken step by step, the
// batch regrown mid-epoch, the LR read on the clock of the starting batch's steps.

#include "core/config.hpp"

#include <QString>

namespace ddplab::ui::script {

// The schedule's constants (UPPER_CASE), for the settings section.
QString growingBatchSettings(const Config& config);
// epoch_order, rank_steps and the GrowingBatch class.
QString growingBatchFunctions(const Config& config);
// main()'s lines (indented 4) from the sampler to the last step, `log` left to flush.
QString growingBatchLoop(const Config& config);

}  // namespace ddplab::ui::script
