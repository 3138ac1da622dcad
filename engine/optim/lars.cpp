// SPDX-License-Identifier: GPL-3.0-or-later

#include "layerwise_optimizers.hpp"

#include <ATen/ATen.h>

namespace ddplab {

void Lars::update(at::Tensor& p, const at::Tensor& grad, LayerwiseState& state, const LayerwiseOptions& o)
{
    // Local LR  lambda = eta * |w| / (|g| + beta * |w|), 1 where either norm is zero.
    const at::Tensor weightNorm = p.norm();
    const at::Tensor gradNorm = grad.norm();
    const at::Tensor local = at::where((weightNorm > 0) & (gradNorm > 0),
                                       o.trust_coefficient() * weightNorm / (gradNorm + o.weight_decay() * weightNorm),
                                       at::ones_like(weightNorm));
    // v = m * v + gamma * lambda * (g + beta * w);  w = w - v   (Algorithm 1 of the paper)
    const at::Tensor step = (grad + p * o.weight_decay()) * local * o.lr();
    if (!state.first().defined())
        state.first(at::zeros_like(p));
    state.first().mul_(o.momentum()).add_(step);
    p.sub_(state.first());
}

}  // namespace ddplab
