#pragma once
// DDP's gradient synchronisation: parameters grouped into buckets of bucket_cap_mb in reverse
// registration order (the order backward produces gradients). Each parameter's .grad is a
// view into its bucket (DDP's gradient_as_bucket_view), so autograd accumulates straight into
// the flat buffer that is all-reduced: no copy in, no copy out. A hook after each parameter's
// gradient accumulation marks it ready, and a bucket's all-reduce starts asynchronously the
// moment its last gradient arrives, overlapping the rest of backward. Gradients are divided by
// the world size before the sum, as DDP does, so every rank ends with the average.
//
// The step's figures ride along in a few extra elements behind the gradients: each bucket
// carries the squared norm of its local gradient (for the noise-scale estimate), the last one
// also the batch's loss sum, correct count and sample count. They cost no extra round trip.

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <vector>

namespace torch::autograd {
struct Node;
}

namespace ddplab {

class Communicator;
class PendingCollective;

// Why a run stops at parameters that got no gradient, named: the sentence the trainer and the
// inspection both say.
std::string missingGradientsMessage(const std::vector<std::string>& names);

// Sums over one rank's micro-batches of a step (loss summed over samples).
struct StepFigures {
    double lossSum = 0.0;
    double correct = 0.0;
    double samples = 0.0;
};

struct SyncResult {
    double waitMs = 0.0;             // time blocked on communication after backward returned
    double localSquaredNorm = 0.0;   // |g_local|^2 before the sum, averaged over ranks
    double globalSquaredNorm = 0.0;  // |g_avg|^2 of the averaged gradient
    StepFigures global;              // every rank's figures, summed
};

class GradientSync {
public:
    GradientSync(std::vector<at::Tensor> parameters, Communicator& comm, double bucketCapMb, bool overlap);
    ~GradientSync();
    GradientSync(const GradientSync&) = delete;
    GradientSync& operator=(const GradientSync&) = delete;

    // Before the first micro-batch of a step: zero the gradients (the buckets).
    void zeroGradients();

    // Before each micro-batch's backward. `synchronize` is false for the inner micro-steps
    // of gradient accumulation (DDP's no_sync): gradients then only accumulate locally.
    void prepare(bool synchronize);

    // Before the synchronising backward: this rank's figures for the step.
    void setFigures(const StepFigures& local);

    // After the synchronising backward: the parameters (indices) that got no gradient in it.
    // DDP (without find_unused_parameters) stops at such a parameter; so does the trainer.
    std::vector<size_t> missingGradients() const;

    // After the synchronising backward: all-reduces whatever is left and waits; every
    // parameter's .grad then holds the average over ranks.
    SyncResult finish();

    std::vector<std::vector<size_t>> bucketLayout() const;  // parameter indices per bucket

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

    std::vector<at::Tensor> m_parameters;
    std::vector<Slot> m_slots;
    std::vector<Bucket> m_buckets;
    std::vector<std::shared_ptr<torch::autograd::Node>> m_accumulators;  // kept alive: they hold the hooks
    std::vector<uintptr_t> m_hookKeys;
    Communicator& m_comm;
    bool m_synchronizing = false;
    bool m_overlap = true;
    bool m_trackNorm = false;
};

}  // namespace ddplab
