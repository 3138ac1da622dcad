// SPDX-License-Identifier: GPL-3.0-or-later
#include "step_timer.hpp"

#include <chrono>
#include <stdexcept>

namespace ddplab {
namespace {

class HostClock final : public PhaseClock {
public:
    void restart() override
    {
        m_instants.clear();
        mark();
    }
    void mark() override { m_instants.push_back(std::chrono::steady_clock::now()); }
    std::vector<double> intervalsMs() override
    {
        std::vector<double> intervals;
        for (size_t i = 1; i < m_instants.size(); ++i)
            intervals.push_back(std::chrono::duration<double, std::milli>(m_instants[i] - m_instants[i - 1]).count());
        return intervals;
    }

private:
    std::vector<std::chrono::steady_clock::time_point> m_instants;
};

}  // namespace

StepTimer::StepTimer(const c10::Device& device)
    : m_clock(device.is_cuda() ? makeCudaPhaseClock() : std::make_unique<HostClock>())
{
}

StepTimer::~StepTimer() = default;

void StepTimer::begin()
{
    m_phases.clear();
    m_clock->restart();
}

void StepTimer::endPhase(StepPhase phase)
{
    m_clock->mark();
    m_phases.push_back(phase);
}

PhaseTimes StepTimer::resolve()
{
    const std::vector<double> intervals = m_clock->intervalsMs();
    PhaseTimes times;
    for (size_t i = 0; i < intervals.size() && i < m_phases.size(); ++i) {
        switch (m_phases[i]) {
        case StepPhase::Data: times.dataMs += intervals[i]; break;
        case StepPhase::Compute: times.computeMs += intervals[i]; break;
        case StepPhase::Comm: times.commMs += intervals[i]; break;
        case StepPhase::Optimizer: times.optimizerMs += intervals[i]; break;
        }
    }
    return times;
}

#ifndef DDPLAB_WITH_CUDA
std::unique_ptr<PhaseClock> makeCudaPhaseClock()
{
    // engine/CMakeLists.txt requires the CUDA toolkit whenever LibTorch has CUDA, and without
    // CUDA in LibTorch device cuda is refused before a trainer exists.
    throw std::logic_error("device cuda in an engine built without the CUDA toolkit");
}
#endif

}  // namespace ddplab
