// SPDX-License-Identifier: GPL-3.0-or-later
// GradientSync in-process, against a Communicator that records every all-reduce it is asked
// for: buckets are all-reduced strictly in bucket order whatever order backward fills them (as
// DDP's Reducer::mark_bucket_ready), still during backward when they fill in order, and the
// rest at finish(); bucket assignment; averaging over ranks; the figures riding in the last
// bucket; gradient accumulation without synchronisation (no_sync).

#include "comm/communicator.hpp"
#include "train/gradient_sync.hpp"

#include <ATen/ATen.h>
#include <torch/csrc/autograd/variable.h>

#include <QtTest>

#include <functional>
#include <map>

using namespace ddplab;

namespace {

class Done final : public PendingCollective {
public:
    void wait() override {}
};

// K ranks that all computed the same gradients: the sum over ranks is K times this rank's
// contribution. Each call is recorded by the tensor's address (a bucket) and by whether the
// test had said backward was over.
class RecordingCommunicator final : public Communicator {
public:
    explicit RecordingCommunicator(int worldSize) : m_worldSize(worldSize) {}

    std::string backend() const override { return "recording"; }
    int rank() const override { return 0; }
    int worldSize() const override { return m_worldSize; }
    void broadcast(at::Tensor&, int) override {}
    void barrier() override {}

    struct Call {
        const void* data;
        bool afterBackward;
    };
    std::vector<Call> calls;
    bool backwardOver = false;
    std::function<void(const at::Tensor&)> onCall;  // sees the bucket as it is handed over

protected:
    std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& tensor) override
    {
        calls.push_back({tensor.data_ptr(), backwardOver});
        if (onCall)
            onCall(tensor);
        tensor.mul_(double(m_worldSize));
        return std::make_unique<Done>();
    }

private:
    int m_worldSize;
};

at::Tensor leaf(std::vector<float> values)
{
    return at::tensor(values, at::TensorOptions().dtype(at::kFloat)).set_requires_grad(true);
}

// The bucket index of each recorded call: a bucket's flat tensor starts with the gradient of
// its first parameter.
std::vector<int> bucketOrder(const RecordingCommunicator& comm, const GradientSync& sync, const std::vector<at::Tensor>& parameters)
{
    std::map<const void*, int> bucketAt;
    const auto layout = sync.bucketLayout();
    for (size_t b = 0; b < layout.size(); ++b)
        bucketAt[parameters[layout[b].front()].grad().data_ptr()] = int(b);
    std::vector<int> order;
    for (const auto& call : comm.calls)
        order.push_back(bucketAt.count(call.data) ? bucketAt.at(call.data) : -1);
    return order;
}

// Tiny buckets: every parameter gets its own (a parameter larger than the cap always does).
constexpr double kOneParameterPerBucket = 1e-9;

}  // namespace

class GradientSyncTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bucketsFollowReverseRegistrationCapAndType();
    void gradientsAreViewsIntoTheirBucket();
    void bucketsReadyInReverseOrderAreLaunchedInBucketOrder();
    void bucketsReadyInOrderAreLaunchedDuringBackward();
    void unusedParameterHoldsBackTheBucketsAfterIt();
    void overlapOffLaunchesEverythingAtFinish();
    void gradientsAndFiguresAreAveragedOverRanks();
    void accumulationSynchronisesOnlyTheLastMicroBatch();
};

void GradientSyncTest::bucketsFollowReverseRegistrationCapAndType()
{
    RecordingCommunicator comm(2);
    // 400 B, 1200 B, 80 B (double), 200 B; a cap of 1000 B.
    std::vector<at::Tensor> parameters{at::zeros({100}).set_requires_grad(true), at::zeros({300}).set_requires_grad(true),
                                       at::zeros({10}, at::TensorOptions().dtype(at::kDouble)).set_requires_grad(true),
                                       at::zeros({50}).set_requires_grad(true)};
    GradientSync sync(parameters, comm, 1000.0 / (1024.0 * 1024.0), true);
    // Reverse order: 3 alone (the double 2 changes type), 1 is over the cap alone, 0 does not
    // fit beside it.
    QCOMPARE(sync.bucketLayout(), (std::vector<std::vector<size_t>>{{3}, {2}, {1}, {0}}));

    GradientSync together(parameters, comm, 25.0, true);
    QCOMPARE(together.bucketLayout(), (std::vector<std::vector<size_t>>{{3}, {2}, {1, 0}}));
}

void GradientSyncTest::gradientsAreViewsIntoTheirBucket()
{
    RecordingCommunicator comm(2);
    std::vector<at::Tensor> parameters{at::zeros({2, 3}).set_requires_grad(true), at::zeros({4}).set_requires_grad(true)};
    GradientSync sync(parameters, comm, 25.0, true);
    QCOMPARE(sync.bucketLayout(), (std::vector<std::vector<size_t>>{{1, 0}}));
    // Parameter 1 first, then parameter 0 right behind it in the same flat buffer.
    const auto* first = static_cast<const float*>(parameters[1].grad().data_ptr());
    QCOMPARE(static_cast<const float*>(parameters[0].grad().data_ptr()), first + 4);
    QCOMPARE(parameters[0].grad().sizes(), parameters[0].sizes());
}

void GradientSyncTest::bucketsReadyInReverseOrderAreLaunchedInBucketOrder()
{
    // Buckets: 0 = {c}, 1 = {b}, 2 = {a}. Forward uses c first and a last, so backward
    // produces a's gradient first: bucket 2 fills first, bucket 0 last. Launched as each
    // filled, ranks whose readiness order differs would issue different collectives at the
    // same position; in order, every rank issues 0, 1, 2.
    RecordingCommunicator comm(2);
    const at::Tensor a = leaf({2}), b = leaf({3}), c = leaf({5});
    std::vector<at::Tensor> parameters{a, b, c};
    GradientSync sync(parameters, comm, kOneParameterPerBucket, true);
    QCOMPARE(sync.bucketLayout(), (std::vector<std::vector<size_t>>{{2}, {1}, {0}}));

    std::vector<int> readiness;
    comm.onCall = [&](const at::Tensor&) {
        // When the first bucket goes out, every gradient has already arrived: the ones
        // ready before it had to wait for it.
        readiness.push_back(int((a.grad() != 0).item<bool>()) + int((b.grad() != 0).item<bool>()));
    };
    sync.zeroGradients();
    sync.prepare(true);
    const at::Tensor x = at::tensor({7.0f});
    (a * (b * (c * x))).sum().backward();
    comm.backwardOver = true;
    sync.finish();

    QCOMPARE(bucketOrder(comm, sync, parameters), (std::vector<int>{0, 1, 2}));
    for (const auto& call : comm.calls)
        QVERIFY2(!call.afterBackward, "every bucket was complete during backward and should have gone out then");
    QCOMPARE(readiness.front(), 2);
}

void GradientSyncTest::bucketsReadyInOrderAreLaunchedDuringBackward()
{
    // Forward uses a first and c last: c's gradient (bucket 0) arrives first. Each bucket
    // goes out as soon as it is complete, before the later gradients exist (overlap).
    RecordingCommunicator comm(2);
    const at::Tensor a = leaf({2}), b = leaf({3}), c = leaf({5});
    std::vector<at::Tensor> parameters{a, b, c};
    GradientSync sync(parameters, comm, kOneParameterPerBucket, true);
    std::vector<bool> laterGradientPresent;
    comm.onCall = [&](const at::Tensor&) { laterGradientPresent.push_back((a.grad() != 0).item<bool>()); };
    sync.zeroGradients();
    sync.prepare(true);
    (c * (b * (a * at::tensor({7.0f})))).sum().backward();
    comm.backwardOver = true;
    sync.finish();

    QCOMPARE(bucketOrder(comm, sync, parameters), (std::vector<int>{0, 1, 2}));
    QCOMPARE(laterGradientPresent, (std::vector<bool>{false, false, true}));
    for (const auto& call : comm.calls)
        QVERIFY(!call.afterBackward);
}

void GradientSyncTest::unusedParameterHoldsBackTheBucketsAfterIt()
{
    // b gets no gradient this step: its bucket (1) never fills during backward, so bucket 2,
    // complete long before, must wait for finish(), which sends 1 (zeros) and then 2.
    RecordingCommunicator comm(2);
    const at::Tensor a = leaf({2}), b = leaf({3}), c = leaf({5});
    std::vector<at::Tensor> parameters{a, b, c};
    GradientSync sync(parameters, comm, kOneParameterPerBucket, true);
    sync.zeroGradients();
    sync.prepare(true);
    (a * (c * at::tensor({7.0f}))).sum().backward();
    comm.backwardOver = true;
    sync.finish();

    QCOMPARE(bucketOrder(comm, sync, parameters), (std::vector<int>{0, 1, 2}));
    QCOMPARE(comm.calls[0].afterBackward, false);
    QCOMPARE(comm.calls[1].afterBackward, true);
    QCOMPARE(comm.calls[2].afterBackward, true);
    QCOMPARE(b.grad().item<float>(), 0.0f);
    QCOMPARE(a.grad().item<float>(), 35.0f);
}

void GradientSyncTest::overlapOffLaunchesEverythingAtFinish()
{
    RecordingCommunicator comm(2);
    const at::Tensor a = leaf({2}), b = leaf({3}), c = leaf({5});
    std::vector<at::Tensor> parameters{a, b, c};
    GradientSync sync(parameters, comm, kOneParameterPerBucket, false);
    sync.zeroGradients();
    sync.prepare(true);
    (c * (b * (a * at::tensor({7.0f})))).sum().backward();
    QVERIFY(comm.calls.empty());
    comm.backwardOver = true;
    sync.finish();
    QCOMPARE(bucketOrder(comm, sync, parameters), (std::vector<int>{0, 1, 2}));
}

void GradientSyncTest::gradientsAndFiguresAreAveragedOverRanks()
{
    // Every rank divides by K before the sum (here K = 4 ranks with the same gradient), so the
    // result is the average, the gradient itself; not dividing would give 4 times it.
    constexpr int K = 4;
    RecordingCommunicator comm(K);
    const at::Tensor w = leaf({1, -2, 3}), v = leaf({0.5f});
    std::vector<at::Tensor> parameters{w, v};
    GradientSync sync(parameters, comm, 25.0, true);
    std::vector<double> handedOver;
    comm.onCall = [&](const at::Tensor& flat) {
        const at::Tensor copy = flat.to(at::kDouble);
        handedOver.assign(copy.data_ptr<double>(), copy.data_ptr<double>() + copy.numel());
    };
    const at::Tensor x = at::tensor({1.0f, 2.0f, 3.0f});
    sync.zeroGradients();
    sync.setFigures({at::tensor(6.0), at::tensor(3.0), 8.0});
    sync.prepare(true);
    ((w * x).sum() * v).backward();  // dL/dw = v x = (0.5, 1, 1.5), dL/dv = w.x = 6
    const at::Tensor figures = sync.finish();

    const std::vector<float> gw(w.grad().data_ptr<float>(), w.grad().data_ptr<float>() + 3);
    QCOMPARE(gw, (std::vector<float>{0.5f, 1.0f, 1.5f}));
    QCOMPARE(v.grad().item<float>(), 6.0f);
    // The bucket as the communicator got it: v's gradient, w's, the local squared norm, the
    // loss sum, correct count and samples, all divided by K.
    const double squaredNorm = 36.0 + 0.25 + 1.0 + 2.25;
    const std::vector<double> expected{6.0 / K, 0.5 / K, 1.0 / K, 1.5 / K, squaredNorm / K, 6.0 / K, 3.0 / K, 8.0 / K};
    QCOMPARE(handedOver.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i)
        QVERIFY2(std::abs(handedOver[i] - expected[i]) < 1e-6, qPrintable(QStringLiteral("element %1: %2").arg(i).arg(handedOver[i])));

    QCOMPARE(figures.numel(), int64_t(kSyncFigureCount));
    const at::Tensor read = figures.to(at::kCPU);
    const double* f = read.data_ptr<double>();
    QVERIFY(std::abs(f[kLocalSquaredNorm] - squaredNorm) < 1e-5);
    QVERIFY(std::abs(f[kGlobalSquaredNorm] - squaredNorm) < 1e-5);
    QVERIFY(std::abs(f[kGlobalLossSum] - 6.0 * K) < 1e-5);
    QVERIFY(std::abs(f[kGlobalCorrect] - 3.0 * K) < 1e-5);
    QCOMPARE(f[kGlobalSamples], 8.0 * K);
}

void GradientSyncTest::accumulationSynchronisesOnlyTheLastMicroBatch()
{
    RecordingCommunicator comm(2);
    const at::Tensor a = leaf({2}), b = leaf({3});
    std::vector<at::Tensor> parameters{a, b};
    GradientSync sync(parameters, comm, kOneParameterPerBucket, true);
    sync.zeroGradients();
    // Micro-batch 1 (no_sync): gradients accumulate, nothing is sent.
    sync.prepare(false);
    (a * b * 1.0).sum().backward();  // da = 3, db = 2
    QVERIFY(comm.calls.empty());
    // Micro-batch 2 synchronises what both left.
    sync.prepare(true);
    (a * b * 10.0).sum().backward();  // da = 30, db = 20
    QCOMPARE(int(comm.calls.size()), 2);
    comm.backwardOver = true;
    sync.finish();
    QCOMPARE(a.grad().item<float>(), 33.0f);
    QCOMPARE(b.grad().item<float>(), 22.0f);

    // The next step starts from zero.
    comm.calls.clear();
    sync.zeroGradients();
    sync.prepare(true);
    (a * b).sum().backward();
    sync.finish();
    QCOMPARE(a.grad().item<float>(), 3.0f);
    QCOMPARE(int(comm.calls.size()), 2);
}

QTEST_APPLESS_MAIN(GradientSyncTest)
#include "tst_gradient_sync.moc"
