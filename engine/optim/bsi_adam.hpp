// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Batch-size-invariant Adam and AdamW (Wang and Aitchison 2024, "Batch size invariant Adam"):
// Adam's first moment from the averaged gradient, but its second moment from the mean over
// ranks and micro-batches of each one's squared gradient (GradientSync averages those) rather
// than the square of the averaged gradient. At a fixed per-rank batch the second moment then
// does not shrink as ranks are added; with one rank and one micro-batch it is Adam exactly.

#include <torch/optim/adam.h>

#include <vector>

namespace ddplab {

class BsiAdam final : public torch::optim::Optimizer {
public:
    // `meanSquaredGradients`: one tensor per parameter, shaped like it, refilled before each
    // step. `decoupledWeightDecay`: AdamW's decay of the weights, else Adam's L2 term.
    BsiAdam(std::vector<at::Tensor> parameters, std::vector<at::Tensor> meanSquaredGradients,
            const torch::optim::AdamOptions& options, bool decoupledWeightDecay);

    at::Tensor step(LossClosure closure = nullptr) override;

    struct Moments {
        int64_t step = 0;
        at::Tensor first;   // undefined before the parameter's first step
        at::Tensor second;
    };
    // Per parameter, for checkpoints (optimizer_state.hpp).
    std::vector<Moments>& moments() { return m_moments; }

private:

    std::vector<at::Tensor> m_meanSquares;
    std::vector<Moments> m_moments;  // per parameter
    bool m_decoupled = false;
};

}  // namespace ddplab
