#include "gloo_communicator.hpp"

#include "core/key_names.hpp"
#include "worker_identity.hpp"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <cstdlib>

namespace ddplab {
namespace {

// Gloo's worker threads per process group: one runs a bucket's all-reduce while the next
// bucket is being filled; more only compete for the cores the ranks already share.
constexpr int kGlooThreads = 2;

class GlooPending final : public PendingCollective {
public:
    explicit GlooPending(c10::intrusive_ptr<c10d::Work> work) : m_work(std::move(work)) {}
    void wait() override { m_work->wait(); }

private:
    c10::intrusive_ptr<c10d::Work> m_work;
};

class GlooCommunicator final : public Communicator {
public:
    GlooCommunicator(const c10::intrusive_ptr<c10d::Store>& store, const WorkerIdentity& identity)
    {
        auto options = c10d::ProcessGroupGloo::Options::create(identity.rendezvous.timeout);
        options->devices.push_back(makeDevice(identity));
        options->threads = kGlooThreads;
        m_group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, identity.rank, identity.worldSize, options);
    }

    std::string backend() const override { return choice::backend::kGloo; }
    int rank() const override { return m_group->getRank(); }
    int worldSize() const override { return m_group->getSize(); }

    std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& tensor) override
    {
        std::vector<at::Tensor> tensors{tensor};
        return std::make_unique<GlooPending>(m_group->allreduce(tensors));
    }

    void broadcast(at::Tensor& tensor, int root) override
    {
        if (worldSize() == 1)
            return;
        std::vector<at::Tensor> tensors{tensor};
        c10d::BroadcastOptions options;
        options.rootRank = root;
        m_group->broadcast(tensors, options)->wait();
    }

    void barrier() override { m_group->barrier()->wait(); }

private:
    static std::shared_ptr<::gloo::transport::Device> makeDevice(const WorkerIdentity& identity)
    {
        // Local runs listen on loopback only. Multi-node runs need a routable interface:
        // GLOO_SOCKET_IFNAME names it, as it does for torch.distributed.
        if (identity.rendezvous.loopbackOnly)
            return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
        if (const char* interface = std::getenv("GLOO_SOCKET_IFNAME"))
            return c10d::ProcessGroupGloo::createDeviceForInterface(interface);
        return c10d::ProcessGroupGloo::createDefaultDevice();
    }

    c10::intrusive_ptr<c10d::ProcessGroupGloo> m_group;
};

}  // namespace

std::unique_ptr<Communicator> makeGlooCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const WorkerIdentity& identity)
{
    return std::make_unique<GlooCommunicator>(store, identity);
}

}  // namespace ddplab
