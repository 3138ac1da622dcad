// SPDX-License-Identifier: GPL-3.0-or-later
#include "batch_schedule.hpp"

#include "derived.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ddplab {
namespace {

// Rounding down a ratio of LRs computed in floating point: 1 / 0.1 is 9.999999999999998.
constexpr double kRoundingSlack = 1e-9;

// The fraction of its peak the LR schedule has decayed to, `baseSteps` into the run; warmup
// is no decay.
double scheduleDecay(const Config& config, int64_t baseSteps)
{
    if (baseSteps < warmupStepCount(config))
        return 1.0;
    const double peak = effectiveLr(config);
    return peak > 0 ? learningRateAt(config, baseSteps) / peak : 1.0;
}

}  // namespace

bool growsByPlan(const Config& config)
{
    return config.batchSchedule == BatchScheduleKind::Steps || config.batchSchedule == BatchScheduleKind::Smith ||
           config.batchSchedule == BatchScheduleKind::Seesaw;
}

int64_t largestBatchMultiplier(const Config& config)
{
    const int64_t bound = config.maxEffectiveBatch > 0 ? config.maxEffectiveBatch : datasetSize(config);
    return std::max<int64_t>(1, bound / std::max<int64_t>(1, effectiveBatchSize(config)));
}

namespace {

// The fewest micro-batches a rank's share of `multiplier` times the starting batch needs (none
// above the largest batch a rank may carry), and the fewest equal ones: the smallest divisor of
// the share at least that. The share is at most the training set over the ranks, so its
// divisors are found by trial division up to its square root.
struct ShareSplit {
    int64_t share = 0;
    int64_t fewest = 1;        // ceil(share / largest batch)
    int64_t fewestEqual = 1;   // the smallest divisor of share >= fewest
};

ShareSplit splitOf(const Config& config, int64_t multiplier)
{
    ShareSplit split;
    split.share = multiplier * config.batchSize * config.gradAccum;
    const int64_t largestBatch = std::max(config.batchSize, config.maxBatchPerRank);
    split.fewest = (split.share + largestBatch - 1) / largestBatch;
    split.fewestEqual = split.share;
    for (int64_t d = 1; d * d <= split.share; ++d) {
        if (split.share % d != 0)
            continue;
        if (d >= split.fewest)
            split.fewestEqual = std::min(split.fewestEqual, d);
        if (split.share / d >= split.fewest)
            split.fewestEqual = std::min(split.fewestEqual, split.share / d);
    }
    return split;
}

}  // namespace

BatchShape batchShape(const Config& config, int64_t multiplier)
{
    const ShareSplit split = splitOf(config, multiplier);
    return {split.share / split.fewestEqual, split.fewestEqual};
}

bool splitsWell(const Config& config, int64_t multiplier)
{
    const ShareSplit split = splitOf(config, multiplier);
    return split.fewestEqual <= 2 * split.fewest;
}

int64_t scheduledBatchMultiplier(const Config& config, int64_t stepsDone, int64_t baseSteps)
{
    const int64_t largest = largestBatchMultiplier(config);
    int64_t multiplier = 1;
    switch (config.batchSchedule) {
    case BatchScheduleKind::Steps:
        for (size_t i = 0; i < config.batchScheduleSteps.size() && i < config.batchScheduleFactors.size(); ++i) {
            if (config.batchScheduleSteps[i] <= stepsDone)
                multiplier = std::min(largest, multiplier * config.batchScheduleFactors[i]);
        }
        return multiplier;
    case BatchScheduleKind::Smith:
    case BatchScheduleKind::Seesaw: {
        const double decay = scheduleDecay(config, baseSteps);
        if (decay <= 0)
            return largest;
        const double growth = std::min(1.0 / decay + kRoundingSlack, double(largest));
        if (config.batchSchedule == BatchScheduleKind::Seesaw)
            return int64_t(1) << int64_t(std::floor(std::log2(growth)));
        // Down to a multiplier whose share splits well (a power of two always does: at most halved).
        int64_t smith = std::max<int64_t>(1, int64_t(std::floor(growth)));
        while (smith > 1 && !splitsWell(config, smith))
            --smith;
        return smith;
    }
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::Noise:
    case BatchScheduleKind::AdaScale:
        break;
    }
    return multiplier;
}

double grownBatchLr(const Config& config, int64_t baseSteps, int64_t multiplier)
{
    const double scheduled = learningRateAt(config, baseSteps);
    switch (config.batchSchedule) {
    case BatchScheduleKind::Smith:
        return scheduled * double(multiplier);
    case BatchScheduleKind::Seesaw:
        return scheduled * std::sqrt(double(multiplier));
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::Steps:
    case BatchScheduleKind::Noise:
    case BatchScheduleKind::AdaScale:
        break;
    }
    return scheduled;
}

void walkPlannedSegments(const Config& config, const std::function<bool(const PlannedSegment&)>& visit)
{
    if (!growsByPlan(config)) {
        visit({0, totalSteps(config), 0, 1});
        return;
    }
    // As the trainer walks the run: each rank takes its share of an epoch in steps of the batch
    // in force (the epoch's last step short), and the batch may grow after any step but the
    // run's last; max_steps counts optimizer steps. Between two growths every step adds the
    // multiplier to the base-step clock, so a segment is found whole: the schedule's multiplier
    // never falls as the clocks run (the LR schedules only decay, and steps' factors only
    // pass), and the first step after which it rises is found by bisection.
    const int64_t perRank = planShards(config).samplesPerRank;
    if (perRank <= 0)
        return;
    const int64_t stepLimit = config.maxSteps > 0 ? config.maxSteps : std::numeric_limits<int64_t>::max();
    int64_t epoch = 0, left = perRank, stepsDone = 0, baseSteps = 0, multiplier = 1;
    while (epoch < config.epochs && stepsDone < stepLimit) {
        const BatchShape shape = batchShape(config, multiplier);
        const int64_t perStep = shape.batchSize * shape.gradAccum;
        const int64_t thisEpoch = (left + perStep - 1) / perStep;  // steps to this epoch's end
        const int64_t perEpoch = (perRank + perStep - 1) / perStep;
        // Steps left in the run at this batch (saturating: epochs times steps fit in 2^63).
        const double laterEpochs = double(config.epochs - epoch - 1) * double(perEpoch);
        const int64_t length = int64_t(std::min(double(stepLimit - stepsDone), double(thisEpoch) + laterEpochs));
        const auto grows = [&](int64_t steps) {
            return scheduledBatchMultiplier(config, stepsDone + steps, baseSteps + steps * multiplier) > multiplier;
        };
        // The batch may grow after any step but the run's last: steps 1 to length - 1.
        int64_t run = length;
        if (length > 1 && grows(length - 1)) {
            int64_t low = 1, high = length - 1;  // grows(high) holds
            while (low < high) {
                const int64_t middle = low + (high - low) / 2;
                if (grows(middle))
                    high = middle;
                else
                    low = middle + 1;
            }
            run = low;
        }
        if (!visit({stepsDone, run, baseSteps, multiplier}))
            return;
        stepsDone += run;
        baseSteps += run * multiplier;
        if (run < thisEpoch) {
            left -= run * perStep;
        } else {
            const int64_t after = run - thisEpoch;  // steps into the epochs after this one
            epoch += 1 + after / perEpoch;
            left = perRank - std::min(perRank, (after % perEpoch) * perStep);
        }
        if (run < length)
            multiplier = std::max(multiplier, scheduledBatchMultiplier(config, stepsDone, baseSteps));
        else
            return;
    }
}

void walkPlannedSteps(const Config& config, const std::function<bool(const PlannedStep&)>& visit)
{
    walkPlannedSegments(config, [&](const PlannedSegment& segment) {
        for (int64_t i = 0; i < segment.steps; ++i) {
            const int64_t baseSteps = segment.baseSteps + i * segment.multiplier;
            const double lr = growsByPlan(config) ? grownBatchLr(config, baseSteps, segment.multiplier) : learningRateAt(config, baseSteps);
            if (!visit({baseSteps, segment.multiplier, lr}))
                return false;
        }
        return true;
    });
}

std::vector<PlannedStep> plannedBatchSteps(const Config& config, int64_t maxSteps)
{
    std::vector<PlannedStep> plan;
    walkPlannedSteps(config, [&](const PlannedStep& step) {
        if (int64_t(plan.size()) >= maxSteps)
            return false;
        plan.push_back(step);
        return true;
    });
    return plan;
}

BatchPlan planBatchGrowth(const Config& config)
{
    BatchPlan plan;
    if (!growsByPlan(config)) {
        plan.steps = totalSteps(config);
        return plan;
    }
    int64_t multiplier = 1;
    walkPlannedSegments(config, [&](const PlannedSegment& segment) {
        if (segment.multiplier != multiplier)
            plan.changes.push_back({plan.steps, segment.multiplier});
        multiplier = segment.multiplier;
        plan.steps += segment.steps;
        return true;
    });
    return plan;
}

Config adaScaleBaseConfig(const Config& config)
{
    Config base = config;
    base.worldSize = 1;
    base.batchSize = config.batchSize * config.gradAccum;
    base.gradAccum = 1;
    base.batchSchedule = BatchScheduleKind::Constant;
    return base;
}

double adaScaleGain(double traceSigma, double gradSquaredNorm, double smallBatch, double bigBatch)
{
    const double scale = bigBatch / smallBatch;
    if (!(gradSquaredNorm > 0))
        return scale;
    if (!(traceSigma > 0))
        return 1.0;
    const double variance = traceSigma / smallBatch;
    return std::clamp((variance + gradSquaredNorm) / (variance / scale + gradSquaredNorm), 1.0, scale);
}

}  // namespace ddplab
