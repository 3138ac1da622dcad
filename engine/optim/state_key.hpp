// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The key a torch::optim::Optimizer files a parameter's state under: the parameter's TensorImpl
// address. LibTorch 1.13 keys state() by that address written as a string
// (c10::guts::to_string, an ostringstream); LibTorch 2.x keys it by the pointer itself (void*)
// and has no c10::guts::to_string. The map's own key type says which.

#include <ATen/core/Tensor.h>
#include <torch/optim/optimizer.h>

#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

namespace ddplab {

using OptimizerStateKey =
    typename std::decay_t<decltype(std::declval<torch::optim::Optimizer&>().state())>::key_type;

// A template so that only the branch of this LibTorch's key type is compiled.
template <class Key = OptimizerStateKey>
Key optimizerStateKey(const at::Tensor& parameter)
{
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;  // as c10::guts::to_string writes a pointer
        text << parameter.unsafeGetTensorImpl();
        return text.str();
    } else {
        return parameter.unsafeGetTensorImpl();
    }
}

}  // namespace ddplab
