// SPDX-License-Identifier: GPL-3.0-or-later
#include "linreg_workload.hpp"

#include "core/derived.hpp"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <vector>

namespace ddplab {
namespace {
// Inputs are N(0, 0.1^2): small enough that seed 004's lr 1 on a loss summed over 10
// examples is a stable step (the largest curvature is about 2 * 0.01 (sqrt(10) + sqrt(dim))^2,
// well below 2 / lr). There is no intercept: its curvature would be 2 B whatever the inputs.
constexpr double kInputScale = 0.1;
// The starting weights: small and different per experiment.
constexpr double kInitScale = 0.1;
// Experiments whose inputs are turned to double at a time for their moments: a bounded copy.
constexpr int64_t kMomentValuesPerChunk = 4'000'000;
}  // namespace

LinregWorkload::LinregWorkload(const Config& config, const at::Device& device)
    : m_meanOverBatch(config.lossReduction == LossReduction::Mean)
{
    const int64_t experiments = config.experiments;
    const int64_t examples = config.numExamples;
    const int64_t dim = config.dim;
    const auto floats = at::TensorOptions().dtype(at::kFloat);
    // One generator, fixed order of draws: tests/tools/make_linreg_goldens.py replays it in
    // Python to get the same data and the same start.
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(uint64_t(dataSeed(config)));
    const at::Tensor trueWeight = at::randn({experiments, dim}, generator, floats);
    m_inputs = kInputScale * at::randn({experiments, examples, dim}, generator, floats);
    const at::Tensor noise = at::randn({experiments, examples}, generator, floats);
    m_targets = (m_inputs * trueWeight.unsqueeze(1)).sum(2) + config.noise * noise;
    const at::Tensor startWeight = kInitScale * at::randn({experiments, dim}, generator, floats);

    m_inputs = m_inputs.to(device);
    m_targets = m_targets.to(device);
    m_weight = startWeight.to(device).set_requires_grad(true);
    if (linregMeasuresByMoments(config))
        computeMoments();
}

void LinregWorkload::computeMoments()
{
    const int64_t experiments = m_inputs.size(0), examples = m_inputs.size(1), dim = m_inputs.size(2);
    const int64_t chunk = std::max<int64_t>(1, kMomentValuesPerChunk / (examples * dim));
    std::vector<at::Tensor> grams, crossMoments, targetPowers;
    for (int64_t first = 0; first < experiments; first += chunk) {
        const int64_t count = std::min(chunk, experiments - first);
        const at::Tensor x = m_inputs.narrow(0, first, count).to(at::kDouble);
        const at::Tensor y = m_targets.narrow(0, first, count).to(at::kDouble);
        grams.push_back(at::bmm(x.transpose(1, 2), x) / double(examples));
        crossMoments.push_back(at::bmm(x.transpose(1, 2), y.unsqueeze(2)).squeeze(2) / double(examples));
        targetPowers.push_back(y.pow(2).mean(1));
    }
    m_gram = at::cat(grams);
    m_crossMoment = at::cat(crossMoments);
    m_targetPower = at::cat(targetPowers);
}

std::optional<EvalResult> LinregWorkload::measureTraining(Communicator& /*comm*/)
{
    // Every rank holds the whole training set: each computes the same figure, no message sent.
    at::NoGradGuard noGrad;
    at::Tensor lossPerExperiment;
    if (m_gram.defined()) {
        const at::Tensor w = m_weight.detach().to(at::kDouble).unsqueeze(2);  // [E, dim, 1]
        const at::Tensor quadratic = at::bmm(w.transpose(1, 2), at::bmm(m_gram, w)).reshape({-1});
        lossPerExperiment = quadratic - 2.0 * (m_crossMoment * w.squeeze(2)).sum(1) + m_targetPower;
    } else {
        const at::Tensor predictions = at::bmm(m_inputs, m_weight.detach().unsqueeze(2)).squeeze(2);
        lossPerExperiment = (predictions - m_targets).pow(2).mean(1);
    }
    return EvalResult{lossPerExperiment.mean().item<double>(), 0.0, m_inputs.size(1)};
}

Batch LinregWorkload::fetch(const at::Tensor& indices)
{
    const at::Tensor rows = indices.to(m_inputs.device());
    return {m_inputs.index_select(1, rows), m_targets.index_select(1, rows), indices.numel()};
}

ForwardResult LinregWorkload::forward(const Batch& batch)
{
    // [E, B, dim] . [E, dim] -> [E, B]
    const at::Tensor predictions = (batch.inputs * m_weight.unsqueeze(1)).sum(2);
    const at::Tensor squaredErrors = (predictions - batch.targets).pow(2);
    ForwardResult result;
    // Summed over the experiments (each has its own weights, so its own gradient), and summed
    // or averaged over the batch.
    const at::Tensor summed = squaredErrors.sum();
    result.loss = m_meanOverBatch ? summed / double(batch.size) : summed;
    result.figures.samples = double(batch.size);
    result.figures.lossSum = summed.detach() / double(m_weight.size(0));  // reported per example either way
    return result;
}

}  // namespace ddplab
