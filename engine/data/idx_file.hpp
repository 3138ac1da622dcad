// SPDX-License-Identifier: GPL-3.0-or-later
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

// What a file must hold: its dimensions, where the first (the item count) may be anything
// from 1 to `maxItems` and the others must be exactly as given.
struct IdxShape {
    int64_t maxItems = 0;
    std::vector<int64_t> itemDims;  // {28, 28} for images, {} for labels
};

// Reads `path` and checks it against `shape` before allocating anything, and the whole gzip
// stream to its end, so a damaged file (its CRC or length) is refused, not trained on. Every
// problem (missing, unreadable, corrupt, truncated, wrong format or shape) throws DataError
// naming the file and what is wrong with it.
IdxArray readIdxGz(const std::string& path, const IdxShape& shape);

}  // namespace ddplab
