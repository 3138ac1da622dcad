// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a growing batch stands during a run (batch_schedule): the multiplier of the starting
// effective batch in force, the clocks the LR schedule is read on, and the decision, after each
// optimizer step, whether the next step takes a larger batch. The arithmetic is
// core/batch_schedule.hpp's; this keeps the state a checkpoint carries over.

#include "core/config.hpp"
#include "core/protocol.hpp"

#include <cstdint>
#include <optional>

namespace ddplab {

class BatchGrowth {
public:
    // `config`: the run's, as started (its batch_size and grad_accum are the starting batch).
    explicit BatchGrowth(const Config& config);

    // What a checkpoint keeps of it.
    struct State {
        int64_t multiplier = 1;  // of the starting effective batch
        int64_t baseSteps = 0;   // the steps the starting batch would have taken for the samples seen
        double tau = 0.0;        // adascale's clock
        int64_t patience = 0;    // noise: steps in a row the noise scale has been above twice the batch
    };
    State state() const { return m_state; }
    void restore(const State& state);

    // The config the sampler plans the next step with: batch_size and grad_accum in force.
    const Config& shaped() const { return m_shaped; }
    int64_t effectiveBatch() const;

    // The LR of the next optimizer step (not adascale: adaScaleLr).
    double nextLr() const;
    // adascale: the LR of the step whose gain ratio is `gain`, read on tau before the step.
    double adaScaleLr(double gain) const;
    // adascale: tau reached the base schedule's length; the run is over.
    bool adaScaleDone() const;

    // After optimizer step `stepsDone` (1-based count): advances the clocks (tau by `gain` under
    // adascale) and, where the schedule or the smoothed `noiseScale` calls for it and the run
    // goes on, grows the batch of the steps that follow. Returns the change, if any.
    std::optional<protocol::BatchChange> afterStep(int64_t stepsDone, double noiseScale, double gain = 1.0,
                                                   bool runGoesOn = true);

private:
    void reshape();

    const Config& m_config;
    Config m_shaped;
    Config m_adaScaleBase;            // adascale: the schedule read on tau (adaScaleBaseConfig)
    int64_t m_adaScaleLength = 0;     // ... and its length in tau
    State m_state;
};

}  // namespace ddplab
