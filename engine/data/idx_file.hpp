#pragma once
// The IDX format of (Fashion-)MNIST, gzip-compressed: a magic number (two zero bytes, the
// element type 0x08 = unsigned byte, the number of dimensions), the dimensions as big-endian
// 32-bit integers, then the bytes. Torch-free: the launcher reads the files before it forks.

#include <cstdint>
#include <string>
#include <vector>

namespace ddplab {

struct IdxArray {
    std::vector<int64_t> dims;
    std::vector<uint8_t> bytes;
};

// Reads `path` and checks that it holds `expectedDims` dimensions. Every problem (missing,
// unreadable, corrupt, truncated, wrong format) throws DataError naming the file and what is
// wrong with it.
IdxArray readIdxGz(const std::string& path, int expectedDims);

}  // namespace ddplab
