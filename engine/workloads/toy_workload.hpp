// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Seed 000's toy problem: one neuron w (initialised to 1) predicting w * x, L1 loss, inputs
// 1 and targets 0; with noise sigma, x = 1 + sigma * N(0,1) and y = sigma * N(0,1), drawn
// afresh for every experiment and identical on every rank. `experiments` independent runs
// are one vector of weights, so every step advances all of them in one pass.

#include "core/config.hpp"
#include "train/workload.hpp"

#include <ATen/core/Tensor.h>

namespace ddplab {

class ToyWorkload final : public Workload {
public:
    ToyWorkload(const Config& config, const at::Device& device);

    std::vector<at::Tensor> parameters() override { return {m_weights}; }
    int64_t datasetSize() const override { return m_inputs.size(1); }
    int64_t experiments() const override { return m_weights.size(0); }
    Batch fetch(const at::Tensor& indices) override;
    ForwardResult forward(const Batch& batch) override;
    bool tracksUpdateVariance() const override { return true; }
    std::optional<EvalResult> measureTraining(Communicator& comm) override;
    at::Tensor weightMean() const override;

private:
    at::Tensor m_weights;  // [experiments]
    at::Tensor m_inputs;   // [experiments, examples]
    at::Tensor m_targets;  // [experiments, examples]
};

}  // namespace ddplab
