// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which tag each number of the engine's events is written under in TensorBoard
// (docs/tensorboard.md has the same table in words). TensorBoard groups a run's tags by what
// comes before the first "/", so related figures share a group: loss/train, loss/train_set,
// loss/val and loss/epoch in "loss", the step's timings in "time", and so on:
//   loss/       train (a step's mini-batches), train_set (train_loss: a fixed set of training
//               samples), val (an evaluation's val_loss), epoch (an epoch's mean)
//   accuracy/   the same four
//   lr/         step (the LR of each step), effective (config: lr_effective)
//   batch/      effective (each step's effective batch; config: effective_batch_size),
//               samples (a step's samples), adascale_gain, adascale_tau
//   noise/      scale (B_simple), update_var, update_var_estimate, update_mean, grad_norm
//   weight/     mean (the toy's w)
//   throughput/ step, epoch (samples per second)
//   time/       data_ms, compute_ms, comm_ms, optimizer_ms, step_ms, wall_s, epoch_train_s
//   epoch/      current (the epoch a step is in), steps and samples (of a finished epoch)
//   eval/       samples (the samples evaluated)
//   summary/    every number of the summary event under its own name, at the last step
// A number of a step, eval or epoch event that the table does not name (one a later engine
// adds) goes under "<event type>/<field>". Not written: an event's `step` (it is the x axis),
// the `epoch` of eval and epoch events (where they stand, not a figure), the config's other
// numbers (settings; the HParams plugin holds a study's), and events of other types
// (batch_changed's batch is each step's batch/effective).

#include <string>
#include <string_view>

namespace ddplab::tensorboard {

// The tag of `field` of an event of type `eventType` (protocol_names.hpp's names); "" when the
// number is not written.
std::string scalarTag(std::string_view eventType, std::string_view field);

}  // namespace ddplab::tensorboard
