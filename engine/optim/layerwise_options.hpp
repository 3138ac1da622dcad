// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Options and per-parameter state shared by the optimizers LibTorch does not ship
// (NovoGrad, LAMB, LARS), so that each of them is a plain torch::optim::Optimizer.

#include <torch/optim/optimizer.h>

namespace ddplab {

struct LayerwiseOptions : public torch::optim::OptimizerCloneableOptions<LayerwiseOptions> {
    explicit LayerwiseOptions(double lr = 1e-3) : lr_(lr) {}
    TORCH_ARG(double, lr);
    TORCH_ARG(double, beta1) = 0.9;
    TORCH_ARG(double, beta2) = 0.999;
    TORCH_ARG(double, eps) = 1e-8;
    TORCH_ARG(double, weight_decay) = 0.0;
    TORCH_ARG(double, momentum) = 0.9;            // LARS
    TORCH_ARG(double, trust_coefficient) = 0.001;  // LARS eta
    TORCH_ARG(bool, grad_averaging) = false;       // NovoGrad

public:
    double get_lr() const override { return lr(); }
    void set_lr(const double lr) override { this->lr(lr); }
};

struct LayerwiseState : public torch::optim::OptimizerCloneableParamState<LayerwiseState> {
    TORCH_ARG(int64_t, step) = 0;
    TORCH_ARG(at::Tensor, first);   // first moment / momentum buffer
    TORCH_ARG(at::Tensor, second);  // second moment (NovoGrad: one scalar per layer)
};

}  // namespace ddplab
