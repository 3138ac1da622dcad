// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// With `deterministic` true (launch/kernel_choice.hpp) LibTorch stops at an operation that has no
// deterministic kernel, in words for Python: "put_ does not have a deterministic implementation,
// but you set 'torch.use_deterministic_algorithms(True)'. ...". A rank says it in the lab's words
// instead, with the key that asked for it, so it is not taken for a model that does not fit.

#include <string>

namespace ddplab {

// The operation LibTorch names (also inside the TorchScript interpreter's traceback of one's own
// model), or "" when the message is not that alert.
std::string operationWithoutDeterministicKernel(const std::string& libtorchMessage);

// One sentence for the key deterministic: where it stopped ("at step 3"), the operation, what to do.
std::string noDeterministicKernelSentence(const std::string& where, const std::string& operation);

}  // namespace ddplab
