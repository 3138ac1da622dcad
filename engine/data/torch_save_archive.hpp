// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A file written by torch.save (or torch::pickle_save), read with LibTorch's unpickler but
// without trusting it: LibTorch 1.13 makes each storage as large as the pickle claims and
// trusts every view's sizes, strides and offset. Here each storage is the size its record
// really has, and tensorViewProblem says whether a view stays inside it, before any element is
// read; the pickle itself is looked over first (core/pickle_check.hpp: nesting, the stack, the
// memo) and handed to LibTorch in the instructions it reads. Used for the user's data
// (tensor_data), for checkpoints (checkpoint_file) and for a TorchScript archive's pickles and
// code (torchscript_model).

#include <ATen/core/ivalue.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ddplab {

// What the archive unpacks to, from its zip directory alone. Throws std::runtime_error when the
// file is no zip archive (or a damaged one).
uint64_t torchSaveUnpackedBytes(const std::string& path);

// A record of the archive LibTorch must not be given: what() says which and what is wrong with
// it ("holds a pickle (data.pkl) that nests values more than 1000 deep ...").
class UnreadableRecord : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The pickled value, its tensors over storages of their records' real sizes. Throws
// UnreadableRecord, or what LibTorch's reader throws (c10::Error, std::exception) for a file
// it cannot read.
c10::IValue unpickleTorchSave(const std::string& path);

// A TorchScript archive looked over before torch::jit::load reads it: every pickle (data.pkl,
// constants.pkl, the code's debug_pkl files; core/pickle_check.hpp) and the nesting of its code
// (code/*.py; core/code_nesting.hpp). Throws UnreadableRecord, or LibTorch's c10::Error for an
// archive its zip reader refuses.
void requireReadableModelArchive(const std::string& path);

// "" when `tensor`'s view lies inside its storage, else what is wrong ("has the shape [256, 8]
// with strides ... which reaches element ... of a storage of 64 elements").
std::string tensorViewProblem(const at::Tensor& tensor);

}  // namespace ddplab
