#include "communicator.hpp"

#include "gloo_communicator.hpp"
#include "store.hpp"
#include "worker_identity.hpp"

#ifdef DDPLAB_WITH_NCCL
#include "nccl_communicator.hpp"
#endif

#include <stdexcept>

namespace ddplab {
namespace {

// A collective over a single rank: the result is the input, nothing to wait for (and no
// hand-off to a communication thread in the middle of backward).
class AlreadyDone final : public PendingCollective {
public:
    void wait() override {}
};

}  // namespace

std::unique_ptr<PendingCollective> Communicator::allReduceSum(at::Tensor& tensor)
{
    if (worldSize() == 1)
        return std::make_unique<AlreadyDone>();
    if (m_collectivesBegun)
        m_collectivesBegun->fetch_add(1, std::memory_order_relaxed);
    return startAllReduceSum(tensor);
}

bool ncclBuilt()
{
#ifdef DDPLAB_WITH_NCCL
    return true;
#else
    return false;
#endif
}

std::unique_ptr<Communicator> connect(BackendKind backend, const WorkerIdentity& identity)
{
    const c10::intrusive_ptr<c10d::Store> store = openStore(identity);
    std::unique_ptr<Communicator> communicator;
    switch (backend) {
    case BackendKind::Gloo:
        communicator = makeGlooCommunicator(store, identity);
        break;
    case BackendKind::Nccl:
#ifdef DDPLAB_WITH_NCCL
        communicator = makeNcclCommunicator(store, identity);
        break;
#else
        throw std::runtime_error("backend nccl: this ddplab-engine was built without NCCL (configure with "
                                 "-DDDPLAB_WITH_NCCL=ON and the CUDA toolkit); use backend gloo");
#endif
    case BackendKind::Auto:
        throw std::logic_error("connect() needs a resolved backend, not auto");
    }
    communicator->countCollectivesIn(identity.collectivesBegun);
    return communicator;
}

}  // namespace ddplab
