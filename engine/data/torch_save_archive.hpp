// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A file written by torch.save (or torch::pickle_save), read with LibTorch's unpickler but
// without trusting it: LibTorch 1.13 makes each storage as large as the pickle claims and
// trusts every view's sizes, strides and offset. Here each storage is the size its record
// really has, and tensorViewProblem says whether a view stays inside it, before any element is
// read. Used for the user's data (tensor_data) and for checkpoints (checkpoint_file).

#include <ATen/core/ivalue.h>

#include <cstdint>
#include <string>

namespace ddplab {

// What the archive unpacks to, from its zip directory alone. Throws std::runtime_error when the
// file is no zip archive (or a damaged one).
uint64_t torchSaveUnpackedBytes(const std::string& path);

// The pickled value, its tensors over storages of their records' real sizes. Throws what
// LibTorch's reader throws (c10::Error, std::exception) for a file it cannot read.
c10::IValue unpickleTorchSave(const std::string& path);

// "" when `tensor`'s view lies inside its storage, else what is wrong ("has the shape [256, 8]
// with strides ... which reaches element ... of a storage of 64 elements").
std::string tensorViewProblem(const at::Tensor& tensor);

}  // namespace ddplab
