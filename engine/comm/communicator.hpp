#pragma once
// The collectives the trainer needs, behind one interface with a Gloo and an NCCL
// implementation (one backend factory: connect()).

#include "core/config.hpp"

#include <ATen/core/Tensor.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

namespace ddplab {

struct WorkerIdentity;

// A collective in flight; wait() blocks until it finished and throws if it failed.
class PendingCollective {
public:
    virtual ~PendingCollective() = default;
    virtual void wait() = 0;
};

class Communicator {
public:
    virtual ~Communicator() = default;

    virtual std::string backend() const = 0;  // "gloo" or "nccl"
    virtual int rank() const = 0;
    virtual int worldSize() const = 0;

    // Sums `tensor` over all ranks in place; returns at once (overlap with backward). A sum
    // over a single rank is the tensor itself: nothing is sent, nothing waited for.
    std::unique_ptr<PendingCollective> allReduceSum(at::Tensor& tensor);
    virtual void broadcast(at::Tensor& tensor, int root) = 0;
    virtual void barrier() = 0;

    void allReduceSumNow(at::Tensor& tensor) { allReduceSum(tensor)->wait(); }

    // Counts every collective this rank begins into `counter` (the launcher's RankProgress):
    // when peers time out, the rank that began fewer is the one they waited for.
    void countCollectivesIn(std::atomic<int64_t>* counter) { m_collectivesBegun = counter; }

protected:
    virtual std::unique_ptr<PendingCollective> startAllReduceSum(at::Tensor& tensor) = 0;  // world size > 1

private:
    std::atomic<int64_t>* m_collectivesBegun = nullptr;
};

// Rendezvous through the worker's store, then a Gloo or NCCL group. `backend` is already
// resolved (never Auto).
std::unique_ptr<Communicator> connect(BackendKind backend, const WorkerIdentity& identity);

bool ncclBuilt();

}  // namespace ddplab
