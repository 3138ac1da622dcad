// SPDX-License-Identifier: GPL-3.0-or-later
#include "lr_schedule.hpp"

#include "derived.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab {
namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

double warmupStartFactor(const Config& config)
{
    return config.warmupStartFactor.value_or(1.0 / double(config.worldSize));
}

int64_t warmupStepCount(const Config& config)
{
    if (config.warmupSteps > 0)
        return config.warmupSteps;
    return int64_t(std::llround(config.warmupEpochs * double(stepsPerEpoch(config))));
}

double rangeTestLr(const Config& config, int64_t step)
{
    const double progress = double(std::min(step, config.lrRangeSteps - 1)) / double(config.lrRangeSteps - 1);
    return config.lrRangeMin * std::pow(config.lrRangeMax / config.lrRangeMin, progress);
}

double learningRateAt(const Config& config, int64_t step)
{
    if (config.lrRangeTest)
        return rangeTestLr(config, step);
    const double peak = effectiveLr(config);
    const int64_t warmup = warmupStepCount(config);
    if (step < warmup) {
        // torch.optim.lr_scheduler.LinearLR(start_factor, end_factor=1, total_iters=warmup)
        const double start = warmupStartFactor(config);
        return peak * (start + (1.0 - start) * double(step) / double(warmup));
    }
    const int64_t afterWarmup = step - warmup;
    switch (config.schedule) {
    case ScheduleKind::Constant:
        return peak;
    case ScheduleKind::Cosine: {
        const int64_t span = std::max<int64_t>(1, totalSteps(config) - warmup);
        const double progress = std::min(1.0, double(afterWarmup) / double(span));
        return config.minLr + (peak - config.minLr) * 0.5 * (1.0 + std::cos(kPi * progress));
    }
    case ScheduleKind::Step: {
        const int64_t decayEvery = config.stepSize * stepsPerEpoch(config);
        return peak * std::pow(config.gamma, double(afterWarmup / std::max<int64_t>(1, decayEvery)));
    }
    }
    return peak;
}

}  // namespace ddplab
