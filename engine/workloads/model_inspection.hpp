#pragma once
// `ddplab-engine inspect`, and the launcher's check before a torchscript run starts: the user's
// model and data loaded together, the first batch through forward (TorchScriptWorkload's
// checks) and then through a whole training step on the CPU, which shows whether every
// parameter gets a gradient and how much memory the step takes at its peak.

#include "core/config.hpp"
#include "core/protocol_inspection.hpp"

namespace ddplab {

// Throws ConfigError or DataError naming the key and the file, as a run would.
protocol::InspectionReport inspectOwnModel(const Config& config);

}  // namespace ddplab
