// SPDX-License-Identifier: GPL-3.0-or-later
#include "no_deterministic_kernel.hpp"

#include "core/key_names.hpp"

namespace ddplab {

std::string operationWithoutDeterministicKernel(const std::string& libtorchMessage)
{
    constexpr char kAlert[] = " does not have a deterministic implementation";
    const size_t alert = libtorchMessage.find(kAlert);
    if (alert == std::string::npos || alert == 0)
        return "";
    // The name is the word before it: after "RuntimeError: " in a traceback, or the line's start.
    const size_t before = libtorchMessage.find_last_of(" \n:", alert - 1);
    const size_t start = before == std::string::npos ? 0 : before + 1;
    return libtorchMessage.substr(start, alert - start);
}

std::string noDeterministicKernelSentence(const std::string& where, const std::string& operation)
{
    return where + " the operation " + operation + " has no deterministic kernel in LibTorch, and " + key::kDeterministic +
           " true allows deterministic kernels only: set " + key::kDeterministic + " false, or change that operation in your model";
}

}  // namespace ddplab
