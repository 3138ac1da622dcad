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

BatchShape batchShape(const Config& config, int64_t multiplier)
{
    const int64_t share = multiplier * config.batchSize * config.gradAccum;
    const int64_t largestBatch = std::max(config.batchSize, config.maxBatchPerRank);
    // multiplier * grad_accum micro-batches of batch_size always split the share: the loop ends.
    int64_t microBatches = (share + largestBatch - 1) / largestBatch;
    while (share % microBatches != 0)
        ++microBatches;
    return {share / microBatches, microBatches};
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
        if (config.batchSchedule == BatchScheduleKind::Smith)
            return std::max<int64_t>(1, int64_t(std::floor(growth)));
        return int64_t(1) << int64_t(std::floor(std::log2(growth)));
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

void walkPlannedSteps(const Config& config, const std::function<bool(const PlannedStep&)>& visit)
{
    if (!growsByPlan(config)) {
        const int64_t length = totalSteps(config);
        for (int64_t step = 0; step < length; ++step) {
            if (!visit({step, 1, learningRateAt(config, step)}))
                return;
        }
        return;
    }
    // As the trainer walks the run: each rank takes its share of an epoch in steps of the batch
    // in force (the epoch's last step short), and the batch may grow after any step but the
    // run's last; max_steps counts optimizer steps.
    const int64_t perRank = planShards(config).samplesPerRank;
    const int64_t stepLimit = config.maxSteps > 0 ? config.maxSteps : std::numeric_limits<int64_t>::max();
    int64_t stepsDone = 0, baseSteps = 0, multiplier = 1;
    for (int64_t epoch = 0; epoch < config.epochs && stepsDone < stepLimit; ++epoch) {
        for (int64_t left = perRank; left > 0 && stepsDone < stepLimit;) {
            if (!visit({baseSteps, multiplier, grownBatchLr(config, baseSteps, multiplier)}))
                return;
            const BatchShape shape = batchShape(config, multiplier);
            left -= std::min(left, shape.batchSize * shape.gradAccum);
            baseSteps += multiplier;
            ++stepsDone;
            const bool goesOn = stepsDone < stepLimit && !(left == 0 && epoch + 1 >= config.epochs);
            if (goesOn)
                multiplier = std::max(multiplier, scheduledBatchMultiplier(config, stepsDone, baseSteps));
        }
    }
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
    walkPlannedSteps(config, [&](const PlannedStep& step) {
        if (step.multiplier != multiplier)
            plan.changes.push_back({plan.steps, step.multiplier});
        multiplier = step.multiplier;
        ++plan.steps;
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
