#include "optimizer_factory.hpp"

#include "layerwise_optimizers.hpp"

#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

namespace ddplab {

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const Config& c, const std::vector<at::Tensor>& parameters)
{
    switch (c.optimizer) {
    case OptimizerKind::Sgd:
        return std::make_unique<torch::optim::SGD>(
            parameters, torch::optim::SGDOptions(c.lr).momentum(c.momentum).dampening(c.dampening)
                            .nesterov(c.nesterov).weight_decay(c.weightDecay));
    case OptimizerKind::Adam:
        return std::make_unique<torch::optim::Adam>(
            parameters, torch::optim::AdamOptions(c.lr).betas({c.beta1, c.beta2}).eps(c.eps).weight_decay(c.weightDecay));
    case OptimizerKind::AdamW:
        return std::make_unique<torch::optim::AdamW>(
            parameters, torch::optim::AdamWOptions(c.lr).betas({c.beta1, c.beta2}).eps(c.eps).weight_decay(c.weightDecay));
    case OptimizerKind::NovoGrad:
    case OptimizerKind::Lamb:
    case OptimizerKind::Lars:
        break;
    }
    const LayerwiseOptions options = LayerwiseOptions(c.lr)
                                         .beta1(c.beta1)
                                         .beta2(c.beta2)
                                         .eps(c.eps)
                                         .weight_decay(c.weightDecay)
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

bool appliesPlainGradientStep(const Config& c)
{
    return c.optimizer == OptimizerKind::Sgd && c.momentum == 0 && c.weightDecay == 0;
}

}  // namespace ddplab
