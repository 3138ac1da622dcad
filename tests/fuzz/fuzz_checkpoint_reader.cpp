// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the checkpoint reader (engine/train/checkpoint_file.cpp, readCheckpoint),
// LibTorch's unpickler included, given any pickle as a checkpoint's data.pkl. The input is the
// pickle; it is put in a zip archive as torch.save lays one out (archive/data.pkl, its version,
// and sixteen storage records of 8 KiB, so that the tensors a pickle names can be built) and
// read from a file, as resume_from reads it. Whatever the pickle holds, the reader answers with
// a checkpoint or a ConfigError naming resume_from: a crash, a hang, another exception or
// memory beyond the limit is a finding. The kept corpus is a lab checkpoint's pickle as the
// engine writes it and as PyTorch writes it back (torch.save(torch.load(path))).

#include "core/config_error.hpp"
#include "core/key_names.hpp"
#include "train/checkpoint_file.hpp"

#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

constexpr int kStorageRecords = 16;
constexpr size_t kStorageBytes = 8192;

void put16(std::string& out, uint32_t value)
{
    out += char(value & 0xff);
    out += char((value >> 8) & 0xff);
}

void put32(std::string& out, uint32_t value)
{
    put16(out, value & 0xffff);
    put16(out, value >> 16);
}

// A zip archive of stored (uncompressed) entries, as PyTorch's writer makes them.
std::string zipOf(const std::vector<std::pair<std::string, std::string>>& entries)
{
    std::string archive, directory;
    for (const auto& [name, data] : entries) {
        const uint32_t crc = uint32_t(::crc32(::crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(data.data()), uInt(data.size())));
        const uint32_t offset = uint32_t(archive.size());
        put32(archive, 0x04034b50);  // local file header
        put16(archive, 20);          // version needed
        put16(archive, 0);           // flags
        put16(archive, 0);           // stored
        put32(archive, 0);           // time, date
        put32(archive, crc);
        put32(archive, uint32_t(data.size()));
        put32(archive, uint32_t(data.size()));
        put16(archive, uint16_t(name.size()));
        put16(archive, 0);  // extra field
        archive += name + data;
        put32(directory, 0x02014b50);  // central directory header
        put16(directory, 20);
        put16(directory, 20);
        put16(directory, 0);
        put16(directory, 0);
        put32(directory, 0);
        put32(directory, crc);
        put32(directory, uint32_t(data.size()));
        put32(directory, uint32_t(data.size()));
        put16(directory, uint16_t(name.size()));
        put16(directory, 0);  // extra
        put16(directory, 0);  // comment
        put16(directory, 0);  // disk
        put16(directory, 0);  // internal attributes
        put32(directory, 0);  // external attributes
        put32(directory, offset);
        directory += name;
    }
    const uint32_t directoryOffset = uint32_t(archive.size());
    archive += directory;
    put32(archive, 0x06054b50);  // end of central directory
    put16(archive, 0);
    put16(archive, 0);
    put16(archive, uint16_t(entries.size()));
    put16(archive, uint16_t(entries.size()));
    put32(archive, uint32_t(directory.size()));
    put32(archive, directoryOffset);
    put16(archive, 0);
    return archive;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const std::string path = [] {
        const char* folder = std::getenv("TMPDIR");
        return std::string(folder && *folder ? folder : "/tmp") + "/fuzz_checkpoint_reader-" + std::to_string(::getpid()) + ".pt";
    }();
    std::vector<std::pair<std::string, std::string>> entries{{"archive/data.pkl", std::string(reinterpret_cast<const char*>(data), size)},
                                                              {"archive/version", "3\n"}};
    for (int i = 0; i < kStorageRecords; ++i)
        entries.push_back({"archive/data/" + std::to_string(i), std::string(kStorageBytes, char(i))});
    {
        std::ofstream file(path, std::ios::binary | std::ios::trunc);
        file << zipOf(entries);
        if (!file)
            std::abort();
    }
    try {
        ddplab::readCheckpoint(path);
    } catch (const ddplab::ConfigError& error) {
        if (error.key() != ddplab::key::kResumeFrom)
            std::abort();
    }
    return 0;
}
