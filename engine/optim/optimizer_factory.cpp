// SPDX-License-Identifier: GPL-3.0-or-later
#include "optimizer_factory.hpp"

#include "bsi_adam.hpp"
#include "core/derived.hpp"
#include "layerwise_optimizers.hpp"

#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

namespace ddplab {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const Config& c, const std::vector<at::Tensor>& parameters,
                                                       const std::vector<at::Tensor>& meanSquaredGradients)
{
    const AdamSettings adam = appliedAdamSettings(c);
    const double weightDecay = appliedWeightDecay(c);
    const auto adamOptions = torch::optim::AdamOptions(c.lr).betas({adam.beta1, adam.beta2}).eps(adam.eps).weight_decay(weightDecay);
    switch (c.optimizer) {
    case OptimizerKind::Sgd:
        return std::make_unique<torch::optim::SGD>(
            parameters, torch::optim::SGDOptions(c.lr).momentum(c.momentum).dampening(c.dampening)
                            .nesterov(c.nesterov).weight_decay(weightDecay));
    case OptimizerKind::Adam:
        return std::make_unique<torch::optim::Adam>(parameters, adamOptions);
    case OptimizerKind::AdamW:
        return std::make_unique<torch::optim::AdamW>(
            parameters, torch::optim::AdamWOptions(c.lr).betas({adam.beta1, adam.beta2}).eps(adam.eps).weight_decay(weightDecay));
    case OptimizerKind::AdamBsi:
    case OptimizerKind::AdamWBsi:
        return std::make_unique<BsiAdam>(parameters, meanSquaredGradients, adamOptions, c.optimizer == OptimizerKind::AdamWBsi);
    case OptimizerKind::NovoGrad:
    case OptimizerKind::Lamb:
    case OptimizerKind::Lars:
        break;
    }
    const LayerwiseOptions options = LayerwiseOptions(c.lr)
                                         .beta1(adam.beta1)
                                         .beta2(adam.beta2)
                                         .eps(adam.eps)
                                         .weight_decay(weightDecay)
                                         .momentum(c.momentum)
                                         .trust_coefficient(c.trustCoefficient)
                                         .grad_averaging(c.gradAveraging);
    if (c.optimizer == OptimizerKind::NovoGrad)
        return std::make_unique<NovoGrad>(parameters, options);
    if (c.optimizer == OptimizerKind::Lamb)
        return std::make_unique<Lamb>(parameters, options);
    return std::make_unique<Lars>(parameters, options);
}

void setLearningRate(torch::optim::Optimizer& optimizer, double lr)
{
    for (auto& group : optimizer.param_groups())
        group.options().set_lr(lr);
}

bool averagesSquaredGradients(const Config& c)
{
    return c.optimizer == OptimizerKind::AdamBsi || c.optimizer == OptimizerKind::AdamWBsi;
}

bool appliesPlainGradientStep(const Config& c)
{
    return c.optimizer == OptimizerKind::Sgd && c.momentum == 0 && c.weightDecay == 0;
}

}  // namespace ddplab
