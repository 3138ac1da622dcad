// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The LR at every optimizer step: linear warmup from a fraction of the rule-scaled LR, then the
// constant, cosine or step schedule; or the LR range test's exponential rise. The engine's
// trainer asks it each step, the window previews the same curve; what the rule scales the LR
// to (effectiveLr) is derived.hpp's.

#include "config.hpp"

#include <cstdint>

namespace ddplab {

double warmupStartFactor(const Config& config);     // default 1 / world_size
int64_t warmupStepCount(const Config& config);      // warmup_steps, or warmup_epochs in steps

// The LR applied at optimizer step `step` (0-based): linear warmup from
// warmupStartFactor * effectiveLr, then the constant, cosine or step schedule; under
// lr_range_test, rangeTestLr.
double learningRateAt(const Config& config, int64_t step);

// The LR range test's LR at step `step` (0-based): lr_range_min * (max / min)^(step / (steps - 1)),
// the last one held should the run go on.
double rangeTestLr(const Config& config, int64_t step);

}  // namespace ddplab
