#include "idx_file.hpp"

#include "core/data_error.hpp"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <sys/stat.h>

namespace ddplab {
namespace {

constexpr uint8_t kUnsignedByte = 0x08;
constexpr int64_t kMaxElements = int64_t(1) << 32;  // far beyond any IDX file of this kind

struct GzCloser {
    void operator()(gzFile_s* file) const { gzclose(file); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

[[noreturn]] void fail(const std::string& path, const std::string& problem)
{
    throw DataError("data file " + path + " " + problem);
}

// Reads exactly `size` bytes or says why not.
void readExactly(gzFile file, const std::string& path, void* target, size_t size, const char* what)
{
    auto* out = static_cast<uint8_t*>(target);
    size_t done = 0;
    while (done < size) {
        const unsigned chunk = unsigned(std::min<size_t>(size - done, 1u << 30));
        const int n = gzread(file, out + done, chunk);
        if (n < 0) {
            int code = 0;
            const char* message = gzerror(file, &code);
            const std::string detail = std::string(" (") + (message ? message : "zlib error") + ") while reading " + what;
            fail(path, (code == Z_BUF_ERROR ? "is truncated: the compressed stream ends early" : "is corrupt") + detail);
        }
        if (n == 0)
            fail(path, "is truncated: " + std::string(what) + " needs " + std::to_string(size) + " bytes, only " +
                           std::to_string(done) + " are there");
        done += size_t(n);
    }
}

}  // namespace

IdxArray readIdxGz(const std::string& path, int expectedDims)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        fail(path, errno == ENOENT ? "is missing (install Debian's dataset-fashion-mnist, or point data_dir at a folder "
                                     "with the four *-ubyte.gz files)"
                                   : std::string("cannot be read: ") + std::strerror(errno));
    GzFile file(gzopen(path.c_str(), "rb"));
    if (!file)
        fail(path, std::string("cannot be opened: ") + std::strerror(errno));

    uint8_t magic[4];
    readExactly(file.get(), path, magic, sizeof magic, "the header");
    if (magic[0] != 0 || magic[1] != 0 || magic[2] != kUnsignedByte || magic[3] != expectedDims) {
        char shown[16];
        std::snprintf(shown, sizeof shown, "%02x%02x%02x%02x", magic[0], magic[1], magic[2], magic[3]);
        fail(path, "is not an IDX file of unsigned bytes with " + std::to_string(expectedDims) + " dimensions (magic 0x" +
                       shown + ", expected 0x0000080" + std::to_string(expectedDims) + ")");
    }

    IdxArray array;
    int64_t elements = 1;
    for (int d = 0; d < expectedDims; ++d) {
        uint8_t raw[4];
        readExactly(file.get(), path, raw, sizeof raw, "the header");
        const int64_t dim = (int64_t(raw[0]) << 24) | (int64_t(raw[1]) << 16) | (int64_t(raw[2]) << 8) | raw[3];
        if (dim <= 0 || elements * dim > kMaxElements)
            fail(path, "has an impossible dimension " + std::to_string(dim) + " in its header");
        array.dims.push_back(dim);
        elements *= dim;
    }
    array.bytes.resize(size_t(elements));
    readExactly(file.get(), path, array.bytes.data(), array.bytes.size(), "the data");
    return array;
}

}  // namespace ddplab
