// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether a run may go on from a checkpoint (docs/checkpoints.md), decided before anything of
// it is put back. The same workload, optimizer and number of training examples; the same model
// (its parameters' names, shapes and dtypes, its buffers'); the writing run's settings but for
// the keys the key table lets a resumed run change (core/config_keys.hpp, OnResume); and every
// field inside what that run can have written: a batch multiplier its batch schedule reaches,
// a position inside its epoch, optimizer states shaped and typed as the parameters with step
// counts no larger than the checkpoint's, update statistics of the model's size. A crafted
// field is refused naming resume_from, the file and the field; LibTorch is never the one to
// find out.

#include "checkpointing.hpp"

#include <string>

namespace ddplab {

struct Checkpoint;

// What a resumed run must train the same of: "toy", "fashion_mnist/cnn", "torchscript".
std::string checkpointWorkloadLabel(const Config& config);

// Throws ConfigError: key resume_from for the checkpoint, key epochs or max_steps when this run
// would take no step after it.
void requireResumable(const Checkpoint& saved, const TrainingState& run);

}  // namespace ddplab
