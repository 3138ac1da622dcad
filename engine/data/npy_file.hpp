// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// NumPy's .npy format, the part the lab reads: versions 1.0 to 3.0 of the header, C order,
// little-endian float32, float64, int64, int32 or uint8 ('<f4', '<f8', '<i8', '<i4', '|u1').
// The format is NumPy's own and fixed (numpy.lib.format): a magic string, a version, the
// header's length, a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': ...}
// padded with spaces, then the array's bytes. Anything else is refused with a sentence naming
// the config key and the file, what it holds and what is allowed.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ddplab {

struct NpyHeader {
    c10::ScalarType dtype = c10::ScalarType::Float;
    std::vector<int64_t> shape;
    int64_t dataOffset = 0;  // where the array's bytes begin
    int64_t dataBytes = 0;   // how many there are
};

// Reads and checks the header alone (the size of the array is known before it is read).
// Throws DataError(message, key).
NpyHeader readNpyHeader(const std::string& path, const std::string& key);

// Reads the array `header` describes into a new CPU tensor. Throws DataError when the file
// holds fewer bytes than its header promises, or more.
at::Tensor readNpyData(const std::string& path, const NpyHeader& header, const std::string& key);

}  // namespace ddplab
