#include "batch_schedule.hpp"

#include "derived.hpp"

#include <algorithm>
#include <cmath>

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

std::vector<PlannedStep> plannedBatchSteps(const Config& config, int64_t maxSteps)
{
    std::vector<PlannedStep> plan;
    const int64_t length = totalSteps(config);
    int64_t baseSteps = 0, multiplier = 1;
    while (baseSteps < length && int64_t(plan.size()) < maxSteps) {
        plan.push_back({baseSteps, multiplier, grownBatchLr(config, baseSteps, multiplier)});
        baseSteps += multiplier;
        multiplier = std::max(multiplier, scheduledBatchMultiplier(config, int64_t(plan.size()), baseSteps));
    }
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
