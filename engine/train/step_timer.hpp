// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The phases of a training step (data, compute, communication, optimizer), timed where the work
// runs. On a CPU an operation is done when the host call returns, so the host's clock measures
// it. On a GPU the host only enqueues kernels, and a host clock would measure the enqueueing:
// the timer records a CUDA event on the compute stream at each phase boundary instead, and
// turns them into times once per step, after the step's figures were read back (which waits
// for the stream anyway, so resolving costs no extra wait).

#include <c10/core/Device.h>

#include <memory>
#include <vector>

namespace ddplab {

enum class StepPhase { Data, Compute, Comm, Optimizer };

struct PhaseTimes {
    double dataMs = 0.0;
    double computeMs = 0.0;
    double commMs = 0.0;
    double optimizerMs = 0.0;
};

// A series of instants on one device's clock: the host's, or CUDA events on the current
// device's default stream (where LibTorch queues the engine's kernels).
class PhaseClock {
public:
    virtual ~PhaseClock() = default;
    virtual void restart() = 0;                           // forget the instants, take the first
    virtual void mark() = 0;                              // take the next instant
    virtual std::vector<double> intervalsMs() = 0;        // between consecutive instants
};

// The GPU's clock (step_timer_cuda.cpp, built with the CUDA toolkit).
std::unique_ptr<PhaseClock> makeCudaPhaseClock();

class StepTimer {
public:
    explicit StepTimer(const c10::Device& device);
    ~StepTimer();

    void begin();                    // the step starts: its first phase starts now
    void endPhase(StepPhase phase);  // the phase since the last boundary was `phase`
    PhaseTimes resolve();            // after the step's read of the device

private:
    std::unique_ptr<PhaseClock> m_clock;
    std::vector<StepPhase> m_phases;  // one per interval, in order
};

}  // namespace ddplab
