#pragma once
// The optimizer a config names, as a torch::optim::Optimizer: LibTorch's SGD, Adam and AdamW,
// and our NovoGrad, LAMB and LARS.

#include "core/config.hpp"

#include <ATen/core/Tensor.h>

#include <memory>
#include <vector>

namespace torch::optim {
class Optimizer;
}

namespace ddplab {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const Config& config, const std::vector<at::Tensor>& parameters);

void setLearningRate(torch::optim::Optimizer& optimizer, double lr);

// True when a step subtracts exactly lr * grad (plain SGD): the applied update can then be
// taken as lr * grad, free of the rounding that subtracting two weights would add.
bool appliesPlainGradientStep(const Config& config);

}  // namespace ddplab
