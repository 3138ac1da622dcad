// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `ddplab-engine inspect`, and the launcher's check before a torchscript run starts: the user's
// model and data loaded together, the first batch through forward (TorchScriptWorkload's
// checks) and then through a whole training step on the CPU, which shows whether every
// parameter gets a gradient and how much memory the step takes at its peak.

#include "core/config.hpp"
#include "core/protocol_inspection.hpp"

#include <cstdint>
#include <string>

namespace ddplab {

// Throws ConfigError or DataError naming the key and the file, as a run would.
protocol::InspectionReport inspectOwnModel(const Config& config);

// What a check that ran out of time says (model_check_timeout): inspect's and the launcher's.
std::string modelCheckTimeoutMessage(const std::string& modelFile, int64_t seconds);

}  // namespace ddplab
