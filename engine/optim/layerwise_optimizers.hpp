// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// NovoGrad (Ginsburg et al. 2019), LAMB (You et al. 2019) and LARS (You et al. 2017):
// layer-wise adaptive optimizers, one update rule per parameter tensor ("layer").

#include "layerwise_options.hpp"

namespace ddplab {

class LayerwiseOptimizer : public torch::optim::Optimizer {
public:
    LayerwiseOptimizer(std::vector<at::Tensor> parameters, const LayerwiseOptions& options)
        : torch::optim::Optimizer({torch::optim::OptimizerParamGroup(std::move(parameters))},
                                  std::make_unique<LayerwiseOptions>(options))
    {
    }

    at::Tensor step(LossClosure closure = nullptr) override;

protected:
    // One layer's update, in place on `parameter`, under NoGradGuard.
    virtual void update(at::Tensor& parameter, const at::Tensor& grad, LayerwiseState& state,
                        const LayerwiseOptions& options) = 0;
};

// torch_optimizer.NovoGrad, the implementation seed 003 uses: a per-layer second moment of
// the squared gradient norm, gradients normalised by it before the momentum.
class NovoGrad final : public LayerwiseOptimizer {
public:
    using LayerwiseOptimizer::LayerwiseOptimizer;

protected:
    void update(at::Tensor& parameter, const at::Tensor& grad, LayerwiseState& state,
                const LayerwiseOptions& options) override;
};

// LAMB, Algorithm 2 of You et al. 2019: Adam's bias-corrected direction plus weight decay,
// scaled per layer by the trust ratio |w| / |direction|.
class Lamb final : public LayerwiseOptimizer {
public:
    using LayerwiseOptimizer::LayerwiseOptimizer;

protected:
    void update(at::Tensor& parameter, const at::Tensor& grad, LayerwiseState& state,
                const LayerwiseOptions& options) override;
};

// LARS, You et al. 2017: local LR eta * |w| / (|g| + beta * |w|) per layer, inside momentum.
class Lars final : public LayerwiseOptimizer {
public:
    using LayerwiseOptimizer::LayerwiseOptimizer;

protected:
    void update(at::Tensor& parameter, const at::Tensor& grad, LayerwiseState& state,
                const LayerwiseOptions& options) override;
};

}  // namespace ddplab
