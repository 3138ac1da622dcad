// SPDX-License-Identifier: GPL-3.0-or-later

#include "layerwise_optimizers.hpp"
#include "state_key.hpp"

#include <c10/util/irange.h>
#include <torch/utils.h>

namespace ddplab {

at::Tensor LayerwiseOptimizer::step(LossClosure closure)
{
    torch::NoGradGuard noGrad;
    at::Tensor loss;
    if (closure) {
        at::AutoGradMode enableGrad(true);
        loss = closure();
    }
    for (auto& group : param_groups_) {
        const auto& options = static_cast<const LayerwiseOptions&>(group.options());
        for (at::Tensor& parameter : group.params()) {
            if (!parameter.grad().defined())
                continue;
            // LibTorch keys optimizer state by the parameter's TensorImpl address (state_key.hpp).
            const auto key = optimizerStateKey(parameter);
            auto found = state_.find(key);
            if (found == state_.end())
                found = state_.emplace(key, std::make_unique<LayerwiseState>()).first;
            auto& state = static_cast<LayerwiseState&>(*found->second);
            state.step(state.step() + 1);
            update(parameter, parameter.grad(), state, options);
        }
    }
    return loss;
}

}  // namespace ddplab
