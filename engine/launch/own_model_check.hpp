// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Before a torchscript run forks its ranks: the data are read here, once (the ranks share the
// pages), and model and data are checked together (model_inspection.hpp) in a child process
// that then exits. The check runs tensor operations, and none may run in the launcher before
// it forks: they would start thread pools that a forked rank cannot use. Throws ConfigError or
// DataError as the check said, so a bad model or data set stops the run before anything
// started, with the same sentence `ddplab-engine inspect` gives.

#include "core/config.hpp"

namespace ddplab {

void checkOwnModelBeforeStart(const Config& config);

}  // namespace ddplab
