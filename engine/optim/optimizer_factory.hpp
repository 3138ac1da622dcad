// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The optimizer a config names, as a torch::optim::Optimizer: LibTorch's SGD, Adam and AdamW,
// and our NovoGrad, LAMB, LARS and batch-size-invariant Adam and AdamW; with beta1, beta2, eps
// and weight decay as the scaling rules make them (core/derived.hpp).

#include "core/config.hpp"

#include <ATen/core/Tensor.h>

#include <memory>
#include <vector>

namespace torch::optim {
class Optimizer;
}

namespace ddplab {

// `meanSquaredGradients` (one per parameter): what batch-size-invariant Adam reads its second
// moment from (GradientSync::meanSquaredGradients); unused by the others.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const Config& config, const std::vector<at::Tensor>& parameters,
                                                       const std::vector<at::Tensor>& meanSquaredGradients = {});

// True for the optimizers that need every rank's squared gradient averaged (adam_bsi, adamw_bsi).
bool averagesSquaredGradients(const Config& config);

void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

// True when a step subtracts exactly lr * grad (plain SGD): the applied update can then be
// taken as lr * grad, free of the rounding that subtracting two weights would add.
bool appliesPlainGradientStep(const Config& config);

}  // namespace ddplab
