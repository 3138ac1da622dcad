// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab-engine inspect --config FILE` (flags as `run`'s): the user's own model and data
// (workload torchscript) loaded and checked together without training. Prints one JSON line on
// stdout, the `inspection` event (docs/protocol.md), or an `error` event naming the key and the
// file; exits 0, 2 (the config, or model and data that do not fit) or 3 (a data file).

#include "cli/config_options.hpp"

namespace ddplab {

int runInspect(const ConfigOptions& options);

}  // namespace ddplab
