// SPDX-License-Identifier: GPL-3.0-or-later
#include "distributed_sampler.hpp"

#include "core/derived.hpp"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ATen.h>

#include <algorithm>
#include <numeric>

namespace ddplab {
namespace {

// torch.randperm(n, generator=g) with g.manual_seed(seed + epoch): the same LibTorch
// function on the same generator, hence the same permutation as Python.
std::vector<int64_t> permutation(int64_t n, int64_t seed)
{
    at::Generator generator = at::make_generator<at::CPUGeneratorImpl>(uint64_t(seed));
    // Written in place: 10^8 examples are 800 MB, not to be held twice.
    std::vector<int64_t> indices(static_cast<size_t>(n));
    at::Tensor perm = at::from_blob(indices.data(), {n}, at::TensorOptions().dtype(at::kLong));
    at::randperm_out(perm, n, generator);
    return indices;
}

}  // namespace

std::vector<int64_t> epochOrder(const SamplerSettings& s, int64_t epoch)
{
    if (s.shuffle)
        return permutation(s.numExamples, s.seed + epoch);
    std::vector<int64_t> indices(size_t(s.numExamples));
    std::iota(indices.begin(), indices.end(), 0);
    return indices;
}

int64_t epochPositions(const SamplerSettings& s)
{
    return planShards(s.numExamples, s.worldSize, /*batchSize=*/1, s.dropLast).totalSize;
}

std::vector<int64_t> rankIndices(const SamplerSettings& s, int64_t rank, int64_t epoch, int64_t fromPosition)
{
    const ShardPlan plan = planShards(s.numExamples, s.worldSize, /*batchSize=*/1, s.dropLast);
    const std::vector<int64_t> order = epochOrder(s, epoch);
    // Padding repeats the head of the (shuffled) list, as often as needed: position p >= N
    // holds order[p % N]. drop_last keeps the first totalSize positions.
    // A resumed epoch whose run had another world size may start where the positions left do
    // not split evenly: they are padded (or, with drop_last, cut) to a multiple of the ranks
    // as DistributedSampler pads an epoch, so every rank takes as many steps.
    int64_t end = plan.totalSize;
    if (fromPosition > 0) {
        const int64_t left = std::max<int64_t>(0, plan.totalSize - fromPosition);
        end = fromPosition + (s.dropLast ? left / s.worldSize : (left + s.worldSize - 1) / s.worldSize) * s.worldSize;
    }
    std::vector<int64_t> mine;
    mine.reserve(size_t(std::max<int64_t>(0, (end - fromPosition) / s.worldSize)));
    for (int64_t i = fromPosition + rank; i < end; i += s.worldSize)
        mine.push_back(order[size_t(i % s.numExamples)]);
    return mine;
}

std::vector<std::vector<int64_t>> rankBatches(const SamplerSettings& settings, int64_t rank, int64_t epoch,
                                              int64_t batchSize, int64_t fromPosition)
{
    const std::vector<int64_t> indices = rankIndices(settings, rank, epoch, fromPosition);
    std::vector<std::vector<int64_t>> batches;
    for (size_t start = 0; start < indices.size(); start += size_t(batchSize)) {
        const size_t end = std::min(indices.size(), start + size_t(batchSize));
        batches.emplace_back(indices.begin() + long(start), indices.begin() + long(end));
    }
    return batches;
}

}  // namespace ddplab
