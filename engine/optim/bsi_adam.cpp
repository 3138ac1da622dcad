// SPDX-License-Identifier: GPL-3.0-or-later
#include "bsi_adam.hpp"

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <cmath>
#include <stdexcept>

namespace ddplab {

BsiAdam::BsiAdam(std::vector<at::Tensor> parameters, std::vector<at::Tensor> meanSquaredGradients,
                 const torch::optim::AdamOptions& options, bool decoupledWeightDecay)
    : torch::optim::Optimizer({torch::optim::OptimizerParamGroup(parameters)},
                              std::make_unique<torch::optim::AdamOptions>(options)),
      m_meanSquares(std::move(meanSquaredGradients)), m_moments(parameters.size()), m_decoupled(decoupledWeightDecay)
{
    if (m_meanSquares.size() != parameters.size())
        throw std::logic_error("batch-size-invariant Adam needs one mean squared gradient per parameter");
}

at::Tensor BsiAdam::step(LossClosure closure)
{
    // The order of operations is LibTorch's Adam and AdamW (1.13), so that with one rank and one
    // micro-batch the two agree to rounding.
    torch::NoGradGuard noGrad;
    at::Tensor loss;
    if (closure) {
        at::AutoGradMode enableGrad(true);
        loss = closure();
    }
    auto& group = param_groups_.front();
    const auto& options = static_cast<const torch::optim::AdamOptions&>(group.options());
    const auto [beta1, beta2] = options.betas();
    const double decay = options.weight_decay();
    std::vector<at::Tensor>& parameters = group.params();
    for (size_t i = 0; i < parameters.size(); ++i) {
        at::Tensor& p = parameters[i];
        if (!p.grad().defined())
            continue;
        Moments& moments = m_moments[i];
        if (!moments.first.defined()) {
            moments.first = at::zeros_like(p, at::MemoryFormat::Preserve);
            moments.second = at::zeros_like(p, at::MemoryFormat::Preserve);
        }
        ++moments.step;
        const double biasCorrection1 = 1 - std::pow(beta1, double(moments.step));
        const double biasCorrection2 = 1 - std::pow(beta2, double(moments.step));

        at::Tensor grad = p.grad();
        at::Tensor squares = m_meanSquares[i];
        if (decay != 0 && m_decoupled) {
            p.mul_(1 - options.lr() * decay);
        } else if (decay != 0) {
            // Adam's L2 term joins every micro-batch's gradient: mean((g_m + d p)^2) =
            // mean(g_m^2) + d p (2 g + d p).
            squares = squares + (grad * 2 + p * decay) * (p * decay);
            grad = grad.add(p, decay);
        }
        moments.first.mul_(beta1).add_(grad, 1 - beta1);
        moments.second.mul_(beta2).add_(squares, 1 - beta2);
        const at::Tensor denominator = (moments.second.sqrt() / std::sqrt(biasCorrection2)).add_(options.eps());
        p.addcdiv_(moments.first, denominator, -options.lr() / biasCorrection1);
    }
    return loss;
}

}  // namespace ddplab
