// SPDX-License-Identifier: GPL-3.0-or-later
#include "npy_file.hpp"

#include "core/data_error.hpp"
#include "core/tensor_extent.hpp"

#include <ATen/ATen.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace ddplab {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;
// NumPy writes headers of a few hundred bytes; a larger one is no .npy file of ours.
constexpr uint32_t kMaxHeaderBytes = 1 << 20;
// The keys of the header dict, exactly these, as NumPy's own reader demands.
constexpr const char* kHeaderKeys[] = {"descr", "fortran_order", "shape"};
// A header quoted in a message is cut here: a line for a person, not a dump.
constexpr size_t kQuotedHeaderChars = 80;
constexpr char kAllowed[] = "float32, float64, int64, int32 or uint8 ('<f4', '<f8', '<i8', '<i4', '|u1')";

[[noreturn]] void failNpy(const std::string& key, const std::string& path, const std::string& problem)
{
    throw DataError(key + " file " + path + " " + problem, key);
}

// The text after `'name':` in the header dict, up to the end of its value.
std::string fieldOf(const std::string& header, const std::string& name, const std::string& key, const std::string& path)
{
    for (const char quote : {'\'', '"'}) {
        const std::string label = std::string(1, quote) + name + std::string(1, quote);
        const size_t at = header.find(label);
        if (at == std::string::npos)
            continue;
        size_t start = header.find(':', at + label.size());
        if (start == std::string::npos)
            break;
        ++start;
        while (start < header.size() && header[start] == ' ')
            ++start;
        // A tuple runs to its closing parenthesis, anything else to the next comma or brace.
        const size_t end = header[start] == '(' ? header.find(')', start) + 1 : header.find_first_of(",}", start);
        if (end == std::string::npos || end == 0)
            break;
        return header.substr(start, end - start);
    }
    failNpy(key, path, "has no '" + name + "' in its .npy header (" + header.substr(0, kQuotedHeaderChars) + ")");
}

std::string quoted(const std::string& text)
{
    return text.size() <= kQuotedHeaderChars ? text : text.substr(0, kQuotedHeaderChars) + "...";
}

// The header dict's own keys (quoted names followed by a colon outside any tuple): NumPy
// refuses a header with any other, so does the lab.
void requireOnlyNumpyKeys(const std::string& header, const std::string& key, const std::string& path)
{
    int depth = 0;
    for (size_t at = 0; at < header.size(); ++at) {
        const char c = header[at];
        depth += c == '(' ? 1 : c == ')' ? -1 : 0;
        if ((c != '\'' && c != '"') || depth != 0)
            continue;
        const size_t close = header.find(c, at + 1);
        if (close == std::string::npos)
            break;
        const size_t colon = header.find_first_not_of(' ', close + 1);
        const std::string name = header.substr(at + 1, close - at - 1);
        at = close;
        if (colon == std::string::npos || header[colon] != ':')
            continue;  // a value, not a key
        if (std::find(std::begin(kHeaderKeys), std::end(kHeaderKeys), name) == std::end(kHeaderKeys))
            failNpy(key, path, "has the key '" + quoted(name) + "' in its .npy header, which NumPy neither writes nor reads "
                            "(a header holds descr, fortran_order and shape only); save it with numpy.save");
    }
}

c10::ScalarType dtypeOf(std::string descr, const std::string& key, const std::string& path)
{
    if (descr.size() >= 2 && (descr.front() == '\'' || descr.front() == '"'))
        descr = descr.substr(1, descr.size() - 2);
    if (descr.size() < 3)
        failNpy(key, path, "has the unknown dtype '" + descr + "'; .npy files may hold " + kAllowed);
    const char order = descr[0];
    const std::string kind = descr.substr(1);
    if (order == '>' && kind != "u1")
        failNpy(key, path, "holds big-endian numbers ('" + descr + "'); save them little-endian (numpy's default: "
                        "array.astype(array.dtype.newbyteorder('<')))");
    if (order != '<' && order != '|' && order != '=' && order != '>')
        failNpy(key, path, "has the unknown dtype '" + descr + "'; .npy files may hold " + kAllowed);
    if (kind == "f4")
        return c10::ScalarType::Float;
    if (kind == "f8")
        return c10::ScalarType::Double;
    if (kind == "i8")
        return c10::ScalarType::Long;
    if (kind == "i4")
        return c10::ScalarType::Int;
    if (kind == "u1")
        return c10::ScalarType::Byte;
    failNpy(key, path, "holds dtype '" + descr + "', which the lab does not read; .npy files may hold " + kAllowed +
                    " (convert with array.astype(numpy.float32), say)");
}

std::vector<int64_t> shapeOf(const std::string& text, const std::string& key, const std::string& path)
{
    if (text.size() < 2 || text.front() != '(' || text.back() != ')')
        failNpy(key, path, "has a shape the lab cannot read (" + quoted(text) + ")");
    std::vector<int64_t> shape;
    const std::string inside = text.substr(1, text.size() - 2);
    size_t at = 0;
    while (at < inside.size()) {
        const size_t comma = inside.find(',', at);
        std::string part = inside.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        part.erase(0, part.find_first_not_of(' '));
        part.erase(part.find_last_not_of(' ') + 1);
        if (!part.empty()) {
            char* end = nullptr;
            errno = 0;
            const long long value = std::strtoll(part.c_str(), &end, 10);
            if (*end != '\0' || errno == ERANGE || value < 0)
                failNpy(key, path, "has a shape the lab cannot read (" + quoted(text) + ")");
            shape.push_back(value);
            if (shape.size() > kMaxTensorDims)
                failNpy(key, path, "has a shape of more than " + std::to_string(kMaxTensorDims) + " dimensions (" + quoted(text) +
                                "), more than LibTorch works with");
        }
        if (comma == std::string::npos)
            break;
        at = comma + 1;
    }
    return shape;
}

}  // namespace

NpyHeader readNpyHeader(const std::string& path, const std::string& key)
{
    std::ifstream file(path, std::ios::binary);
    if (!file)
        failNpy(key, path, std::string("cannot be read: ") + std::strerror(errno));
    char prefix[kMagicBytes + 2] = {};
    if (!file.read(prefix, sizeof prefix) || std::memcmp(prefix, kMagic, kMagicBytes) != 0)
        failNpy(key, path, "is not a NumPy .npy file (numpy.save writes one; it begins with \\x93NUMPY)");
    const int major = static_cast<unsigned char>(prefix[kMagicBytes]);
    uint32_t headerBytes = 0;
    unsigned char length[4] = {};
    if (major == 1) {
        if (!file.read(reinterpret_cast<char*>(length), 2))
            failNpy(key, path, "is truncated inside its .npy header");
        headerBytes = uint32_t(length[0]) | uint32_t(length[1]) << 8;
    } else if (major == 2 || major == 3) {
        if (!file.read(reinterpret_cast<char*>(length), 4))
            failNpy(key, path, "is truncated inside its .npy header");
        headerBytes = uint32_t(length[0]) | uint32_t(length[1]) << 8 | uint32_t(length[2]) << 16 | uint32_t(length[3]) << 24;
    } else {
        failNpy(key, path, "is a .npy file of format version " + std::to_string(major) + ", which the lab does not read (1 to 3)");
    }
    if (headerBytes > kMaxHeaderBytes)
        failNpy(key, path, "has a .npy header of " + std::to_string(headerBytes) + " bytes, more than any NumPy writes");
    std::string header(headerBytes, '\0');
    if (!file.read(header.data(), std::streamsize(headerBytes)))
        failNpy(key, path, "is truncated inside its .npy header");

    requireOnlyNumpyKeys(header, key, path);
    NpyHeader parsed;
    parsed.dtype = dtypeOf(fieldOf(header, "descr", key, path), key, path);
    if (fieldOf(header, "fortran_order", key, path) != "False")
        failNpy(key, path, "is in Fortran (column-major) order; save it in C order: numpy.save(path, numpy.ascontiguousarray(array))");
    parsed.shape = shapeOf(fieldOf(header, "shape", key, path), key, path);
    if (parsed.shape.empty())
        failNpy(key, path, "holds a single number; the lab needs samples along a first dimension");
    parsed.dataOffset = int64_t(file.tellg());
    int64_t elements = 1;
    for (const int64_t size : parsed.shape) {
        if (size != 0 && elements > (int64_t(1) << 50) / size)
            failNpy(key, path, "claims a shape too large to hold in memory");
        elements *= size;
    }
    parsed.dataBytes = elements * int64_t(c10::elementSize(parsed.dtype));
    return parsed;
}

at::Tensor readNpyData(const std::string& path, const NpyHeader& header, const std::string& key)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        failNpy(key, path, std::string("cannot be read: ") + std::strerror(errno));
    const int64_t present = int64_t(info.st_size) - header.dataOffset;
    if (present < header.dataBytes)
        failNpy(key, path, "is truncated: its header promises " + std::to_string(header.dataBytes) + " bytes of data but it holds " +
                        std::to_string(std::max<int64_t>(0, present)));
    if (present > header.dataBytes)
        failNpy(key, path, "holds " + std::to_string(present - header.dataBytes) + " bytes more than its header describes");
    // Only an allocation: no tensor operation runs before the launcher forks its ranks.
    at::Tensor tensor = at::empty(header.shape, at::TensorOptions().dtype(header.dtype));
    std::ifstream file(path, std::ios::binary);
    file.seekg(header.dataOffset);
    if (!file.read(static_cast<char*>(tensor.data_ptr()), std::streamsize(header.dataBytes)))
        failNpy(key, path, std::string("could not be read to its end: ") + std::strerror(errno));
    return tensor;
}

}  // namespace ddplab
