// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Does a strided view stay inside the bytes of its storage? A tensor read from a user's file
// (torch.save) carries its sizes, strides and storage offset as the file says them, and
// LibTorch 1.13's unpickler trusts them: a view that reaches past its storage would read (and
// train on) whatever memory lies there, or crash the process. Plain integer arithmetic with
// every overflow checked, no LibTorch: the fuzz target fuzz_tensor_extent drives it directly.

#include <cstdint>
#include <string>
#include <vector>

namespace ddplab {

// More dimensions than any tensor of samples has; LibTorch's own kernels stop at 25.
constexpr size_t kMaxTensorDims = 25;

struct TensorLayout {
    std::vector<int64_t> sizes;
    std::vector<int64_t> strides;  // in elements, as LibTorch keeps them
    int64_t storageOffset = 0;     // in elements
    int64_t elementBytes = 0;
    int64_t storageBytes = 0;      // what the storage really holds
};

// Empty when every element of the view lies inside the storage; otherwise why not, for a
// person ("its stride -8 in dimension 0 is negative").
std::string tensorLayoutProblem(const TensorLayout& layout);

}  // namespace ddplab
