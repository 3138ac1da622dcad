// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An optimizer's state per parameter as named tensors, for checkpoints: SGD's momentum
// buffer; Adam's and AdamW's step, exp_avg, exp_avg_sq (and max_exp_avg_sq with amsgrad);
// NovoGrad's, LAMB's and LARS's step, first and second; batch-size-invariant Adam's step,
// first and second. A step count travels as a 0-dim int64 tensor. A parameter the optimizer
// has not stepped yet has no entries. Names are PyTorch's where PyTorch has the optimizer.

#include <ATen/core/Tensor.h>

#include <map>
#include <string>
#include <vector>

namespace torch::optim {
class Optimizer;
}

namespace ddplab {

using ParameterState = std::map<std::string, at::Tensor>;

// Copies, detached from the optimizer (it may step on while the copy is written).
std::vector<ParameterState> optimizerState(torch::optim::Optimizer& optimizer, const std::vector<at::Tensor>& parameters);

// Puts `state` (one entry per parameter) back. Throws std::invalid_argument, naming the
// parameter and the entry, when a tensor is missing or its shape differs from the parameter's.
void restoreOptimizerState(torch::optim::Optimizer& optimizer, const std::vector<at::Tensor>& parameters,
                           const std::vector<ParameterState>& state);

}  // namespace ddplab
