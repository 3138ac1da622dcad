#pragma once
// `ddplab-engine shard`: the exact sample indices of every rank in every iteration.

#include "core/json.hpp"

#include <cstdint>

namespace ddplab {

struct ShardRequest {
    int64_t numExamples = 0;
    int64_t worldSize = 1;
    int64_t batchSize = 1;
    bool dropLast = false;
    bool shuffle = false;
    int64_t seed = 0;
    int64_t epoch = 0;
};

// {"ranks": [[[i, ...], ...], ...], ...}: ranks[r][iteration] holds rank r's 0-based sample
// indices in that iteration; "padding" lists [rank, iteration, position] of the repeats the
// sampler added, "dropped" the indices drop_last discarded.
Json shardReport(const ShardRequest& request);

}  // namespace ddplab
