// SPDX-License-Identifier: GPL-3.0-or-later
#include "communicator.hpp"

#include "gloo_communicator.hpp"
#include "store.hpp"
#include "worker_identity.hpp"

#ifdef DDPLAB_WITH_NCCL
#include "nccl_communicator.hpp"
#endif

#include <algorithm>
#include <sstream>
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

std::chrono::milliseconds CollectiveDeadline::remaining() const
{
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline() - std::chrono::steady_clock::now());
    return std::max(left, std::chrono::milliseconds(0));
}

std::runtime_error CollectiveDeadline::overdue(const std::string& consequence) const
{
    const auto seconds = std::chrono::duration_cast<std::chrono::duration<double>>(m_limit).count();
    std::ostringstream text;
    text << "rank " << m_rank << " waited longer than collective_timeout (" << seconds << " s) for " << m_what
         << " to finish: a peer has stopped or died; " << consequence;
    return std::runtime_error(text.str());
}

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

std::unique_ptr<Communicator> connect(BackendKind backend, const WorkerIdentity& identity, const c10::Device& device)
{
    const c10::intrusive_ptr<c10d::Store> store = openStore(identity);
    std::unique_ptr<Communicator> communicator;
    switch (backend) {
    case BackendKind::Gloo:
        communicator = makeGlooCommunicator(store, identity);
        break;
    case BackendKind::Nccl:
#ifdef DDPLAB_WITH_NCCL
        communicator = makeNcclCommunicator(store, identity, device);
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
