#include "gradient_sync.hpp"

#include "comm/communicator.hpp"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

#include <chrono>
#include <cmath>
#include <functional>

namespace ddplab {
namespace {

// Runs after AccumulateGrad has added this backward's gradient into .grad.
class AfterAccumulation final : public torch::autograd::FunctionPostHook {
public:
    explicit AfterAccumulation(std::function<void()> callback) : m_callback(std::move(callback)) {}

    torch::autograd::variable_list operator()(const torch::autograd::variable_list& outputs,
                                              const torch::autograd::variable_list& /*inputs*/) override
    {
        m_callback();
        return outputs;
    }

private:
    std::function<void()> m_callback;
};

// Elements behind the gradients: every bucket's local squared norm; in the last bucket also
// the loss sum, correct count and sample count.
constexpr int64_t kNormSlot = 0;
constexpr int64_t kLossSlot = 1;
constexpr int64_t kCorrectSlot = 2;
constexpr int64_t kSamplesSlot = 3;
constexpr int64_t kBucketExtras = 1;
constexpr int64_t kLastBucketExtras = 4;

}  // namespace

std::string missingGradientsMessage(const std::vector<std::string>& names)
{
    std::string list;
    for (const std::string& name : names)
        list += (list.empty() ? "" : ", ") + name;
    const bool one = names.size() == 1;
    return std::string(one ? "parameter " : "parameters ") + list + " got no gradient: forward did not use " +
           (one ? "it" : "them") + " for this batch, and DDP stops at a parameter without one (find_unused_parameters=False). "
           "Use every parameter in forward, or freeze those you do not train (requires_grad_(False)) before saving the model";
}

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
        for (size_t index : bucket.parameters)
            bucket.gradientElements += m_parameters[index].numel();
        const int64_t extras = &bucket == &m_buckets.back() ? kLastBucketExtras : kBucketExtras;
        bucket.flat = at::zeros({bucket.gradientElements + extras},
                                m_parameters[bucket.parameters.front()].options().requires_grad(false));
        bucket.arrived.assign(bucket.parameters.size(), false);
        int64_t offset = 0;
        for (size_t index : bucket.parameters) {
            at::Tensor& p = m_parameters[index];
            p.mutable_grad() = bucket.flat.narrow(0, offset, p.numel()).view(p.sizes());
            offset += p.numel();
        }
    }

    // Without overlap the hooks only note which gradients arrived (missingGradients).
    for (size_t i = 0; i < m_parameters.size(); ++i) {
        auto accumulator = torch::autograd::impl::grad_accumulator(m_parameters[i]);
        m_hookKeys.push_back(
            accumulator->add_post_hook(std::make_unique<AfterAccumulation>([this, i] { onGradientAccumulated(i); })));
        m_accumulators.push_back(std::move(accumulator));
    }
}

GradientSync::~GradientSync()
{
    for (size_t i = 0; i < m_accumulators.size(); ++i)
        m_accumulators[i]->del_post_hook(m_hookKeys[i]);
}

std::vector<std::vector<size_t>> GradientSync::bucketLayout() const
{
    std::vector<std::vector<size_t>> layout;
    for (const Bucket& bucket : m_buckets)
        layout.push_back(bucket.parameters);
    return layout;
}

void GradientSync::zeroGradients()
{
    // Not Optimizer::zero_grad(): it detaches .grad in place, which views cannot do.
    for (Bucket& bucket : m_buckets)
        bucket.flat.zero_();
}

void GradientSync::prepare(bool synchronize)
{
    m_synchronizing = synchronize;
    if (!synchronize)
        return;
    for (Bucket& bucket : m_buckets) {
        bucket.ready = 0;
        bucket.arrived.assign(bucket.parameters.size(), false);
        bucket.pending.reset();
    }
}

void GradientSync::setFigures(const StepFigures& local)
{
    at::Tensor tail = m_buckets.back().flat.narrow(0, m_buckets.back().gradientElements, kLastBucketExtras);
    tail[kLossSlot].fill_(local.lossSum);
    tail[kCorrectSlot].fill_(local.correct);
    tail[kSamplesSlot].fill_(local.samples);
}

void GradientSync::onGradientAccumulated(size_t parameter)
{
    if (!m_synchronizing)
        return;
    const Slot slot = m_slots[parameter];
    Bucket& bucket = m_buckets[slot.bucket];
    if (bucket.arrived[slot.position])
        return;
    bucket.arrived[slot.position] = true;
    if (++bucket.ready == bucket.parameters.size() && m_overlap)
        launch(bucket);
}

std::vector<size_t> GradientSync::missingGradients() const
{
    std::vector<size_t> missing;
    for (size_t i = 0; i < m_parameters.size(); ++i) {
        const Slot slot = m_slots[i];
        if (!m_buckets[slot.bucket].arrived[slot.position])
            missing.push_back(i);
    }
    return missing;
}

void GradientSync::launch(Bucket& bucket)
{
    if (m_trackNorm) {
        const at::Tensor gradients = bucket.flat.narrow(0, 0, bucket.gradientElements);
        bucket.flat[bucket.gradientElements + kNormSlot].copy_(at::dot(gradients, gradients));
    }
    // Divide before summing, as DDP does: the sum of g/K over K ranks is the mean (of the
    // figures too; sums are multiplied back by K afterwards).
    if (m_comm.worldSize() > 1)
        bucket.flat.div_(double(m_comm.worldSize()));
    bucket.pending = m_comm.allReduceSum(bucket.flat);
}

SyncResult GradientSync::finish()
{
    SyncResult timing;
    // Buckets not launched yet: without overlap, all of them.
    for (Bucket& bucket : m_buckets) {
        if (!bucket.pending)
            launch(bucket);
    }

    const auto start = std::chrono::steady_clock::now();
    for (Bucket& bucket : m_buckets) {
        bucket.pending->wait();
        bucket.pending.reset();
    }
    timing.waitMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

    const double worldSize = double(m_comm.worldSize());
    for (const Bucket& bucket : m_buckets) {
        const at::Tensor gradients = bucket.flat.narrow(0, 0, bucket.gradientElements);
        timing.globalSquaredNorm += at::dot(gradients, gradients).item<double>();
        timing.localSquaredNorm += bucket.flat[bucket.gradientElements + kNormSlot].item<double>();
    }
    const at::Tensor tail =
        m_buckets.back().flat.narrow(0, m_buckets.back().gradientElements, kLastBucketExtras).to(at::kDouble).cpu();
    const double* sums = tail.data_ptr<double>();
    timing.global = {sums[kLossSlot] * worldSize, sums[kCorrectSlot] * worldSize, std::round(sums[kSamplesSlot] * worldSize)};
    m_synchronizing = false;
    return timing;
}

}  // namespace ddplab
