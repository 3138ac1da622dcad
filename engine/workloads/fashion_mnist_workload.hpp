// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fashion-MNIST classification (seed 003) with an MLP or a CNN: the 60,000 training images
// (or the first train_subset) sampled like every workload, the 10,000 test images (or the
// first val_subset) evaluated by all ranks together; the training loss free of sampling noise
// is measured the same way on a fixed set of training images. Images stay uint8 on the device; a batch is scaled to [0, 1] and
// normalised with the training set's mean and deviation when it is fetched.

#include "core/config.hpp"
#include "train/workload.hpp"

#include <torch/nn/modules/container/sequential.h>

namespace ddplab {

class FashionMnistWorkload final : public Workload {
public:
    FashionMnistWorkload(const Config& config, const at::Device& device);

    std::vector<at::Tensor> parameters() override { return m_model->parameters(); }
    // mlp_bn's running statistics (none for the other two): broadcast from rank 0 before a
    // forward, as DDP does, and each emulated GPU's own under accumulate_as_ranks.
    std::vector<at::Tensor> buffers() override { return m_model->buffers(); }
    int64_t datasetSize() const override { return m_trainImages.size(0); }
    bool classifies() const override { return true; }
    bool evaluates() const override { return true; }
    Batch fetch(const at::Tensor& indices) override;
    ForwardResult forward(const Batch& batch) override;
    std::optional<EvalResult> evaluate(Communicator& comm) override;
    std::optional<EvalResult> measureTraining(Communicator& comm) override;

private:
    at::Tensor normalise(const at::Tensor& images) const;
    EvalResult evaluateImages(const at::Tensor& images, const at::Tensor& labels, Communicator& comm);

    torch::nn::Sequential m_model;
    at::Tensor m_trainImages;  // [N, 1, 28, 28] uint8
    at::Tensor m_trainLabels;  // [N] int64
    at::Tensor m_testImages;
    at::Tensor m_testLabels;
};

}  // namespace ddplab
