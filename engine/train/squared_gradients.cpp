// SPDX-License-Identifier: GPL-3.0-or-later
#include "squared_gradients.hpp"

#include "comm/communicator.hpp"

#include <ATen/ATen.h>

namespace ddplab {

SquaredGradients::SquaredGradients(const std::vector<at::Tensor>& parameters,
                                   const std::vector<std::vector<size_t>>& buckets, Communicator& comm)
    : m_views(parameters.size()), m_comm(comm)
{
    for (const std::vector<size_t>& members : buckets) {
        int64_t elements = 0;
        for (size_t index : members)
            elements += parameters[index].numel();
        Bucket bucket;
        bucket.squares = at::zeros({elements}, parameters[members.front()].options().requires_grad(false));
        int64_t offset = 0;
        for (size_t index : members) {
            const at::Tensor& p = parameters[index];
            m_views[index] = bucket.squares.narrow(0, offset, p.numel()).view(p.sizes());
            offset += p.numel();
        }
        m_buckets.push_back(std::move(bucket));
    }
}

SquaredGradients::~SquaredGradients() = default;

void SquaredGradients::zero()
{
    for (Bucket& bucket : m_buckets) {
        bucket.squares.zero_();
        bucket.previous.reset();
        bucket.pending.reset();
    }
    m_microBatches = 0;
}

void SquaredGradients::beginMicroBatch(const std::vector<at::Tensor>& bucketGradients)
{
    // From the second micro-batch on, the one before it is complete: add its squares.
    if (m_microBatches > 0) {
        for (size_t b = 0; b < m_buckets.size(); ++b) {
            Bucket& bucket = m_buckets[b];
            const at::Tensor added = bucket.previous.defined() ? bucketGradients[b] - bucket.previous : bucketGradients[b];
            bucket.squares.addcmul_(added, added);
            bucket.previous = bucketGradients[b].clone();
        }
    }
    ++m_microBatches;
}

void SquaredGradients::finishBucket(size_t index, const at::Tensor& gradients)
{
    Bucket& bucket = m_buckets[index];
    const at::Tensor added = bucket.previous.defined() ? gradients - bucket.previous : gradients;
    bucket.squares.addcmul_(added, added);
    // mean_m(g_m^2) = M * sum_m (g_m / M)^2, divided by K before the sum as DDP divides gradients.
    const double scale = double(m_microBatches) / double(m_comm.worldSize());
    if (scale != 1.0)
        bucket.squares.mul_(scale);
}

void SquaredGradients::launch(size_t index)
{
    m_buckets[index].pending = m_comm.allReduceSum(m_buckets[index].squares);
}

void SquaredGradients::wait()
{
    for (Bucket& bucket : m_buckets) {
        bucket.pending->wait();
        bucket.pending.reset();
    }
}

}  // namespace ddplab
