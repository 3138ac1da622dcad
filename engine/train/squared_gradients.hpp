// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What batch-size-invariant Adam (Wang and Aitchison 2024, "Batch size invariant Adam") needs
// beside the averaged gradient: for every gradient element, the mean over ranks and
// micro-batches of each one's *squared* gradient, instead of the square of their mean. DDP has
// the per-rank gradients anyway; this costs one more all-reduce per bucket, started right
// after the bucket's own.
//
// A micro-batch's gradient is what its backward adds to .grad (the loss is divided by the
// number of micro-batches M, so it adds g_m / M): the difference from the gradient before it.
// The squares of those differences are summed as the micro-batches go; at the end
// mean_m(g_m^2) = M * sum_m (g_m / M)^2. With one rank and one micro-batch it is g^2, Adam's.

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace ddplab {

class Communicator;
class PendingCollective;

class SquaredGradients {
public:
    // `buckets`: parameter indices per bucket, in GradientSync's filling order.
    SquaredGradients(const std::vector<at::Tensor>& parameters, const std::vector<std::vector<size_t>>& buckets,
                     Communicator& comm);
    ~SquaredGradients();

    // A step begins: nothing summed yet.
    void zero();

    // Before each micro-batch's backward, with every bucket's gradients as they are.
    void beginMicroBatch(const std::vector<at::Tensor>& bucketGradients);

    // The bucket's gradients are complete, not yet divided by the world size: adds the last
    // micro-batch's squares and divides as DDP divides gradients.
    void finishBucket(size_t bucket, const at::Tensor& gradients);

    // Then, after the bucket's gradients are under way: its all-reduce.
    void launch(size_t bucket);

    // Waits for every bucket's all-reduce.
    void wait();

    // One view per parameter (registration order), shaped like it: the mean squared gradient.
    const std::vector<at::Tensor>& perParameter() const { return m_views; }

private:
    struct Bucket {
        at::Tensor squares;   // sum over micro-batches of (g_m / M)^2, then the mean over ranks of M * that
        at::Tensor previous;  // the gradients before the current micro-batch (undefined before the second)
        std::unique_ptr<PendingCollective> pending;
    };

    std::vector<Bucket> m_buckets;
    std::vector<at::Tensor> m_views;
    Communicator& m_comm;
    int64_t m_microBatches = 0;
};

}  // namespace ddplab
