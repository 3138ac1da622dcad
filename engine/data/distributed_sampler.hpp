// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// torch.utils.data.distributed.DistributedSampler followed by DataLoader(batch_size=B),
// index for index. (LibTorch's C++ DistributedRandomSampler shards differently and is not
// the definition users meet in Python.)

#include <cstdint>
#include <vector>

namespace ddplab {

struct SamplerSettings {
    int64_t numExamples = 0;
    int64_t worldSize = 1;
    bool shuffle = true;
    int64_t seed = 0;
    bool dropLast = false;
};

// The epoch's order of the whole dataset before it is split over the ranks: a permutation
// seeded with seed + epoch (shuffle), else 0..N-1. Position p of the padded list (every rank's
// share, interleaved) holds order[p % N]; drop_last cuts the list short instead.
std::vector<int64_t> epochOrder(const SamplerSettings& settings, int64_t epoch);

// The indices rank `rank` visits in epoch `epoch` (DistributedSampler.set_epoch(epoch)).
// `fromPosition`: the positions of the padded list already consumed this epoch (a resumed
// run's), after which the ranks take turns as from the start: an optimizer step of K ranks,
// A micro-batches of b, consumes the K * A * b positions that follow, whatever K, A and b the
// steps before it had. Where the positions left do not split evenly over the ranks (a run
// resumed with another world size) they are padded from the head of the epoch's order, or cut
// with drop_last, as DistributedSampler does at an epoch's end.
std::vector<int64_t> rankIndices(const SamplerSettings& settings, int64_t rank, int64_t epoch, int64_t fromPosition = 0);

// The same, cut into batches of `batchSize`; the last one may be short.
std::vector<std::vector<int64_t>> rankBatches(const SamplerSettings& settings, int64_t rank, int64_t epoch,
                                              int64_t batchSize, int64_t fromPosition = 0);

// The padded list's length: every rank's share of one epoch together (DistributedSampler's
// total_size).
int64_t epochPositions(const SamplerSettings& settings);

}  // namespace ddplab
