#include "gradient_sync.hpp"

#include "comm/communicator.hpp"

#include <ATen/ATen.h>

#include <chrono>

namespace ddplab {

GradientSync::GradientSync(std::vector<at::Tensor> parameters, Communicator& comm, double bucketCapMb, bool overlap)
    : m_parameters(std::move(parameters)), m_comm(comm), m_overlap(overlap)
{
    // The local norm feeds the gradient-noise-scale estimate, which needs two batch sizes.
    m_trackNorm = m_comm.worldSize() > 1;

    const double capBytes = bucketCapMb * 1024.0 * 1024.0;
    m_slots.resize(m_parameters.size());
    double bucketBytes = 0.0;
    for (size_t i = m_parameters.size(); i-- > 0;) {
        const at::Tensor& p = m_parameters[i];
        const double bytes = double(p.numel()) * double(p.element_size());
        // A bucket is one flat tensor, so a change of dtype starts a new one too.
        const bool startNew = m_buckets.empty() || (bucketBytes > 0 && bucketBytes + bytes > capBytes) ||
                              p.scalar_type() != m_parameters[m_buckets.back().parameters.front()].scalar_type();
        if (startNew) {
            m_buckets.emplace_back();
            bucketBytes = 0.0;
        }
        Bucket& bucket = m_buckets.back();
        m_slots[i] = {m_buckets.size() - 1, bucket.parameters.size()};
        bucket.parameters.push_back(i);
        bucketBytes += bytes;
    }
    for (Bucket& bucket : m_buckets) {
        int64_t total = 0;
        for (size_t index : bucket.parameters) {
            bucket.offsets.push_back(total);
            total += m_parameters[index].numel();
        }
        const at::Tensor& first = m_parameters[bucket.parameters.front()];
        bucket.flat = at::zeros({total}, first.options().requires_grad(false));
        bucket.filled.assign(bucket.parameters.size(), false);
    }

    if (m_overlap) {
        for (size_t i = 0; i < m_parameters.size(); ++i) {
            // A leaf's hook sees the gradient of this backward, before it is added to .grad.
            m_hookHandles.push_back(
                m_parameters[i].register_hook([this, i](const at::Tensor& grad) { onGradient(i, grad); }));
        }
    }
}

GradientSync::~GradientSync()
{
    for (size_t i = 0; i < m_hookHandles.size(); ++i)
        m_parameters[i].remove_hook(m_hookHandles[i]);
}

std::vector<std::vector<size_t>> GradientSync::bucketLayout() const
{
    std::vector<std::vector<size_t>> layout;
    for (const Bucket& bucket : m_buckets)
        layout.push_back(bucket.parameters);
    return layout;
}

void GradientSync::prepare(bool synchronize)
{
    m_synchronizing = synchronize;
    if (!synchronize)
        return;
    for (Bucket& bucket : m_buckets) {
        bucket.ready = 0;
        bucket.filled.assign(bucket.parameters.size(), false);
        bucket.pending.reset();
        bucket.localSquaredNorm = 0.0;
    }
}

void GradientSync::onGradient(size_t parameter, const at::Tensor& grad)
{
    if (!m_synchronizing)
        return;
    // With gradient accumulation .grad still holds the earlier micro-batches: DDP reduces
    // the accumulated gradient, not only the last micro-batch's.
    const at::Tensor& accumulated = m_parameters[parameter].grad();
    fill(parameter, accumulated.defined() ? accumulated + grad : grad);
    Bucket& bucket = m_buckets[m_slots[parameter].bucket];
    if (bucket.ready == bucket.parameters.size())
        launch(bucket);
}

void GradientSync::fill(size_t parameter, const at::Tensor& grad)
{
    const Slot slot = m_slots[parameter];
    Bucket& bucket = m_buckets[slot.bucket];
    if (bucket.filled[slot.position])
        return;
    at::Tensor view = bucket.flat.narrow(0, bucket.offsets[slot.position], m_parameters[parameter].numel());
    view.copy_(grad.reshape({-1}));
    bucket.filled[slot.position] = true;
    ++bucket.ready;
}

void GradientSync::launch(Bucket& bucket)
{
    if (m_trackNorm)
        bucket.localSquaredNorm = bucket.flat.pow(2).sum().item<double>();
    // Divide before summing, as DDP does: the sum of g/K over K ranks is the mean.
    bucket.flat.div_(double(m_comm.worldSize()));
    bucket.pending = m_comm.allReduceSum(bucket.flat);
}

SyncTiming GradientSync::finish()
{
    SyncTiming timing;
    // Buckets not launched yet: without overlap all of them, with overlap those holding a
    // parameter that got no gradient this step (it contributes zeros, or what .grad holds).
    for (Bucket& bucket : m_buckets) {
        if (bucket.pending)
            continue;
        for (size_t position = 0; position < bucket.parameters.size(); ++position) {
            if (bucket.filled[position])
                continue;
            const at::Tensor& p = m_parameters[bucket.parameters[position]];
            if (p.grad().defined())
                fill(bucket.parameters[position], p.grad());
            else
                fill(bucket.parameters[position], at::zeros_like(p));
        }
        launch(bucket);
    }

    const auto start = std::chrono::steady_clock::now();
    for (Bucket& bucket : m_buckets) {
        bucket.pending->wait();
        bucket.pending.reset();
    }
    timing.waitMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    for (Bucket& bucket : m_buckets) {
        timing.localSquaredNorm += bucket.localSquaredNorm;
        for (size_t position = 0; position < bucket.parameters.size(); ++position) {
            at::Tensor& p = m_parameters[bucket.parameters[position]];
            const at::Tensor averaged = bucket.flat.narrow(0, bucket.offsets[position], p.numel()).view(p.sizes());
            if (p.grad().defined())
                p.mutable_grad().copy_(averaged);
            else
                p.mutable_grad() = averaged.clone();
        }
    }
    m_synchronizing = false;
    return timing;
}

}  // namespace ddplab
