// SPDX-License-Identifier: GPL-3.0-or-later
#include "step_timer.hpp"

#include "comm/cuda_check.hpp"

#include <cuda_runtime_api.h>

namespace ddplab {
namespace {

// CUDA events on the legacy default stream of the calling thread's current device: the stream
// LibTorch queues every kernel of the engine on (the worker makes the rank's GPU current once).
class CudaEventClock final : public PhaseClock {
public:
    ~CudaEventClock() override
    {
        for (cudaEvent_t event : m_events)
            cudaEventDestroy(event);
    }

    void restart() override
    {
        m_used = 0;
        mark();
    }

    void mark() override
    {
        if (m_used == m_events.size()) {
            cudaEvent_t event = nullptr;
            DDPLAB_CUDA_CHECK(cudaEventCreate(&event));  // with timing, unlike the communicator's
            m_events.push_back(event);
        }
        DDPLAB_CUDA_CHECK(cudaEventRecord(m_events[m_used++], cudaStreamLegacy));
    }

    std::vector<double> intervalsMs() override
    {
        std::vector<double> intervals;
        if (m_used == 0)
            return intervals;
        // Done already when the step's figures were read; this only makes sure.
        DDPLAB_CUDA_CHECK(cudaEventSynchronize(m_events[m_used - 1]));
        for (size_t i = 1; i < m_used; ++i) {
            float ms = 0.0f;
            DDPLAB_CUDA_CHECK(cudaEventElapsedTime(&ms, m_events[i - 1], m_events[i]));
            intervals.push_back(double(ms));
        }
        return intervals;
    }

private:
    std::vector<cudaEvent_t> m_events;  // reused from step to step
    size_t m_used = 0;
};

}  // namespace

std::unique_ptr<PhaseClock> makeCudaPhaseClock()
{
    return std::make_unique<CudaEventClock>();
}

}  // namespace ddplab
