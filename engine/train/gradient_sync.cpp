// SPDX-License-Identifier: GPL-3.0-or-later
#include "gradient_sync.hpp"

#include "comm/communicator.hpp"
#include "squared_gradients.hpp"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/variable.h>

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

std::string nothingTrainsMessage()
{
    return "the model has no parameter that requires a gradient, so nothing would train (a tensor made inside forward, "
           "even with requires_grad, is not a parameter: make it an nn.Parameter of the module)";
}

GradientSync::GradientSync(std::vector<at::Tensor> parameters, Communicator& comm, double bucketCapMb, bool overlap,
                           bool squaredGradients)
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

    if (squaredGradients)
        m_squares = std::make_unique<SquaredGradients>(m_parameters, bucketLayout(), m_comm);

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

std::vector<at::Tensor> GradientSync::meanSquaredGradients() const
{
    return m_squares ? m_squares->perParameter() : std::vector<at::Tensor>();
}

std::vector<at::Tensor> GradientSync::bucketGradients() const
{
    std::vector<at::Tensor> gradients;
    for (const Bucket& bucket : m_buckets)
        gradients.push_back(bucket.flat.narrow(0, 0, bucket.gradientElements));
    return gradients;
}

void GradientSync::zeroGradients()
{
    // Not Optimizer::zero_grad(): it detaches .grad in place, which views cannot do.
    for (Bucket& bucket : m_buckets)
        bucket.flat.zero_();
    if (m_squares)
        m_squares->zero();
}

void GradientSync::prepare(bool synchronize)
{
    if (m_squares)
        m_squares->beginMicroBatch(bucketGradients());
    m_synchronizing = synchronize;
    if (!synchronize)
        return;
    m_nextBucket = 0;
    for (Bucket& bucket : m_buckets) {
        bucket.ready = 0;
        bucket.arrived.assign(bucket.parameters.size(), false);
        bucket.pending.reset();
    }
}

void GradientSync::setFigures(const BatchResult& local)
{
    Bucket& last = m_buckets.back();
    at::Tensor tail = last.flat.narrow(0, last.gradientElements, kLastBucketExtras);
    tail[kLossSlot].copy_(local.lossSum.reshape({}));
    if (local.correct.defined())
        tail[kCorrectSlot].copy_(local.correct.reshape({}));
    else
        tail[kCorrectSlot].fill_(0.0);
    tail[kSamplesSlot].fill_(local.samples);
}

void GradientSync::onGradientAccumulated(size_t parameter)
{
    if (!m_synchronizing)
        return;
    std::lock_guard<std::mutex> lock(m_readyMutex);
    const Slot slot = m_slots[parameter];
    Bucket& bucket = m_buckets[slot.bucket];
    if (bucket.arrived[slot.position])
        return;
    bucket.arrived[slot.position] = true;
    ++bucket.ready;
    if (!m_overlap)
        return;
    // Reducer::mark_bucket_ready: launch from the next bucket in order for as long as buckets
    // are complete; a complete bucket further on waits for its turn.
    while (m_nextBucket < m_buckets.size() && m_buckets[m_nextBucket].ready == m_buckets[m_nextBucket].parameters.size())
        launch(m_buckets[m_nextBucket++]);
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
    const size_t index = size_t(&bucket - m_buckets.data());
    // Before the gradients are divided by the world size: the squares are this rank's own.
    if (m_squares)
        m_squares->finishBucket(index, bucket.flat.narrow(0, 0, bucket.gradientElements));
    if (m_trackNorm) {
        const at::Tensor gradients = bucket.flat.narrow(0, 0, bucket.gradientElements);
        bucket.flat[bucket.gradientElements + kNormSlot].copy_(at::dot(gradients, gradients));
    }
    // Divide before summing, as DDP does: the sum of g/K over K ranks is the mean (of the
    // figures too; sums are multiplied back by K afterwards).
    if (m_comm.worldSize() > 1)
        bucket.flat.div_(double(m_comm.worldSize()));
    bucket.pending = m_comm.allReduceSum(bucket.flat);
    if (m_squares)
        m_squares->launch(index);
}

at::Tensor GradientSync::finish()
{
    // Buckets not launched yet, in order: without overlap all of them; with overlap those
    // from the first one holding a parameter that got no gradient this step (its zeros, or
    // what earlier micro-steps left, take part in the sum).
    while (m_nextBucket < m_buckets.size())
        launch(m_buckets[m_nextBucket++]);
    for (Bucket& bucket : m_buckets) {
        bucket.pending->wait();
        bucket.pending.reset();
    }
    if (m_squares)
        m_squares->wait();
    m_synchronizing = false;

    // Everything below is queued on the device; nothing is read back here.
    const auto asDouble = [](const at::Tensor& t) { return t.to(at::kDouble); };
    std::vector<at::Tensor> global, local;
    for (const Bucket& bucket : m_buckets) {
        const at::Tensor gradients = bucket.flat.narrow(0, 0, bucket.gradientElements);
        global.push_back(asDouble(at::dot(gradients, gradients)));
        local.push_back(asDouble(bucket.flat[bucket.gradientElements + kNormSlot]));
    }
    const Bucket& last = m_buckets.back();
    // The figures were divided by K with the gradients; the sample count is a whole number.
    const at::Tensor sums =
        asDouble(last.flat.narrow(0, last.gradientElements + kLossSlot, kLastBucketExtras - kLossSlot)) * double(m_comm.worldSize());
    const at::Tensor samples = sums.narrow(0, kSamplesSlot - kLossSlot, 1).round();
    return at::cat({at::stack(local).sum().reshape({1}), at::stack(global).sum().reshape({1}),
                    sums.narrow(0, 0, kSamplesSlot - kLossSlot), samples});
}

}  // namespace ddplab
