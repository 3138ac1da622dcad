// SPDX-License-Identifier: GPL-3.0-or-later

#include "layerwise_optimizers.hpp"

#include <ATen/ATen.h>

#include <cmath>

namespace ddplab {

void Lamb::update(at::Tensor& p, const at::Tensor& grad, LayerwiseState& state, const LayerwiseOptions& o)
{
    if (!state.first().defined()) {
        state.first(at::zeros_like(p));
        state.second(at::zeros_like(p));
    }
    state.first().mul_(o.beta1()).add_(grad, 1.0 - o.beta1());
    state.second().mul_(o.beta2()).add_(grad * grad, 1.0 - o.beta2());
    const double t = double(state.step());
    const at::Tensor firstHat = state.first() / (1.0 - std::pow(o.beta1(), t));
    const at::Tensor secondHat = state.second() / (1.0 - std::pow(o.beta2(), t));

    at::Tensor direction = firstHat / (secondHat.sqrt() + o.eps());
    if (o.weight_decay() != 0)
        direction = direction + p * o.weight_decay();

    // Trust ratio phi(|w|) / |r| with phi the identity; 1 where either norm is zero
    // (a freshly zeroed layer must still move).
    const at::Tensor weightNorm = p.norm();
    const at::Tensor directionNorm = direction.norm();
    const at::Tensor trust = at::where((weightNorm > 0) & (directionNorm > 0), weightNorm / directionNorm,
                                       at::ones_like(weightNorm));
    p.sub_(direction * trust * o.lr());
}

}  // namespace ddplab
