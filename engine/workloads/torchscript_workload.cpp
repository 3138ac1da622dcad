// SPDX-License-Identifier: GPL-3.0-or-later
#include "torchscript_workload.hpp"

#include "comm/communicator.hpp"
#include "core/config_error.hpp"
#include "core/data_error.hpp"
#include "core/key_names.hpp"
#include "data/tensor_data.hpp"
#include "data/tensor_text.hpp"
#include "loss_functions.hpp"
#include "torchscript_model.hpp"

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <algorithm>

namespace ddplab {
namespace {

// Rank r of a run with seed s draws from a generator seeded s * 1000 + r (more than the
// 128 ranks a run may have): the ranks' dropout masks differ, as they would with
// torch.manual_seed(seed * 1000 + rank) in each process of a Python script.
constexpr uint64_t kRankSeedStride = 1000;
// Validation samples evaluated per forward pass at the least (more when the batch is larger):
// few enough for any model that trains at a batch, many enough that small models are not slowed
// by one forward per handful of samples.
constexpr int64_t kMinEvalChunk = 256;

// The training loss free of sampling noise is measured on this many training samples at most
// (as Fashion-MNIST's 2,000 images): enough to judge a target on, cheap enough at each epoch end.
constexpr int64_t kTrainMeasureSamples = 2000;

std::string tensorDescription(const at::Tensor& tensor)
{
    return shapeText(tensor.sizes()) + " " + dtypeName(tensor.scalar_type());
}

std::string perSample(const at::Tensor& tensor)
{
    return shapeText(tensor.sizes().slice(1)) + " " + dtypeName(tensor.scalar_type());
}

at::Tensor asLossTargets(const at::Tensor& targets, LossKind loss)
{
    return loss == LossKind::CrossEntropy && targets.scalar_type() != at::kLong ? targets.to(at::kLong) : targets;
}

}  // namespace

TorchScriptWorkload::TorchScriptWorkload(const Config& config, const c10::Device& device, int rank)
    : m_loss(config.loss), m_device(device), m_batchSize(config.batchSize), m_trainSubset(config.trainSubset), m_valSubset(config.valSubset)
{
    m_model = std::make_unique<TorchScriptModel>(config.modelFile, config.loss);
    m_train = &loadTensorData(config.trainData, key::kTrainData);
    if (!config.valData.empty()) {
        m_val = &loadTensorData(config.valData, key::kValData);
        checkLike(*m_val);
    }
    m_model->to(device);
    checkFirstBatch();
    checkTargets(*m_train, key::kTrainData);
    if (m_val)
        checkTargets(*m_val, key::kValData);
    torch::manual_seed(uint64_t(config.seed) * kRankSeedStride + uint64_t(rank));
}

TorchScriptWorkload::~TorchScriptWorkload() = default;

// DDP trains and synchronises the parameters that require a gradient; frozen ones stay as loaded.
std::vector<NamedTensor> TorchScriptWorkload::trained() const
{
    std::vector<NamedTensor> trainable;
    for (const NamedTensor& parameter : m_model->parameters()) {
        if (parameter.tensor.requires_grad())
            trainable.push_back(parameter);
    }
    return trainable;
}

std::vector<at::Tensor> TorchScriptWorkload::parameters()
{
    std::vector<at::Tensor> tensors;
    for (const NamedTensor& parameter : trained())
        tensors.push_back(parameter.tensor);
    return tensors;
}

std::vector<std::string> TorchScriptWorkload::parameterNames() const
{
    std::vector<std::string> names;
    for (const NamedTensor& parameter : trained())
        names.push_back(parameter.name);
    return names;
}

std::vector<at::Tensor> TorchScriptWorkload::buffers()
{
    std::vector<at::Tensor> tensors;
    for (const NamedTensor& buffer : m_model->buffers())
        tensors.push_back(buffer.tensor);
    return tensors;
}

int64_t TorchScriptWorkload::datasetSize() const
{
    return m_trainSubset > 0 ? std::min(m_trainSubset, m_train->samples()) : m_train->samples();
}

// val_data must hold samples of train_data's kind: the model saw those.
void TorchScriptWorkload::checkLike(const TensorData& val) const
{
    for (const auto& [mine, theirs, name] : {std::tuple{&val.inputs, &m_train->inputs, "inputs"},
                                             std::tuple{&val.targets, &m_train->targets, "targets"}}) {
        if (mine->sizes().slice(1) != theirs->sizes().slice(1) || mine->scalar_type() != theirs->scalar_type())
            throw DataError(std::string(key::kValData) + " " + val.path + " holds " + name + " of " + perSample(*mine) +
                                " per sample, but " + key::kTrainData + " " + m_train->path + " holds " + perSample(*theirs) +
                                "; the model is evaluated on samples like those it trains on",
                            key::kValData);
    }
}

Batch TorchScriptWorkload::gather(const TensorData& data, const at::Tensor& rows) const
{
    at::Tensor inputs = data.inputs.index_select(0, rows);
    at::Tensor targets = asLossTargets(data.targets.index_select(0, rows), m_loss);
    if (!m_device.is_cpu()) {
        inputs = inputs.to(m_device);
        targets = targets.to(m_device);
    }
    return {inputs, targets, rows.numel()};
}

// One forward in eval() mode, without gradients (nothing of the model's state changes), on
// the first batch: do inputs, model, output, targets and loss fit together?
void TorchScriptWorkload::checkFirstBatch()
{
    torch::NoGradGuard noGrad;
    const int64_t count = std::min(m_batchSize, m_train->samples());
    const Batch batch = gather(*m_train, at::arange(count, at::TensorOptions().dtype(at::kLong)));
    m_first.inputs = batch.inputs;
    m_first.targets = batch.targets;
    m_model->setTraining(false);
    try {
        m_first.output = m_model->forward(batch.inputs, batch.targets);
    } catch (const ForwardError& error) {
        throw ConfigError(key::kModelFile, std::string(key::kModelFile) + " " + m_model->path() + " does not take the inputs of " +
                                               key::kTrainData + " " + m_train->path + ": on a batch of " + tensorDescription(batch.inputs) +
                                               " its " + m_model->signature() + " threw " + error.what());
    }
    // The targets as the data hold them: cross_entropy's conversion to int64 must not hide floats.
    const std::string mismatch = lossMismatch(m_loss, m_first.output, m_train->targets.narrow(0, 0, count));
    if (!mismatch.empty())
        throw ConfigError(key::kLoss, std::string(key::kModelFile) + " " + m_model->path() + ": forward's output on " +
                                          key::kTrainData + " " + m_train->path + " " + mismatch);
}

// Every target, not only the first batch's: a class index the model cannot score, a binary
// target outside [0, 1].
void TorchScriptWorkload::checkTargets(const TensorData& data, const std::string& key) const
{
    if (m_loss == LossKind::CrossEntropy) {
        const int64_t classes = classCount(m_first.output);
        const at::Tensor outside = at::logical_or(data.targets < 0, data.targets >= classes).reshape({data.samples(), -1});
        const at::Tensor bad = outside.any(1).nonzero();
        if (bad.numel() > 0) {
            const int64_t sample = bad[0][0].item<int64_t>();
            const at::Tensor values = data.targets[sample].reshape({-1});
            const int64_t value = values.masked_select(outside[sample]).view({-1})[0].item<int64_t>();
            throw ConfigError(key, key + " " + data.path + " holds class index " + std::to_string(value) + " (sample " +
                                       std::to_string(sample) + "), but forward's output scores " + std::to_string(classes) +
                                       " classes (indices 0 to " + std::to_string(classes - 1) + ") from model_file " +
                                       m_model->path());
        }
    }
    if (m_loss == LossKind::BceWithLogits) {
        const at::Tensor targets = data.targets.to(at::kDouble);
        const double low = targets.min().item<double>(), high = targets.max().item<double>();
        if (low < 0.0 || high > 1.0)
            throw ConfigError(key, key + " " + data.path + " holds targets from " + std::to_string(low) + " to " +
                                       std::to_string(high) + ", but bce_with_logits needs them in [0, 1]");
    }
}

Batch TorchScriptWorkload::fetch(const at::Tensor& indices)
{
    return gather(*m_train, indices);
}

ForwardResult TorchScriptWorkload::forward(const Batch& batch)
{
    m_model->setTraining(true);
    at::Tensor output;
    try {
        output = m_model->forward(batch.inputs, batch.targets);
    } catch (const ForwardError& error) {
        throw ConfigError(key::kModelFile, std::string(key::kModelFile) + " " + m_model->path() + " threw in forward: " + error.what());
    }
    const LossFigures figures = applyLoss(m_loss, output, batch.targets, batch.size);
    ForwardResult result;
    result.loss = figures.loss;
    result.figures.lossSum = figures.lossSum;
    result.figures.correct = figures.correct;
    result.figures.samples = double(batch.size);
    return result;
}

std::optional<EvalResult> TorchScriptWorkload::evaluate(Communicator& comm)
{
    if (!m_val)
        return std::nullopt;
    const int64_t count = m_valSubset > 0 ? std::min(m_valSubset, m_val->samples()) : m_val->samples();
    return meanOver(*m_val, count, comm, std::string("evaluating ") + key::kValData);
}

std::optional<EvalResult> TorchScriptWorkload::measureTraining(Communicator& comm)
{
    // Not through DDP's wrapper (no buffer broadcast; the next training forward is as it would
    // be without this measure): the lab's own look at the model, as ddp.module(x) would be.
    return meanOver(*m_train, std::min(kTrainMeasureSamples, datasetSize()), comm,
                    std::string("measuring the training loss on ") + key::kTrainData);
}

// The mean loss over the first `count` samples of `data` in eval() mode; rank r takes samples
// r, r + K, ...: every one exactly once, no padding.
EvalResult TorchScriptWorkload::meanOver(const TensorData& data, int64_t count, Communicator& comm, const std::string& doing)
{
    torch::NoGradGuard noGrad;
    m_model->setTraining(false);
    const at::Tensor mine = at::arange(comm.rank(), count, comm.worldSize(), at::TensorOptions().dtype(at::kLong));
    const int64_t chunk = std::max(m_batchSize, kMinEvalChunk);
    // Loss sum, correct count, samples: summed on the device, read once after the all-reduce.
    at::Tensor sums = at::zeros({3}, at::TensorOptions().dtype(at::kDouble).device(m_device));
    sums[2].fill_(double(mine.numel()));
    for (int64_t start = 0; start < mine.numel(); start += chunk) {
        const Batch batch = gather(data, mine.narrow(0, start, std::min(chunk, mine.numel() - start)));
        at::Tensor output;
        try {
            output = m_model->forward(batch.inputs, batch.targets);
        } catch (const ForwardError& error) {
            throw ConfigError(key::kModelFile,
                              std::string(key::kModelFile) + " " + m_model->path() + " threw in forward while " + doing + ": " + error.what());
        }
        const LossFigures figures = applyLoss(m_loss, output, batch.targets, batch.size);
        sums[0] += figures.lossSum;
        if (figures.correct.defined())
            sums[1] += figures.correct;
    }
    comm.allReduceSumNow(sums);
    sums = sums.cpu();
    const double* s = sums.data_ptr<double>();
    return EvalResult{s[0] / s[2], s[1] / s[2], int64_t(s[2])};
}

void TorchScriptWorkload::saveModel(const std::string& path)
{
    m_model->save(path);
}

}  // namespace ddplab
