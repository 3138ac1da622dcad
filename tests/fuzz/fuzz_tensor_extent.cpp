// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the check that a tensor read from a user's torch.save file stays inside its
// storage (engine/core/tensor_extent.hpp), given any sizes, strides, offset, element size and
// storage size. Whatever the input it answers without overflow (UBSan would say), and its
// answer agrees with the same question asked in 128-bit arithmetic: accepted means every
// element lies inside the storage, refused means some would not (or a count overflows).

#include "core/tensor_extent.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace {

int64_t take(const uint8_t*& data, size_t& size)
{
    int64_t value = 0;
    const size_t bytes = size < sizeof value ? size : sizeof value;
    std::memcpy(&value, data, bytes);
    data += bytes;
    size -= bytes;
    return value;
}

// The same question, answered with 128-bit integers: once the element count fits in 63 bits,
// the reach (sum of (size - 1) * stride) stays below 2^126.
bool insideByWideArithmetic(const ddplab::TensorLayout& layout)
{
    if (layout.sizes.size() != layout.strides.size() || layout.sizes.size() > ddplab::kMaxTensorDims || layout.elementBytes <= 0 ||
        layout.storageOffset < 0)
        return false;
    bool empty = false;
    for (size_t d = 0; d < layout.sizes.size(); ++d) {
        if (layout.sizes[d] < 0 || layout.strides[d] < 0)
            return false;
        empty = empty || layout.sizes[d] == 0;
    }
    if (empty)
        return true;
    __int128 elements = 1, last = layout.storageOffset;
    for (size_t d = 0; d < layout.sizes.size(); ++d) {
        elements *= layout.sizes[d];
        if (elements > INT64_MAX)
            return false;
    }
    for (size_t d = 0; d < layout.sizes.size(); ++d)
        last += __int128(layout.sizes[d] - 1) * layout.strides[d];
    return layout.storageBytes >= 0 && last + 1 <= layout.storageBytes / layout.elementBytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    ddplab::TensorLayout layout;
    const size_t dims = data[0] % (ddplab::kMaxTensorDims + 2);  // one more than allowed, too
    const size_t strides = data[1] & 1 ? dims : dims + (data[1] >> 1) % 2;  // now and then one too many
    data += 2;
    size -= 2;
    // Small values most of the time (real shapes, some negative), any 64-bit value one time in four.
    auto value = [&]() {
        const int64_t raw = take(data, size);
        return (raw & 3) == 3 ? raw : raw % 4096;
    };
    for (size_t d = 0; d < dims; ++d)
        layout.sizes.push_back(value());
    for (size_t d = 0; d < strides; ++d)
        layout.strides.push_back(value());
    layout.storageOffset = value();
    layout.elementBytes = int64_t(1) << (take(data, size) & 3);
    layout.storageBytes = take(data, size);

    const bool accepted = ddplab::tensorLayoutProblem(layout).empty();
    if (accepted != insideByWideArithmetic(layout))
        std::abort();
    return 0;
}
