// SPDX-License-Identifier: GPL-3.0-or-later
#include "batch_growth.hpp"

#include "core/batch_schedule.hpp"
#include "core/derived.hpp"

#include <algorithm>
#include <cmath>

namespace ddplab {

BatchGrowth::BatchGrowth(const Config& config)
    : m_config(config), m_shaped(config), m_adaScaleBase(adaScaleBaseConfig(config)), m_adaScaleLength(totalSteps(m_adaScaleBase))
{
}

void BatchGrowth::restore(const State& state)
{
    m_state = state;
    m_state.multiplier = std::clamp<int64_t>(state.multiplier, 1, largestBatchMultiplier(m_config));
    reshape();
}

int64_t BatchGrowth::effectiveBatch() const
{
    return effectiveBatchSize(m_shaped);
}

double BatchGrowth::nextLr() const
{
    if (m_config.batchSchedule == BatchScheduleKind::Constant)
        return learningRateAt(m_config, m_state.baseSteps);
    return grownBatchLr(m_config, m_state.baseSteps, m_state.multiplier);
}

double BatchGrowth::adaScaleLr(double gain) const
{
    return gain * learningRateAt(m_adaScaleBase, int64_t(std::floor(m_state.tau)));
}

bool BatchGrowth::adaScaleDone() const
{
    return m_state.tau >= double(m_adaScaleLength);
}

std::optional<protocol::BatchChange> BatchGrowth::afterStep(int64_t stepsDone, double noiseScale, double gain,
                                                            bool runGoesOn)
{
    m_state.baseSteps += m_state.multiplier;
    m_state.tau += gain;
    const int64_t before = m_state.multiplier;
    if (!runGoesOn)
        return std::nullopt;
    protocol::BatchChange change;
    switch (m_config.batchSchedule) {
    case BatchScheduleKind::Steps:
    case BatchScheduleKind::Smith:
    case BatchScheduleKind::Seesaw:
        // A schedule's growth is never undone (a cosine's floor, a bound reached).
        m_state.multiplier = std::max(before, scheduledBatchMultiplier(m_config, stepsDone, m_state.baseSteps));
        change.reason = protocol::batch_reason::kSchedule;
        break;
    case BatchScheduleKind::Noise: {
        const bool above = std::isfinite(noiseScale) && noiseScale > 2.0 * double(effectiveBatch());
        m_state.patience = above ? m_state.patience + 1 : 0;
        if (m_state.patience >= m_config.batchNoisePatience) {
            m_state.patience = 0;
            m_state.multiplier = std::min(2 * before, largestBatchMultiplier(m_config));
            change.reason = protocol::batch_reason::kNoiseScale;
            change.noiseScale = noiseScale;
        }
        break;
    }
    case BatchScheduleKind::Constant:
    case BatchScheduleKind::AdaScale:
        break;
    }
    if (m_state.multiplier == before)
        return std::nullopt;
    change.step = stepsDone;
    change.previous = effectiveBatch();
    reshape();
    change.effectiveBatch = effectiveBatch();
    change.batchSize = m_shaped.batchSize;
    change.gradAccum = m_shaped.gradAccum;
    return change;
}

void BatchGrowth::reshape()
{
    const BatchShape shape = batchShape(m_config, m_state.multiplier);
    m_shaped.batchSize = shape.batchSize;
    m_shaped.gradAccum = shape.gradAccum;
}

}  // namespace ddplab
