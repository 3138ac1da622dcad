#include "nccl_communicator.hpp"

#include "core/key_names.hpp"
#include "worker_identity.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace ddplab {
namespace {

// Check macros carry the call and the place, so a failing rank says what failed where.
#define DDPLAB_NCCL_CHECK(call) checkNccl((call), #call, __FILE__, __LINE__)
#define DDPLAB_CUDA_CHECK(call) checkCuda((call), #call, __FILE__, __LINE__)

void checkNccl(ncclResult_t result, const char* call, const char* file, int line)
{
    if (result != ncclSuccess)
        throw std::runtime_error(std::string("NCCL error in ") + call + " at " + file + ":" + std::to_string(line) +
                                 ": " + ncclGetErrorString(result));
}

void checkCuda(cudaError_t result, const char* call, const char* file, int line)
{
    if (result != cudaSuccess)
        throw std::runtime_error(std::string("CUDA error in ") + call + " at " + file + ":" + std::to_string(line) +
                                 ": " + cudaGetErrorString(result));
}

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

// LibTorch queues its kernels on the legacy default stream unless told otherwise; NCCL goes
// on the same stream so that it runs after the kernels that produced the gradients.
const cudaStream_t kTorchStream = nullptr;

class NcclPending final : public PendingCollective {
public:
    void wait() override { DDPLAB_CUDA_CHECK(cudaStreamSynchronize(kTorchStream)); }
};

class NcclCommunicator final : public Communicator {
public:
    NcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store, const WorkerIdentity& identity)
        : m_rank(identity.rank), m_worldSize(identity.worldSize)
    {
        DDPLAB_CUDA_CHECK(cudaSetDevice(identity.localRank));
        // Rank 0 creates the NCCL id; the store carries it to the others.
        ncclUniqueId id;
        const std::string key = "ddplab/nccl_unique_id";
        if (m_rank == 0) {
            DDPLAB_NCCL_CHECK(ncclGetUniqueId(&id));
            const auto* bytes = reinterpret_cast<const uint8_t*>(&id);
            store->set(key, std::vector<uint8_t>(bytes, bytes + sizeof(id)));
        } else {
            const std::vector<uint8_t> bytes = store->get(key);
            if (bytes.size() != sizeof(id))
                throw std::runtime_error("NCCL rendezvous: the unique id in the store has the wrong size");
            std::memcpy(&id, bytes.data(), sizeof(id));
        }
        DDPLAB_NCCL_CHECK(ncclCommInitRank(&m_comm, m_worldSize, id, m_rank));
        DDPLAB_CUDA_CHECK(cudaMalloc(&m_barrierBuffer, sizeof(float)));
    }

    ~NcclCommunicator() override
    {
        // Shut NCCL down before the process exits (its proxy threads otherwise race exit).
        if (m_comm)
            ncclCommDestroy(m_comm);
        if (m_barrierBuffer)
            cudaFree(m_barrierBuffer);
    }

    std::string backend() const override { return choice::backend::kNccl; }
    int rank() const override { return m_rank; }
    int worldSize() const override { return m_worldSize; }

    std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& tensor) override
    {
        requireCuda(tensor);
        DDPLAB_NCCL_CHECK(ncclAllReduce(tensor.data_ptr(), tensor.data_ptr(), size_t(tensor.numel()), ncclType(tensor),
                                        ncclSum, m_comm, kTorchStream));
        return std::make_unique<NcclPending>();
    }

    void broadcast(at::Tensor& tensor, int root) override
    {
        requireCuda(tensor);
        DDPLAB_NCCL_CHECK(ncclBroadcast(tensor.data_ptr(), tensor.data_ptr(), size_t(tensor.numel()), ncclType(tensor),
                                        root, m_comm, kTorchStream));
        DDPLAB_CUDA_CHECK(cudaStreamSynchronize(kTorchStream));
    }

    void barrier() override
    {
        DDPLAB_NCCL_CHECK(ncclAllReduce(m_barrierBuffer, m_barrierBuffer, 1, ncclFloat32, ncclSum, m_comm, kTorchStream));
        DDPLAB_CUDA_CHECK(cudaStreamSynchronize(kTorchStream));
    }

private:
    static void requireCuda(const at::Tensor& tensor)
    {
        if (!tensor.is_cuda() || !tensor.is_contiguous())
            throw std::runtime_error("NCCL moves contiguous GPU tensors only; use backend gloo for CPU ranks");
    }

    int m_rank;
    int m_worldSize;
    ncclComm_t m_comm = nullptr;
    void* m_barrierBuffer = nullptr;
};

}  // namespace

std::unique_ptr<Communicator> makeNcclCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const WorkerIdentity& identity)
{
    return std::make_unique<NcclCommunicator>(store, identity);
}

}  // namespace ddplab
