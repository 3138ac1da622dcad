// SPDX-License-Identifier: GPL-3.0-or-later
#include "zip_directory.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace ddplab {
namespace {

// The zip format's records (PKWARE APPNOTE 4.3): signatures and fixed sizes.
constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kEntrySignature = 0x02014b50;
constexpr size_t kEndBytes = 22;
constexpr size_t kZip64LocatorBytes = 20;
constexpr size_t kZip64EndBytes = 56;
constexpr size_t kEntryBytes = 46;
constexpr uint16_t kZip64ExtraId = 0x0001;
// The end record sits within its comment's 64 KiB of the end of the file.
constexpr uint64_t kEndSearchBytes = kEndBytes + 0xFFFF;
// More entries than a model or a data set has; a directory claiming more is no archive of ours.
constexpr uint64_t kMaxEntries = 1'000'000;

uint64_t readLittle(const unsigned char* at, size_t bytes)
{
    uint64_t value = 0;
    for (size_t i = bytes; i-- > 0;)
        value = value << 8 | at[i];
    return value;
}

[[noreturn]] void notAZip(const std::string& why)
{
    throw std::runtime_error(why);
}

std::vector<unsigned char> readAt(std::ifstream& file, uint64_t offset, uint64_t bytes)
{
    std::vector<unsigned char> buffer(bytes);
    file.clear();
    file.seekg(std::streamoff(offset));
    if (!file.read(reinterpret_cast<char*>(buffer.data()), std::streamsize(bytes)))
        notAZip("its zip directory lies past the end of the file");
    return buffer;
}

// The size an entry unpacks to: 0xFFFFFFFF in the fixed record means "in the zip64 extra field".
uint64_t unpackedSize(const unsigned char* entry, const unsigned char* extra, size_t extraBytes)
{
    const uint64_t small = readLittle(entry + 24, 4);
    if (small != 0xFFFFFFFF)
        return small;
    for (size_t at = 0; at + 4 <= extraBytes;) {
        const uint16_t id = uint16_t(readLittle(extra + at, 2));
        const size_t length = size_t(readLittle(extra + at + 2, 2));
        if (at + 4 + length > extraBytes)
            break;
        if (id == kZip64ExtraId && length >= 8)
            return readLittle(extra + at + 4, 8);  // the unpacked size comes first
        at += 4 + length;
    }
    notAZip("a zip entry claims a zip64 size it does not give");
}

}  // namespace

std::vector<ZipEntry> readZipDirectory(const std::string& path)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        notAZip(std::string("cannot be read: ") + std::strerror(errno));
    file.seekg(0, std::ios::end);
    const uint64_t fileBytes = uint64_t(file.tellg());
    if (fileBytes < kEndBytes)
        notAZip("is too short to be a zip archive");
    const uint64_t tailBytes = std::min(fileBytes, kEndSearchBytes);
    const std::vector<unsigned char> tail = readAt(file, fileBytes - tailBytes, tailBytes);
    size_t end = tail.size() - kEndBytes + 1;
    do {
        --end;
    } while (end > 0 && readLittle(&tail[end], 4) != kEndSignature);
    if (readLittle(&tail[end], 4) != kEndSignature)
        notAZip("is not a zip archive (no end record)");
    uint64_t entries = readLittle(&tail[end + 10], 2);
    uint64_t directoryBytes = readLittle(&tail[end + 12], 4);
    uint64_t directoryOffset = readLittle(&tail[end + 16], 4);
    const uint64_t endOffset = fileBytes - tailBytes + end;
    if (entries == 0xFFFF || directoryBytes == 0xFFFFFFFF || directoryOffset == 0xFFFFFFFF) {
        if (endOffset < kZip64LocatorBytes)
            notAZip("claims a zip64 directory but has no zip64 locator");
        const std::vector<unsigned char> locator = readAt(file, endOffset - kZip64LocatorBytes, kZip64LocatorBytes);
        if (readLittle(locator.data(), 4) != kZip64LocatorSignature)
            notAZip("claims a zip64 directory but has no zip64 locator");
        const uint64_t zip64End = readLittle(&locator[8], 8);
        if (zip64End > fileBytes || fileBytes - zip64End < kZip64EndBytes)
            notAZip("has a zip64 end record past the end of the file");
        const std::vector<unsigned char> record = readAt(file, zip64End, kZip64EndBytes);
        if (readLittle(record.data(), 4) != kZip64EndSignature)
            notAZip("has no zip64 end record where its locator points");
        entries = readLittle(&record[32], 8);
        directoryBytes = readLittle(&record[40], 8);
        directoryOffset = readLittle(&record[48], 8);
    }
    if (entries > kMaxEntries || directoryOffset > fileBytes || directoryBytes > fileBytes - directoryOffset)
        notAZip("has a zip directory that does not fit in the file");

    const std::vector<unsigned char> directory = readAt(file, directoryOffset, directoryBytes);
    std::vector<ZipEntry> found;
    size_t at = 0;
    for (uint64_t i = 0; i < entries; ++i) {
        if (at + kEntryBytes > directory.size() || readLittle(&directory[at], 4) != kEntrySignature)
            notAZip("has a damaged zip directory (entry " + std::to_string(i) + ")");
        const size_t nameBytes = size_t(readLittle(&directory[at + 28], 2));
        const size_t extraBytes = size_t(readLittle(&directory[at + 30], 2));
        const size_t commentBytes = size_t(readLittle(&directory[at + 32], 2));
        if (at + kEntryBytes + nameBytes + extraBytes + commentBytes > directory.size())
            notAZip("has a damaged zip directory (entry " + std::to_string(i) + ")");
        ZipEntry entry;
        entry.name.assign(reinterpret_cast<const char*>(&directory[at + kEntryBytes]), nameBytes);
        entry.crc32 = uint32_t(readLittle(&directory[at + 16], 4));
        entry.unpackedBytes = unpackedSize(&directory[at], &directory[at + kEntryBytes + nameBytes], extraBytes);
        found.push_back(std::move(entry));
        at += kEntryBytes + nameBytes + extraBytes + commentBytes;
    }
    return found;
}

uint64_t unpackedBytes(const std::vector<ZipEntry>& entries)
{
    uint64_t total = 0;
    for (const ZipEntry& entry : entries) {
        if (__builtin_add_overflow(total, entry.unpackedBytes, &total))
            return std::numeric_limits<uint64_t>::max();
    }
    return total;
}

}  // namespace ddplab
