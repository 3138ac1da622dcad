// SPDX-License-Identifier: GPL-3.0-or-later
#include "shard_command.hpp"

#include "core/derived.hpp"
#include "core/protocol.hpp"
#include "data/distributed_sampler.hpp"

#include <algorithm>
#include <vector>

namespace ddplab {

Json shardReport(const ShardRequest& q)
{
    const SamplerSettings settings{q.numExamples, q.worldSize, q.shuffle, q.seed, q.dropLast};
    const ShardPlan plan = planShards(q.numExamples, q.worldSize, q.batchSize, q.dropLast);
    // The epoch's order is made once for every rank (made per rank, 128 ranks of 10^7 examples
    // took 16 s and 2 GB); without shuffle it is the identity and is not made at all.
    const std::vector<int64_t> order = q.shuffle ? epochOrder(settings, q.epoch) : std::vector<int64_t>();
    const auto sampleAt = [&](int64_t position) {
        const int64_t wrapped = position % q.numExamples;
        return q.shuffle ? order[size_t(wrapped)] : wrapped;
    };

    // Every index up to kMaxListedIndices; beyond, the first iterations only (a summary: the
    // counts, padding and dropped stay complete, as they are fewer than the ranks).
    const int64_t perIteration = q.worldSize * q.batchSize;
    const int64_t listed = plan.totalSize <= kMaxListedIndices ? plan.batchesPerEpoch
                                                                : std::min(plan.batchesPerEpoch, kMaxListedIndices / perIteration);
    protocol::ShardListing listing;
    listing.request = q;
    listing.samplesPerRank = plan.samplesPerRank;
    listing.iterations = plan.batchesPerEpoch;
    listing.listedIterations = listed;
    for (int64_t r = 0; r < q.worldSize; ++r) {
        std::vector<std::vector<int64_t>> iterations;
        for (int64_t iteration = 0; iteration < listed; ++iteration) {
            std::vector<int64_t> batch;
            const int64_t end = std::min(plan.samplesPerRank, (iteration + 1) * q.batchSize);
            for (int64_t local = iteration * q.batchSize; local < end; ++local)
                batch.push_back(sampleAt(r + local * q.worldSize));
            iterations.push_back(std::move(batch));
        }
        listing.ranks.push_back(std::move(iterations));
    }

    // Position p >= N of the padded list is a repeat; it goes to rank p % K, local slot p / K.
    for (int64_t p = q.numExamples; p < plan.totalSize; ++p) {
        const int64_t local = p / q.worldSize;
        listing.padding.push_back({p % q.worldSize, local / q.batchSize, local % q.batchSize});
    }
    // drop_last keeps the first totalSize positions of the order: the rest are dropped.
    for (int64_t p = plan.totalSize; p < q.numExamples; ++p)
        listing.dropped.push_back(sampleAt(p));
    std::sort(listing.dropped.begin(), listing.dropped.end());
    return protocol::shardReport(listing);
}

}  // namespace ddplab
