// SPDX-License-Identifier: GPL-3.0-or-later

#include "layerwise_optimizers.hpp"

#include <ATen/ATen.h>

namespace ddplab {

void NovoGrad::update(at::Tensor& p, const at::Tensor& grad, LayerwiseState& state, const LayerwiseOptions& o)
{
    const at::Tensor norm = grad.pow(2).sum();
    if (!state.second().defined()) {
        state.first(at::zeros_like(p));
        state.second(at::zeros({}, p.options()));
    }
    // v = |g|^2 on the first step (torch_optimizer: "if exp_avg_sq == 0"), then an EMA.
    const at::Tensor blended = state.second() * o.beta2() + norm * (1.0 - o.beta2());
    state.second(at::where(state.second() == 0, norm, blended));

    at::Tensor direction = grad / (state.second().sqrt() + o.eps());
    if (o.weight_decay() != 0)
        direction = direction + p * o.weight_decay();
    if (o.grad_averaging())
        direction = direction * (1.0 - o.beta1());
    state.first().mul_(o.beta1()).add_(direction);
    p.add_(state.first(), -o.lr());
}

}  // namespace ddplab
