// SPDX-License-Identifier: GPL-3.0-or-later
#include "idx_file.hpp"

#include "core/data_error.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sys/stat.h>

namespace ddplab {
namespace {

constexpr uint8_t kUnsignedByte = 0x08;
constexpr uint8_t kGzipMagic[] = {0x1f, 0x8b};

struct GzCloser {
    void operator()(gzFile_s* file) const { gzclose(file); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

[[noreturn]] void fail(const std::string& path, const std::string& problem)
{
    throw DataError("data file " + path + " " + problem);
}

[[noreturn]] void failWithZlib(gzFile file, const std::string& path, const char* what)
{
    int code = 0;
    const char* message = gzerror(file, &code);
    const std::string detail = std::string(" (") + (message && *message ? message : "zlib error") + ") while reading " + what;
    if (code == Z_BUF_ERROR)
        fail(path, "is truncated: the compressed stream ends early" + detail);
    if (message && std::strstr(message, "incorrect data check"))
        fail(path, "is damaged: its contents do not match the gzip checksum (CRC)" + detail);
    if (message && std::strstr(message, "incorrect length check"))
        fail(path, "is damaged: its length does not match the gzip trailer" + detail);
    fail(path, "is corrupt" + detail);
}

// Reads exactly `size` bytes or says why not.
void readExactly(gzFile file, const std::string& path, void* target, size_t size, const char* what)
{
    auto* out = static_cast<uint8_t*>(target);
    size_t done = 0;
    while (done < size) {
        const unsigned chunk = unsigned(std::min<size_t>(size - done, 1u << 30));
        const int n = gzread(file, out + done, chunk);
        if (n < 0)
            failWithZlib(file, path, what);
        if (n == 0)
            fail(path, "is truncated: " + std::string(what) + " needs " + std::to_string(size) + " bytes, only " +
                           std::to_string(done) + " are there");
        done += size_t(n);
    }
}

// Whether the file starts as gzip does (zlib reads other files as they are).
bool isGzip(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    uint8_t head[2] = {};
    return in.read(reinterpret_cast<char*>(head), 2) && head[0] == kGzipMagic[0] && head[1] == kGzipMagic[1];
}

}  // namespace

IdxArray readIdxGz(const std::string& path, const IdxShape& shape)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        fail(path, errno == ENOENT ? "is missing (install Debian's dataset-fashion-mnist, or point data_dir at a folder "
                                     "with the four *-ubyte.gz files)"
                                   : std::string("cannot be read: ") + std::strerror(errno));
    if (!S_ISREG(info.st_mode))
        fail(path, "is not a regular file");
    GzFile file(gzopen(path.c_str(), "rb"));
    if (!file)
        fail(path, std::string("cannot be opened: ") + std::strerror(errno));

    const int dimensions = 1 + int(shape.itemDims.size());
    uint8_t magic[4];
    readExactly(file.get(), path, magic, sizeof magic, "the header");
    if (magic[0] != 0 || magic[1] != 0 || magic[2] != kUnsignedByte || magic[3] != dimensions) {
        char shown[16];
        std::snprintf(shown, sizeof shown, "%02x%02x%02x%02x", magic[0], magic[1], magic[2], magic[3]);
        fail(path, "is not an IDX file of unsigned bytes with " + std::to_string(dimensions) + " dimensions (magic 0x" +
                       shown + ", expected 0x0000080" + std::to_string(dimensions) + ")");
    }

    // The header is checked before anything is allocated from it: a damaged or hostile one must
    // not make the engine reserve gigabytes.
    IdxArray array;
    int64_t elements = 1;
    for (int d = 0; d < dimensions; ++d) {
        uint8_t raw[4];
        readExactly(file.get(), path, raw, sizeof raw, "the header");
        const int64_t dim = (int64_t(raw[0]) << 24) | (int64_t(raw[1]) << 16) | (int64_t(raw[2]) << 8) | raw[3];
        if (d == 0 && (dim < 1 || dim > shape.maxItems))
            fail(path, "says it holds " + std::to_string(dim) + " items; this file holds 1 to " +
                           std::to_string(shape.maxItems));
        if (d > 0 && dim != shape.itemDims[size_t(d - 1)])
            fail(path, "has dimension " + std::to_string(dim) + " where " + std::to_string(shape.itemDims[size_t(d - 1)]) +
                           " belongs (Fashion-MNIST images are 28x28)");
        array.dims.push_back(dim);
        elements *= dim;
    }
    // A gzip file's trailer states only its last member's size (a valid file may hold several,
    // as `cat a.gz b.gz` makes and `gzip -t` accepts): zlib checks each member's own CRC and
    // length while the data is read, and a short stream ends the read below.
    const int64_t headerBytes = 4 + 4 * int64_t(dimensions);
    const int64_t expected = headerBytes + elements;
    if (!isGzip(path) && int64_t(info.st_size) < expected)
        fail(path, "is truncated: the data needs " + std::to_string(elements) + " bytes, only " +
                       std::to_string(std::max<int64_t>(0, int64_t(info.st_size) - headerBytes)) + " are there");

    array.bytes.resize(size_t(elements));
    readExactly(file.get(), path, array.bytes.data(), array.bytes.size(), "the data");
    // To the end of the stream: only there does zlib compare the data with the CRC and length
    // in the trailer, and a file with more than its header says is not what it claims either.
    uint8_t extra[64];
    const int n = gzread(file.get(), extra, sizeof extra);
    if (n < 0)
        failWithZlib(file.get(), path, "the end of the file");
    if (n > 0)
        fail(path, "holds more data than its header says (" + std::to_string(expected) + " bytes)");
    return array;
}

}  // namespace ddplab
