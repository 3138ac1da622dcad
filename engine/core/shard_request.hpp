// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `ddplab-engine shard` is asked: how DistributedSampler + DataLoader split one epoch of a
// data set over ranks. The engine's command line fills it, the window's Sharding page sends it.

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

}  // namespace ddplab
