// SPDX-License-Identifier: GPL-3.0-or-later
#include "nccl_communicator.hpp"

#include "core/key_names.hpp"
#include "cuda_check.hpp"
#include "worker_identity.hpp"

#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <nccl.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

static_assert(NCCL_VERSION_CODE >= NCCL_VERSION(2, 14, 0),
              "non-blocking NCCL communicators need NCCL 2.14 or later (engine/CMakeLists.txt checks it)");

namespace ddplab {
namespace {

ncclDataType_t ncclType(const at::Tensor& tensor)
{
    switch (tensor.scalar_type()) {
    case at::kFloat: return ncclFloat32;
    case at::kDouble: return ncclFloat64;
    case at::kHalf: return ncclFloat16;
    case at::kBFloat16: return ncclBfloat16;
    case at::kLong: return ncclInt64;
    case at::kInt: return ncclInt32;
    default: throw std::runtime_error("NCCL all-reduce: unsupported tensor type " + std::string(c10::toString(tensor.scalar_type())));
    }
}

void requireCuda(const at::Tensor& tensor)
{
    if (!tensor.is_cuda() || !tensor.is_contiguous())
        throw std::runtime_error("NCCL moves contiguous GPU tensors only; use backend gloo for CPU ranks");
}

// LibTorch queues the engine's kernels on the device's default stream (the engine never sets
// another): the events that order NCCL's stream after them, and them after NCCL, are recorded
// and waited for there (cudaStreamLegacy).
void requireDefaultStream(const c10::Device& device)
{
    if (c10::impl::getDeviceGuardImpl(c10::DeviceType::CUDA)->getStream(device).id() != 0)
        throw std::logic_error("NCCL orders its stream after LibTorch's default stream, but LibTorch's current stream on " +
                               device.str() + " is another one");
}

// The calling thread's current device is the communicator's while this lives: NCCL and the
// CUDA calls here act on the current device, and the gradient hooks that start all-reduces run
// on autograd's own threads.
class OnDevice {
public:
    explicit OnDevice(int device)
    {
        if (cudaGetDevice(&m_previous) == cudaSuccess && m_previous != device)
            DDPLAB_CUDA_CHECK(cudaSetDevice(device));
        else
            m_previous = -1;
    }
    ~OnDevice()
    {
        if (m_previous >= 0)
            cudaSetDevice(m_previous);
    }
    OnDevice(const OnDevice&) = delete;
    OnDevice& operator=(const OnDevice&) = delete;

private:
    int m_previous = -1;
};

// Between two queries of an event or of NCCL's state: short pauses first (an all-reduce often
// ends within microseconds of being waited for), then up to 2 ms, as ProcessGroupNCCL's
// blocking wait sleeps between its queries.
class Backoff {
public:
    void pause()
    {
        std::this_thread::sleep_for(m_pause);
        m_pause = std::min(m_pause * 2, std::chrono::microseconds(2000));
    }

private:
    std::chrono::microseconds m_pause{10};
};

class NcclCommunicator;

class NcclPending final : public PendingCollective {
public:
    NcclPending(NcclCommunicator& comm, at::Tensor tensor, cudaEvent_t done, CollectiveDeadline deadline)
        : m_comm(comm), m_tensor(std::move(tensor)), m_done(done), m_deadline(std::move(deadline))
    {
    }
    ~NcclPending() override { cudaEventDestroy(m_done); }  // destroyed once it completes, if it has not
    void wait() override;

private:
    NcclCommunicator& m_comm;
    at::Tensor m_tensor;  // NCCL's stream uses its memory until the collective is done
    cudaEvent_t m_done;
    CollectiveDeadline m_deadline;
};

class NcclCommunicator final : public Communicator {
public:
    NcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store, const WorkerIdentity& identity, const c10::Device& device)
        : m_rank(identity.rank), m_worldSize(identity.worldSize), m_device(device.index()), m_timeout(identity.rendezvous.timeout)
    {
        requireDefaultStream(device);
        OnDevice on(m_device);
        // Rank 0 creates the NCCL id; the store carries it to the others.
        ncclUniqueId id;
        const std::string key = "ddplab/nccl_unique_id";
        if (m_rank == 0) {
            settle(ncclGetUniqueId(&id), deadline("NCCL's unique id (ncclGetUniqueId)"));
            const auto* bytes = reinterpret_cast<const uint8_t*>(&id);
            store->set(key, std::vector<uint8_t>(bytes, bytes + sizeof(id)));
        } else {
            const std::vector<uint8_t> bytes = store->get(key);
            if (bytes.size() != sizeof(id))
                throw std::runtime_error("NCCL rendezvous: the unique id in the store has the wrong size");
            std::memcpy(&id, bytes.data(), sizeof(id));
        }
        // Non-blocking: every call returns at once, and its progress is polled against the
        // deadline, so a peer that never arrives cannot hold this rank forever.
        ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
        config.blocking = 0;
        settle(ncclCommInitRankConfig(&m_comm, m_worldSize, id, m_rank, &config), deadline("NCCL's set-up (ncclCommInitRankConfig)"));
        DDPLAB_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
        DDPLAB_CUDA_CHECK(cudaMalloc(&m_barrierBuffer, sizeof(float)));
        DDPLAB_CUDA_CHECK(cudaMemset(m_barrierBuffer, 0, sizeof(float)));
    }

    ~NcclCommunicator() override
    {
        cudaSetDevice(m_device);  // the rank's current device anyway; nothing here may throw
        if (m_comm)
            shutDown();
        if (m_stream)
            cudaStreamDestroy(m_stream);
        if (m_barrierBuffer)
            cudaFree(m_barrierBuffer);
    }

    std::string backend() const override { return choice::backend::kNccl; }
    int rank() const override { return m_rank; }
    int worldSize() const override { return m_worldSize; }

    std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& tensor) override
    {
        requireCuda(tensor);
        CollectiveDeadline limit = deadline("all-reduce #" + std::to_string(++m_issued) + " (nccl)");
        void* data = tensor.data_ptr();
        cudaEvent_t done = enqueue(
            [&](cudaStream_t stream) {
                return ncclAllReduce(data, data, size_t(tensor.numel()), ncclType(tensor), ncclSum, m_comm, stream);
            },
            limit);
        return std::make_unique<NcclPending>(*this, tensor, done, std::move(limit));
    }

    void broadcast(at::Tensor& tensor, int root) override
    {
        requireCuda(tensor);
        CollectiveDeadline limit = deadline("broadcast #" + std::to_string(++m_issued) + " (nccl)");
        void* data = tensor.data_ptr();
        cudaEvent_t done = enqueue(
            [&](cudaStream_t stream) {
                return ncclBroadcast(data, data, size_t(tensor.numel()), ncclType(tensor), root, m_comm, stream);
            },
            limit);
        NcclPending(*this, tensor, done, std::move(limit)).wait();
    }

    void barrier() override
    {
        CollectiveDeadline limit = deadline("barrier #" + std::to_string(++m_issued) + " (nccl)");
        cudaEvent_t done = enqueue(
            [&](cudaStream_t stream) {
                return ncclAllReduce(m_barrierBuffer, m_barrierBuffer, 1, ncclFloat32, ncclSum, m_comm, stream);
            },
            limit);
        NcclPending(*this, at::Tensor(), done, std::move(limit)).wait();
    }

    // Polls the collective's event and NCCL's own error state until it is done, fails, or its
    // deadline passes; then the default stream waits for it (ProcessGroupNCCL's pattern).
    void waitFor(cudaEvent_t done, const CollectiveDeadline& limit)
    {
        requireUsable(limit);
        OnDevice on(m_device);
        Backoff backoff;
        while (true) {
            const cudaError_t state = cudaEventQuery(done);
            if (state == cudaSuccess)
                break;
            if (state != cudaErrorNotReady) {
                abort();
                DDPLAB_CUDA_CHECK(state);
            }
            ncclResult_t nccl = ncclSuccess;
            ncclCommGetAsyncError(m_comm, &nccl);
            if (nccl != ncclSuccess && nccl != ncclInProgress)
                fail(nccl, limit);
            if (limit.passed()) {
                abort();
                throw limit.overdue("the NCCL communicator was aborted (ncclCommAbort)");
            }
            backoff.pause();
        }
        DDPLAB_CUDA_CHECK(cudaStreamWaitEvent(cudaStreamLegacy, done, 0));
        --m_inFlight;
    }

private:
    CollectiveDeadline deadline(const std::string& what) const { return CollectiveDeadline(m_timeout, m_rank, what); }

    void requireUsable(const CollectiveDeadline& limit) const
    {
        if (!m_comm)
            throw std::runtime_error("rank " + std::to_string(m_rank) + ": " + limit.what() +
                                     ": the NCCL communicator was aborted after an earlier failure");
    }

    // Queues one NCCL call on NCCL's stream after what the default stream has queued so far,
    // and returns the event that marks its end there.
    template <typename Call>
    cudaEvent_t enqueue(const Call& call, const CollectiveDeadline& limit)
    {
        requireUsable(limit);
        OnDevice on(m_device);
        cudaEvent_t ready = nullptr, done = nullptr;
        DDPLAB_CUDA_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
        DDPLAB_CUDA_CHECK(cudaEventRecord(ready, cudaStreamLegacy));
        DDPLAB_CUDA_CHECK(cudaStreamWaitEvent(m_stream, ready, 0));
        cudaEventDestroy(ready);  // the wait holds what it needs
        settle(call(m_stream), limit);
        DDPLAB_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
        DDPLAB_CUDA_CHECK(cudaEventRecord(done, m_stream));
        ++m_inFlight;
        return done;
    }

    // A non-blocking call returns ncclInProgress while NCCL is still at it (setting up,
    // connecting to peers): until ncclCommGetAsyncError says it is done, or the deadline passes.
    void settle(ncclResult_t result, const CollectiveDeadline& limit)
    {
        Backoff backoff;
        while (result == ncclInProgress && m_comm) {
            if (limit.passed()) {
                abort();
                throw limit.overdue("the NCCL communicator was aborted (ncclCommAbort)");
            }
            backoff.pause();
            ncclCommGetAsyncError(m_comm, &result);
        }
        if (result != ncclSuccess)
            fail(result, limit);
    }

    [[noreturn]] void fail(ncclResult_t result, const CollectiveDeadline& limit)
    {
        std::string message = "rank " + std::to_string(m_rank) + ": NCCL failed in " + limit.what() + ": " + ncclGetErrorString(result);
        if (m_comm) {
            const char* detail = ncclGetLastError(m_comm);
            if (detail && *detail)
                message += std::string(" (") + detail + ")";
        }
        abort();
        throw std::runtime_error(message + "; the NCCL communicator was aborted");
    }

    void abort()
    {
        if (m_comm)
            ncclCommAbort(m_comm);
        m_comm = nullptr;
    }

    // Finalize and destroy only after a clean finish: with a collective in flight (a wait
    // that threw, a pending collective dropped unwaited) that can block, so abort instead.
    void shutDown() noexcept
    {
        if (m_inFlight != 0) {
            abort();
            return;
        }
        try {
            settle(ncclCommFinalize(m_comm), deadline("NCCL's shut-down (ncclCommFinalize)"));
            ncclCommDestroy(m_comm);
            m_comm = nullptr;
        } catch (const std::exception&) {
            abort();  // already, by settle(); the process is ending anyway
        }
    }

    int m_rank;
    int m_worldSize;
    int m_device;
    std::chrono::milliseconds m_timeout;
    ncclComm_t m_comm = nullptr;
    cudaStream_t m_stream = nullptr;
    void* m_barrierBuffer = nullptr;
    int64_t m_issued = 0;             // collectives begun: peers number theirs alike
    std::atomic<int> m_inFlight{0};   // queued and not yet waited for
};

void NcclPending::wait()
{
    m_comm.waitFor(m_done, m_deadline);
}

}  // namespace

std::unique_ptr<Communicator> makeNcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const WorkerIdentity& identity, const c10::Device& device)
{
    if (!device.is_cuda() || !device.has_index())
        throw std::logic_error("the NCCL communicator needs the rank's CUDA device, got " + device.str());
    return std::make_unique<NcclCommunicator>(store, identity, device);
}

}  // namespace ddplab
