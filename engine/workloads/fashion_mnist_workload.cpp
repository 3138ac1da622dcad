// SPDX-License-Identifier: GPL-3.0-or-later
#include "fashion_mnist_workload.hpp"

#include "comm/communicator.hpp"
#include "data/fashion_mnist_files.hpp"
#include "fashion_models.hpp"

#include <torch/nn.h>

namespace ddplab {
namespace {

// Mean and standard deviation of Fashion-MNIST's training pixels (in [0, 1]), as commonly
// passed to torchvision's Normalize.
constexpr double kPixelMean = 0.2860;
constexpr double kPixelStd = 0.3530;
// Test images evaluated per forward pass: few enough that the CNN's largest activation (the
// first convolution's, 250 x 32 x 28 x 28 floats = 25 MB) stays under the block size a rank's
// heap always reuses (launch/heap_policy.cpp). A larger block may be mapped afresh for every
// chunk, at 25,600 page faults per 100 MB.
constexpr int64_t kEvalChunk = 250;
// Training images the training loss is measured on (the first ones). A fixed set, so its loss
// does not jump from step to step as a mini-batch's does; a fifth of the test set's size, so
// measuring it costs a fifth of an evaluation (a CNN's takes seconds on a CPU).
constexpr int64_t kTrainMeasureImages = 2'000;

// Wraps the shared bytes without copying them (the launcher's pages, shared after fork).
at::Tensor imagesTensor(const FashionMnistSplit& split, int64_t count)
{
    auto* bytes = const_cast<uint8_t*>(split.images.data());
    return at::from_blob(bytes, {count, 1, kImageSide, kImageSide}, at::TensorOptions().dtype(at::kByte));
}

at::Tensor labelsTensor(const FashionMnistSplit& split, int64_t count)
{
    auto* bytes = const_cast<uint8_t*>(split.labels.data());
    return at::from_blob(bytes, {count}, at::TensorOptions().dtype(at::kByte)).to(at::kLong);
}

}  // namespace

FashionMnistWorkload::FashionMnistWorkload(const Config& config, const at::Device& device)
{
    const FashionMnistData& data = loadFashionMnist(config.dataDir);
    const int64_t trainCount = config.trainSubset > 0 ? std::min(config.trainSubset, data.train.count) : data.train.count;
    m_trainImages = imagesTensor(data.train, trainCount).to(device);
    m_trainLabels = labelsTensor(data.train, trainCount).to(device);
    const int64_t testCount = config.valSubset > 0 ? std::min(config.valSubset, data.test.count) : data.test.count;
    m_testImages = imagesTensor(data.test, testCount).to(device);
    m_testLabels = labelsTensor(data.test, testCount).to(device);

    // The same start on every rank even before rank 0's broadcast, as with torch.manual_seed.
    torch::manual_seed(uint64_t(config.seed));
    m_model = makeFashionModel(config.model);
    m_model->to(device);
}

at::Tensor FashionMnistWorkload::normalise(const at::Tensor& images) const
{
    return (images.to(at::kFloat) / 255.0 - kPixelMean) / kPixelStd;
}

Batch FashionMnistWorkload::fetch(const at::Tensor& indices)
{
    const at::Tensor rows = indices.to(m_trainImages.device());
    return {normalise(m_trainImages.index_select(0, rows)), m_trainLabels.index_select(0, rows), indices.numel()};
}

ForwardResult FashionMnistWorkload::forward(const Batch& batch)
{
    m_model->train();
    const at::Tensor logits = m_model->forward(batch.inputs);
    ForwardResult result;
    result.loss = torch::nn::functional::cross_entropy(logits, batch.targets);
    result.figures.samples = double(batch.size);
    result.figures.lossSum = result.loss.detach() * result.figures.samples;
    result.figures.correct = logits.detach().argmax(1).eq(batch.targets).sum();
    return result;
}

std::optional<EvalResult> FashionMnistWorkload::evaluate(Communicator& comm)
{
    return evaluateImages(m_testImages, m_testLabels, comm);
}

std::optional<EvalResult> FashionMnistWorkload::measureTraining(Communicator& comm)
{
    const int64_t count = std::min(kTrainMeasureImages, m_trainImages.size(0));
    return evaluateImages(m_trainImages.narrow(0, 0, count), m_trainLabels.narrow(0, 0, count), comm);
}

EvalResult FashionMnistWorkload::evaluateImages(const at::Tensor& images, const at::Tensor& labels, Communicator& comm)
{
    // Rank r takes images r, r + K, ...: every image exactly once, no padding.
    torch::NoGradGuard noGrad;
    m_model->eval();
    const int64_t total = images.size(0);
    const at::Tensor mine = at::arange(comm.rank(), total, comm.worldSize(),
                                       at::TensorOptions().dtype(at::kLong).device(images.device()));
    // Loss sum, correct count, images: summed on the device, read once after the all-reduce.
    at::Tensor sums = at::zeros({3}, at::TensorOptions().dtype(at::kDouble).device(images.device()));
    sums[2].fill_(double(mine.numel()));
    for (int64_t start = 0; start < mine.numel(); start += kEvalChunk) {
        const at::Tensor rows = mine.narrow(0, start, std::min(kEvalChunk, mine.numel() - start));
        const at::Tensor logits = m_model->forward(normalise(images.index_select(0, rows)));
        const at::Tensor expected = labels.index_select(0, rows);
        sums[0] += torch::nn::functional::cross_entropy(
            logits, expected, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
        sums[1] += logits.argmax(1).eq(expected).sum();
    }
    comm.allReduceSumNow(sums);
    sums = sums.cpu();
    const double* s = sums.data_ptr<double>();
    return EvalResult{s[0] / s[2], s[1] / s[2], int64_t(s[2])};
}

}  // namespace ddplab
