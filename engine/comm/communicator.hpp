// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The collectives the trainer needs, behind one interface with a Gloo and an NCCL
// implementation (one backend factory: connect()).

#include "core/config.hpp"

#include <ATen/core/Tensor.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>

namespace ddplab {

struct WorkerIdentity;

// A collective in flight; wait() blocks until it finished and throws if it failed or took
// longer than its CollectiveDeadline allows.
class PendingCollective {
public:
    virtual ~PendingCollective() = default;
    virtual void wait() = 0;
};

// How long every collective may take (collective_timeout, counted from when the collective was
// started, as ProcessGroupNCCL counts), and what a rank says when one takes longer: the same
// for every backend. A backend waits until deadline(), then abandons the collective (NCCL
// aborts its communicator) and throws overdue().
class CollectiveDeadline {
public:
    CollectiveDeadline(std::chrono::milliseconds limit, int rank, std::string what)
        : m_start(std::chrono::steady_clock::now()), m_limit(limit), m_rank(rank), m_what(std::move(what))
    {
    }
    std::chrono::steady_clock::time_point deadline() const { return m_start + m_limit; }
    std::chrono::milliseconds remaining() const;
    bool passed() const { return std::chrono::steady_clock::now() >= deadline(); }
    std::runtime_error overdue(const std::string& consequence) const;
    const std::string& what() const { return m_what; }

private:
    std::chrono::steady_clock::time_point m_start;
    std::chrono::milliseconds m_limit;
    int m_rank;
    std::string m_what;  // "all-reduce #12 (nccl)"
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

// Rendezvous through the worker's store, then a Gloo or NCCL group on `device` (the rank's one
// device, computed once by the worker). `backend` is already resolved (never Auto); every
// collective may take `identity.rendezvous.timeout`.
std::unique_ptr<Communicator> connect(BackendKind backend, const WorkerIdentity& identity, const c10::Device& device);

bool ncclBuilt();

}  // namespace ddplab
