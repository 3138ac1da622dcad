// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The LR range test's bookkeeping (Smith 2017, "Cyclical Learning Rates for Training Neural
// Networks"; fastai's lr_find): the loss of each step smoothed by an exponential moving average
// (0.98, debiased), the stop once the smoothed loss exceeds 4x its minimum, and the LRs it
// suggests. Plain arithmetic, no LibTorch: every rank feeds it the same reduced losses and so
// stops at the same step.

#include "protocol.hpp"

#include <cstdint>
#include <vector>

namespace ddplab {

class RangeTest {
public:
    static constexpr double kSmoothing = 0.98;
    static constexpr double kDivergence = 4.0;  // the smoothed loss over its minimum that ends the test

    // The loss of the step run at `lr`. Returns true when the test should stop now.
    bool add(double lr, double loss);

    // The curve and the suggestions, computed as fastai's lr_find does: on the smoothed
    // curve without its first tenth and its last 5 points (the start is flat, the end
    // diverges), when enough remain.
    //   steepest:      the LR where the smoothed loss falls fastest against log LR;
    //   minimum_tenth: the LR of the smoothed minimum, divided by 10;
    //   valley:        inside the longest stretch of falling loss, two thirds of the way down.
    protocol::RangeTestReport report(bool reachedLastStep) const;

private:
    std::vector<protocol::RangeTestReport::Point> m_points;
    double m_average = 0.0;
    double m_best = 0.0;
    bool m_notFinite = false;
    bool m_diverged = false;
};

}  // namespace ddplab
