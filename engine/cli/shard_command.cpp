#include "shard_command.hpp"

#include "core/derived.hpp"
#include "core/key_names.hpp"
#include "core/protocol.hpp"
#include "data/distributed_sampler.hpp"

#include <set>

namespace ddplab {

Json shardReport(const ShardRequest& q)
{
    const SamplerSettings settings{q.numExamples, q.worldSize, q.shuffle, q.seed, q.dropLast};
    const ShardPlan plan = planShards(q.numExamples, q.worldSize, q.batchSize, q.dropLast);

    Json ranks = Json::array();
    std::set<int64_t> seen;
    for (int64_t r = 0; r < q.worldSize; ++r) {
        Json iterations = Json::array();
        for (const auto& batch : rankBatches(settings, r, q.epoch, q.batchSize)) {
            iterations.push_back(batch);
            seen.insert(batch.begin(), batch.end());
        }
        ranks.push_back(iterations);
    }

    // Position p >= N of the padded list is a repeat; it goes to rank p % K, local slot p / K.
    Json padding = Json::array();
    for (int64_t p = q.numExamples; p < plan.totalSize; ++p) {
        const int64_t local = p / q.worldSize;
        padding.push_back({p % q.worldSize, local / q.batchSize, local % q.batchSize});
    }
    Json dropped = Json::array();
    for (int64_t i = 0; i < q.numExamples; ++i) {
        if (!seen.count(i))
            dropped.push_back(i);
    }

    Json report;
    report[key::kNumExamples] = q.numExamples;
    report[key::kWorldSize] = q.worldSize;
    report[key::kBatchSize] = q.batchSize;
    report[key::kDropLast] = q.dropLast;
    report[key::kShuffle] = q.shuffle;
    report[key::kSeed] = q.seed;
    report[protocol::shard::kEpoch] = q.epoch;
    report[protocol::shard::kSamplesPerRank] = plan.samplesPerRank;
    report[protocol::shard::kIterations] = plan.batchesPerEpoch;
    report[protocol::shard::kRanks] = ranks;
    report[protocol::shard::kPadding] = padding;
    report[protocol::shard::kDropped] = dropped;
    return report;
}

}  // namespace ddplab
