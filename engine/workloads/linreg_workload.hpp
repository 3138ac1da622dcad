// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Seed 004's linear model, as a regression: y = x . w* + noise, a linear map (no intercept)
// trained with a squared error summed over the batch (reduction='sum', as seed 004's main.py
// sums its loss; loss_reduction mean averages it instead, for studies over the batch). With a summed loss DDP's averaging over K ranks divides the gradient by K, which
// is why plain SGD needs K times the LR there and a scale-invariant update (Adam, eps 0) does
// not. `experiments` independent problems (own data, own start) train side by side.

#include "core/config.hpp"
#include "train/workload.hpp"

#include <ATen/core/Tensor.h>

namespace ddplab {

class LinregWorkload final : public Workload {
public:
    LinregWorkload(const Config& config, const at::Device& device);

    std::vector<at::Tensor> parameters() override { return {m_weight}; }
    int64_t datasetSize() const override { return m_inputs.size(1); }
    int64_t experiments() const override { return m_weight.size(0); }
    Batch fetch(const at::Tensor& indices) override;
    ForwardResult forward(const Batch& batch) override;
    bool tracksUpdateVariance() const override { return true; }
    bool sumsLoss() const override { return !m_meanOverBatch; }
    std::optional<EvalResult> measureTraining(Communicator& comm) override;

private:
    void computeMoments();

    bool m_meanOverBatch = false;  // loss_reduction mean
    at::Tensor m_weight;   // [experiments, dim]
    at::Tensor m_inputs;   // [experiments, examples, dim]
    at::Tensor m_targets;  // [experiments, examples]
    // The training set's second moments, in double: mean(x x^T) [E, dim, dim], mean(x y)
    // [E, dim], mean(y^2) [E]. The mean squared error over every example is then
    // w^T A w - 2 b^T w + c, exactly, at dim^2 instead of examples * dim per experiment.
    at::Tensor m_gram, m_crossMoment, m_targetPower;
};

}  // namespace ddplab
