// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// DDP's gradient synchronisation: parameters grouped into buckets of bucket_cap_mb in reverse
// registration order (the order backward usually produces gradients). Each parameter's .grad
// is a view into its bucket (DDP's gradient_as_bucket_view), so autograd accumulates straight
// into the flat buffer that is all-reduced: no copy in, no copy out. A hook after each
// parameter's gradient accumulation marks it ready; buckets are all-reduced asynchronously,
// overlapping the rest of backward, and strictly in bucket order, as DDP's
// Reducer::mark_bucket_ready does: a bucket that fills early waits for the ones before it.
// Every rank therefore issues the same collectives in the same order whatever order its
// backward fills the buckets (with data-dependent or unused parameters it may differ between
// ranks, and NCCL deadlocks when ranks disagree). Gradients are divided by the world size
// before the sum, as DDP does, so every rank ends with the average.
//
// The step's figures ride along in a few extra elements behind the gradients: each bucket
// carries the squared norm of its local gradient (for the noise-scale estimate), the last one
// also the batch's loss sum, correct count and sample count. They cost no extra round trip,
// and they stay on the device: finish() returns them as one small tensor, which the trainer
// reads with the rest of the step's figures, once per step.
//
// For batch-size-invariant Adam it also averages every rank's squared gradient
// (squared_gradients.hpp): one more all-reduce per bucket, right after the bucket's own, so
// the order stays the same on every rank.

#include "workload.hpp"

#include <ATen/core/Tensor.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace torch::autograd {
struct Node;
}

namespace ddplab {

class Communicator;
class PendingCollective;
class SquaredGradients;

// Why a run stops at parameters that got no gradient, named: the sentence the trainer and the
// inspection both say.
std::string missingGradientsMessage(const std::vector<std::string>& names);
// A model without one trained parameter: DDP refuses it, and so does the lab (inspect, run).
std::string nothingTrainsMessage();

// The elements of the tensor finish() returns (double, on the gradients' device).
enum SyncFigure : int64_t {
    kLocalSquaredNorm,   // |g_local|^2 before the sum, averaged over ranks
    kGlobalSquaredNorm,  // |g_avg|^2 of the averaged gradient
    kGlobalLossSum,      // every rank's figures of the step, summed
    kGlobalCorrect,
    kGlobalSamples,
    kSyncFigureCount
};

class GradientSync {
public:
    // `squaredGradients`: also average each rank's and micro-batch's squared gradient.
    GradientSync(std::vector<at::Tensor> parameters, Communicator& comm, double bucketCapMb, bool overlap,
                 bool squaredGradients = false);
    ~GradientSync();
    GradientSync(const GradientSync&) = delete;
    GradientSync& operator=(const GradientSync&) = delete;

    // Before the first micro-batch of a step: zero the gradients (the buckets).
    void zeroGradients();

    // Before each micro-batch's backward. `synchronize` is false for the inner micro-steps
    // of gradient accumulation (DDP's no_sync): gradients then only accumulate locally.
    void prepare(bool synchronize);

    // Before the synchronising backward: this rank's figures for the step (device tensors;
    // copied on the device, never read here).
    void setFigures(const BatchResult& local);

    // After the synchronising backward: the parameters (indices) that got no gradient in it.
    // DDP (without find_unused_parameters) stops at such a parameter; so does the trainer.
    std::vector<size_t> missingGradients() const;

    // After the synchronising backward: all-reduces whatever is left, in bucket order, and
    // waits; every parameter's .grad then holds the average over ranks. Returns the
    // SyncFigure elements, still on the device.
    at::Tensor finish();

    std::vector<std::vector<size_t>> bucketLayout() const;  // parameter indices per bucket

    // With squaredGradients: per parameter, the mean over ranks and micro-batches of the squared
    // gradient, filled by finish(); empty otherwise.
    std::vector<at::Tensor> meanSquaredGradients() const;

private:
    struct Bucket {
        std::vector<size_t> parameters;  // indices into m_parameters, in filling order
        at::Tensor flat;                 // their gradients back to back, then the figures
        int64_t gradientElements = 0;
        size_t ready = 0;
        std::vector<bool> arrived;
        std::unique_ptr<PendingCollective> pending;
    };
    struct Slot {
        size_t bucket;
        size_t position;
    };

    void onGradientAccumulated(size_t parameter);
    void launch(Bucket& bucket);
    std::vector<at::Tensor> bucketGradients() const;

    std::vector<at::Tensor> m_parameters;
    std::vector<Slot> m_slots;
    std::vector<Bucket> m_buckets;
    size_t m_nextBucket = 0;  // the next bucket to all-reduce: every one before it is under way
    std::mutex m_readyMutex;  // hooks of one backward may run on more than one autograd thread
    std::vector<std::shared_ptr<torch::autograd::Node>> m_accumulators;  // kept alive: they hold the hooks
    std::vector<uintptr_t> m_hookKeys;
    std::unique_ptr<SquaredGradients> m_squares;  // batch-size-invariant Adam only
    Communicator& m_comm;
    bool m_synchronizing = false;
    bool m_overlap = true;
    bool m_trackNorm = false;
};

}  // namespace ddplab
