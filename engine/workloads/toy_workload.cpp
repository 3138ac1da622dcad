// SPDX-License-Identifier: GPL-3.0-or-later
#include "toy_workload.hpp"

#include "core/derived.hpp"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

namespace ddplab {

ToyWorkload::ToyWorkload(const Config& config, const at::Device& device)
{
    const int64_t experiments = config.experiments;
    const int64_t examples = config.numExamples;
    const auto floats = at::TensorOptions().dtype(at::kFloat);
    if (config.noise > 0) {
        // Generated on the CPU from the run's data seed (data_seed, else seed) so every rank (and
        // device) sees the same data, and another seed with the same data_seed another order of it.
        at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(uint64_t(dataSeed(config)));
        m_inputs = 1.0 + config.noise * at::randn({experiments, examples}, generator, floats);
        m_targets = config.noise * at::randn({experiments, examples}, generator, floats);
    } else {
        m_inputs = at::ones({experiments, examples}, floats);
        m_targets = at::zeros({experiments, examples}, floats);
    }
    m_inputs = m_inputs.to(device);
    m_targets = m_targets.to(device);
    m_weights = at::ones({experiments}, floats.device(device)).set_requires_grad(true);
}

Batch ToyWorkload::fetch(const at::Tensor& indices)
{
    const at::Tensor columns = indices.to(m_inputs.device());
    return {m_inputs.index_select(1, columns), m_targets.index_select(1, columns), indices.numel()};
}

ForwardResult ToyWorkload::forward(const Batch& batch)
{
    // One L1 loss per experiment; their sum gives every experiment its own gradient.
    const at::Tensor lossPerExperiment = (m_weights.unsqueeze(1) * batch.inputs - batch.targets).abs().mean(1);
    ForwardResult result;
    result.loss = lossPerExperiment.sum();
    result.figures.samples = double(batch.size);
    result.figures.lossSum = lossPerExperiment.detach().mean() * result.figures.samples;
    return result;
}

std::optional<EvalResult> ToyWorkload::measureTraining(Communicator& /*comm*/)
{
    // Every rank holds the whole training set: each computes the same figure, no message sent.
    at::NoGradGuard noGrad;
    const at::Tensor lossPerExperiment = (m_weights.unsqueeze(1) * m_inputs - m_targets).abs().mean(1);
    return EvalResult{lossPerExperiment.mean().item<double>(), 0.0, m_inputs.size(1)};
}

at::Tensor ToyWorkload::weightMean() const
{
    return m_weights.detach().mean();
}

}  // namespace ddplab
