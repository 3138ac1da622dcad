// SPDX-License-Identifier: GPL-3.0-or-later
#include "step_plan.hpp"

#include "data/distributed_sampler.hpp"

namespace ddplab {

std::vector<MicroBatches> epochSteps(const Config& c, int64_t datasetSize, int rank, int64_t epoch, int64_t fromPosition)
{
    std::vector<MicroBatches> steps;
    if (c.accumulateAsRanks && c.gradAccum > 1) {
        const SamplerSettings emulated{datasetSize, c.worldSize * c.gradAccum, c.shuffle, c.seed, c.dropLast};
        std::vector<MicroBatches> byEmulatedRank;
        for (int64_t j = 0; j < c.gradAccum; ++j)
            byEmulatedRank.push_back(rankBatches(emulated, rank * c.gradAccum + j, epoch, c.batchSize, fromPosition));
        // DistributedSampler gives every rank as many samples, so every emulated rank as many batches.
        for (size_t i = 0; i < byEmulatedRank.front().size(); ++i) {
            MicroBatches step;
            for (const MicroBatches& batches : byEmulatedRank)
                step.push_back(batches[i]);
            steps.push_back(std::move(step));
        }
        return steps;
    }
    const SamplerSettings sampler{datasetSize, c.worldSize, c.shuffle, c.seed, c.dropLast};
    const MicroBatches batches = rankBatches(sampler, rank, epoch, c.batchSize, fromPosition);
    for (size_t first = 0; first < batches.size(); first += size_t(c.gradAccum)) {
        const size_t end = std::min(batches.size(), first + size_t(c.gradAccum));
        steps.emplace_back(batches.begin() + long(first), batches.begin() + long(end));
    }
    return steps;
}

int64_t positionsConsumed(const MicroBatches& microBatches, int worldSize)
{
    int64_t samples = 0;
    for (const std::vector<int64_t>& batch : microBatches)
        samples += int64_t(batch.size());
    return samples * worldSize;
}

}  // namespace ddplab
