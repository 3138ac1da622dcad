// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the trainer trains: parameters, a dataset addressed by sample index, and a
// forward/backward pass over a batch of indices. The trainer owns sampling, gradient
// synchronisation, the optimizer and the metrics; a workload owns the model and its data.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ddplab {

class Communicator;

// One batch gathered from the dataset and placed on the rank's device.
struct Batch {
    at::Tensor inputs;
    at::Tensor targets;
    int64_t size = 0;
};

// Sums over the samples of one batch on one rank (divided by the sample count once reduced).
// The sums are 0-dim tensors on the batch's device, detached: the trainer reads them, with every
// other figure of the step, once per step (a read in between would stall a GPU's queue).
struct BatchResult {
    at::Tensor lossSum;    // sum of per-sample losses (averaged over experiments)
    at::Tensor correct;    // correctly classified samples; undefined for a workload that does not classify
    double samples = 0.0;  // known on the host
};

struct ForwardResult {
    at::Tensor loss;  // a scalar with a graph back to the parameters
    BatchResult figures;
};

// Validation over the whole test set, already reduced over ranks.
struct EvalResult {
    double loss = 0.0;
    double accuracy = 0.0;
    int64_t samples = 0;
};

class Workload {
public:
    virtual ~Workload() = default;

    // In registration order; the trainer buckets them in reverse, as DDP does.
    virtual std::vector<at::Tensor> parameters() = 0;

    // The parameters' names, parallel to parameters(), for messages ("fc.weight").
    virtual std::vector<std::string> parameterNames() const { return {}; }

    // Tensors of the model's state that are no parameters (BatchNorm's running statistics):
    // the trainer broadcasts rank 0's before a forward, as DDP does with broadcast_buffers.
    virtual std::vector<at::Tensor> buffers() { return {}; }

    virtual int64_t datasetSize() const = 0;

    // > 1: every parameter's first dimension runs over independent experiments.
    virtual int64_t experiments() const { return 1; }

    virtual bool classifies() const { return false; }

    // Gathers the samples `indices` (a CPU int64 tensor) onto the device: the data time.
    virtual Batch fetch(const at::Tensor& indices) = 0;

    // Forward: the loss to differentiate (the batch's mean loss, or its sum for a summed
    // loss, added over experiments) and the figures of the batch. The trainer runs backward.
    virtual ForwardResult forward(const Batch& batch) = 0;

    // True when the loss is summed over the batch (linreg, as seed 004) rather than averaged:
    // the gradient is then the per-sample mean times the batch size.
    virtual bool sumsLoss() const { return false; }

    // Toy and linreg: the trainer tracks the variance of applied updates over experiments.
    virtual bool tracksUpdateVariance() const { return false; }

    // Whether evaluate() runs the model (there is a validation set).
    virtual bool evaluates() const { return false; }

    // The test set, every rank evaluating its shard; nullopt when the workload has none.
    virtual std::optional<EvalResult> evaluate(Communicator& /*comm*/) { return std::nullopt; }

    // The training loss free of sampling noise, at the parameters as they are: the mean over a
    // fixed set of training examples (toy, linreg: the whole training set), with the accuracy of
    // a classifier. What stop_at_loss and a study's target are judged on by default: one
    // mini-batch's loss meets a target by chance long before the model does. Every rank calls
    // it at the same steps and gets the same value; nullopt when the workload cannot.
    virtual std::optional<EvalResult> measureTraining(Communicator& /*comm*/) { return std::nullopt; }

    // Toy: the mean weight over experiments (a 0-dim tensor on the device), reported with every
    // step and in the summary; undefined when the workload has none.
    virtual at::Tensor weightMean() const { return {}; }

    // torchscript: writes the trained model to `path` (save_model). Others have no file form.
    virtual void saveModel(const std::string& /*path*/) {}
};

}  // namespace ddplab
