#include "communicator.hpp"

#include "gloo_communicator.hpp"
#include "store.hpp"
#include "worker_identity.hpp"

#ifdef DDPLAB_WITH_NCCL
#include "nccl_communicator.hpp"
#endif

#include <stdexcept>

namespace ddplab {

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
    switch (backend) {
    case BackendKind::Gloo:
        return makeGlooCommunicator(store, identity);
    case BackendKind::Nccl:
#ifdef DDPLAB_WITH_NCCL
        return makeNcclCommunicator(store, identity);
#else
        throw std::runtime_error("backend nccl: this ddplab-engine was built without NCCL (configure with "
                                 "-DDDPLAB_WITH_NCCL=ON and the CUDA toolkit); use backend gloo");
#endif
    case BackendKind::Auto:
        break;
    }
    throw std::logic_error("connect() needs a resolved backend, not auto");
}

}  // namespace ddplab
