// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which samples each optimizer step of an epoch gives one rank, micro-batch by micro-batch:
// DistributedSampler + DataLoader(batch_size) with grad_accum consecutive batches per step, or,
// under accumulate_as_ranks, micro-batch j of rank k holding what rank k * A + j of K * A
// ranks would get (each micro-batch one emulated GPU's batch). A resumed epoch starts at the
// position a checkpoint was written at (distributed_sampler.hpp).

#include "core/config.hpp"

#include <cstdint>
#include <vector>

namespace ddplab {

using MicroBatches = std::vector<std::vector<int64_t>>;  // sample indices, one list per micro-batch

std::vector<MicroBatches> epochSteps(const Config& config, int64_t datasetSize, int rank, int64_t epoch,
                                     int64_t fromPosition);

// The positions of the epoch's padded list one step of `microBatches` on every rank consumes:
// each rank's micro-batches are as long as every other rank's.
int64_t positionsConsumed(const MicroBatches& microBatches, int worldSize);

}  // namespace ddplab
