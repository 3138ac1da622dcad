#include "distributed_sampler.hpp"

#include "core/derived.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ATen.h>

#include <numeric>

namespace ddplab {
namespace {

// torch.randperm(n, generator=g) with g.manual_seed(seed + epoch): the same LibTorch
// function on the same generator, hence the same permutation as Python.
std::vector<int64_t> permutation(int64_t n, int64_t seed)
{
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(uint64_t(seed));
    const at::Tensor perm = at::randperm(n, generator, at::TensorOptions().dtype(at::kLong));
    const int64_t* data = perm.data_ptr<int64_t>();
    return std::vector<int64_t>(data, data + n);
}

}  // namespace

std::vector<int64_t> rankIndices(const SamplerSettings& s, int64_t rank, int64_t epoch)
{
    const ShardPlan plan = planShards(s.numExamples, s.worldSize, /*batchSize=*/1, s.dropLast);

    std::vector<int64_t> indices;
    if (s.shuffle) {
        indices = permutation(s.numExamples, s.seed + epoch);
    } else {
        indices.resize(size_t(s.numExamples));
        std::iota(indices.begin(), indices.end(), 0);
    }

    if (!s.dropLast) {
        // Pad by repeating the head of the (shuffled) list, as often as needed.
        const int64_t n = int64_t(indices.size());
        for (int64_t i = 0; int64_t(indices.size()) < plan.totalSize; ++i)
            indices.push_back(indices[size_t(i % n)]);
    } else {
        indices.resize(size_t(plan.totalSize));
    }

    std::vector<int64_t> mine;
    mine.reserve(size_t(plan.samplesPerRank));
    for (int64_t i = rank; i < plan.totalSize; i += s.worldSize)
        mine.push_back(indices[size_t(i)]);
    return mine;
}

std::vector<std::vector<int64_t>> rankBatches(const SamplerSettings& settings, int64_t rank, int64_t epoch,
                                              int64_t batchSize)
{
    const std::vector<int64_t> indices = rankIndices(settings, rank, epoch);
    std::vector<std::vector<int64_t>> batches;
    for (size_t start = 0; start < indices.size(); start += size_t(batchSize)) {
        const size_t end = std::min(indices.size(), start + size_t(batchSize));
        batches.emplace_back(indices.begin() + long(start), indices.begin() + long(end));
    }
    return batches;
}

}  // namespace ddplab
