#pragma once
// DDP's gradient synchronisation: parameters grouped into buckets of bucket_cap_mb in reverse
// registration order (the order backward produces gradients), each bucket all-reduced
// asynchronously the moment backward has produced all of its gradients, so communication
// overlaps the rest of backward. Gradients are divided by the world size before the sum,
// as DDP does, so every rank ends with the average.

#include <ATen/core/Tensor.h>

#include <memory>
#include <vector>

namespace ddplab {

class Communicator;
class PendingCollective;

struct SyncTiming {
    double waitMs = 0.0;         // time blocked on communication after backward returned
    double localSquaredNorm = 0.0;  // |g_local|^2 of this rank's gradient before the sum
};

class GradientSync {
public:
    GradientSync(std::vector<at::Tensor> parameters, Communicator& comm, double bucketCapMb, bool overlap);
    ~GradientSync();
    GradientSync(const GradientSync&) = delete;
    GradientSync& operator=(const GradientSync&) = delete;

    // Before each micro-batch's backward. `synchronize` is false for the inner micro-steps
    // of gradient accumulation (DDP's no_sync): gradients then only accumulate locally.
    void prepare(bool synchronize);

    // After the synchronising backward: all-reduces whatever is left, waits, and leaves the
    // averaged gradient in every parameter's .grad.
    SyncTiming finish();

    size_t bucketCount() const { return m_buckets.size(); }
    std::vector<std::vector<size_t>> bucketLayout() const;  // parameter indices per bucket

private:
    struct Bucket {
        std::vector<size_t> parameters;  // indices into m_parameters, in filling order
        std::vector<int64_t> offsets;    // element offset of each parameter in `flat`
        at::Tensor flat;
        size_t ready = 0;
        std::vector<bool> filled;
        std::unique_ptr<PendingCollective> pending;
        double localSquaredNorm = 0.0;
    };
    struct Slot {
        size_t bucket;
        size_t position;
    };

    void onGradient(size_t parameter, const at::Tensor& grad);
    void fill(size_t parameter, const at::Tensor& grad);
    void launch(Bucket& bucket);

    std::vector<at::Tensor> m_parameters;
    std::vector<Slot> m_slots;
    std::vector<Bucket> m_buckets;
    std::vector<unsigned> m_hookHandles;
    Communicator& m_comm;
    bool m_overlap;
    bool m_synchronizing = false;
    bool m_trackNorm = false;
};

}  // namespace ddplab
