// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The central directory of a zip archive: each entry's name and the size it unpacks to, read
// without unpacking anything. TorchScript models and torch.save files are zip archives, and
// LibTorch allocates what an entry claims before it inflates it: a few megabytes deflated
// from gigabytes of zeros would take the machine's memory. Readers check the sum first
// (unpackedBytes) against the memory there is. No LibTorch: plain file reads.

#include <cstdint>
#include <string>
#include <vector>

namespace ddplab {

struct ZipEntry {
    std::string name;
    uint64_t unpackedBytes = 0;
    uint32_t crc32 = 0;  // of the unpacked bytes, as the directory records it
};

// Throws std::runtime_error with the reason, for a person ("no zip end record in its last
// 64 KiB"), when `path` is not a zip archive whose directory can be read.
std::vector<ZipEntry> readZipDirectory(const std::string& path);

// The sum of every entry's unpacked size, saturating at UINT64_MAX.
uint64_t unpackedBytes(const std::vector<ZipEntry>& entries);

}  // namespace ddplab
