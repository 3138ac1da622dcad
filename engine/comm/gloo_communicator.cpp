// SPDX-License-Identifier: GPL-3.0-or-later
#include "gloo_communicator.hpp"

#include "core/key_names.hpp"
#include "worker_identity.hpp"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <algorithm>
#include <cstdlib>

namespace ddplab {
namespace {

// Gloo's worker threads per process group: one runs a bucket's all-reduce while the next
// bucket is being filled; more only compete for the cores the ranks already share.
constexpr int kGlooThreads = 2;

class GlooPending final : public PendingCollective {
public:
    GlooPending(c10::intrusive_ptr<c10d::Work> work, CollectiveDeadline deadline)
        : m_work(std::move(work)), m_deadline(std::move(deadline))
    {
    }

    void wait() override
    {
        try {
            // At least 1 ms: c10d reads a wait of 0 ms as no timeout at all.
            m_work->wait(std::max(m_deadline.remaining(), std::chrono::milliseconds(1)));
        } catch (const std::exception&) {
            // Still running: the deadline passed. Gloo's own timeout, counted from a little
            // later (when its thread takes the collective up), may have fired a moment after
            // it: past the deadline, this is the report either way.
            if (!m_work->isCompleted() || m_deadline.passed())
                throw m_deadline.overdue("this rank stops (a Gloo collective cannot be called off)");
            throw;  // it failed before: its own error (a peer's connection closed, ...)
        }
    }

private:
    c10::intrusive_ptr<c10d::Work> m_work;
    CollectiveDeadline m_deadline;
};

class GlooCommunicator final : public Communicator {
public:
    GlooCommunicator(const c10::intrusive_ptr<c10d::Store>& store, const WorkerIdentity& identity)
        : m_timeout(identity.rendezvous.timeout)
    {
        // Gloo's own timeout, the same: it ends Gloo's thread just after the deadline, so a
        // rank that gave up is not held at exit by a collective that will never finish.
        auto options = c10d::ProcessGroupGloo::Options::create(m_timeout);
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
        return std::make_unique<GlooPending>(m_group->allreduce(tensors), deadline("all-reduce"));
    }

    void broadcast(at::Tensor& tensor, int root) override
    {
        if (worldSize() == 1)
            return;
        std::vector<at::Tensor> tensors{tensor};
        c10d::BroadcastOptions options;
        options.rootRank = root;
        GlooPending(m_group->broadcast(tensors, options), deadline("broadcast")).wait();
    }

    void barrier() override { GlooPending(m_group->barrier(), deadline("barrier")).wait(); }

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

    CollectiveDeadline deadline(const std::string& kind)
    {
        return CollectiveDeadline(m_timeout, rank(), kind + " #" + std::to_string(++m_issued) + " (gloo)");
    }

    std::chrono::milliseconds m_timeout;
    int64_t m_issued = 0;  // collectives begun: peers number theirs alike, so messages can be matched
    c10::intrusive_ptr<c10d::ProcessGroupGloo> m_group;
};

}  // namespace

std::unique_ptr<Communicator> makeGlooCommunicator(const c10::intrusive_ptr<c10d::Store>& store,
                                                   const WorkerIdentity& identity)
{
    return std::make_unique<GlooCommunicator>(store, identity);
}

}  // namespace ddplab
