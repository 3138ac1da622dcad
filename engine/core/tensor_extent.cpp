// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensor_extent.hpp"

namespace ddplab {
namespace {

std::string listText(const std::vector<int64_t>& values)
{
    std::string text = "[";
    for (size_t i = 0; i < values.size(); ++i)
        text += (i ? ", " : "") + std::to_string(values[i]);
    return text + "]";
}

}  // namespace

std::string tensorLayoutProblem(const TensorLayout& layout)
{
    const size_t dims = layout.sizes.size();
    if (layout.strides.size() != dims)
        return "has " + std::to_string(dims) + " sizes but " + std::to_string(layout.strides.size()) + " strides";
    if (dims > kMaxTensorDims)
        return "has " + std::to_string(dims) + " dimensions, more than the " + std::to_string(kMaxTensorDims) + " LibTorch works with";
    if (layout.elementBytes <= 0)
        return "has elements of " + std::to_string(layout.elementBytes) + " bytes";
    if (layout.storageOffset < 0)
        return "starts at element " + std::to_string(layout.storageOffset) + " of its storage, before its beginning";
    bool empty = false;
    for (size_t d = 0; d < dims; ++d) {
        if (layout.sizes[d] < 0)
            return "has the negative size " + std::to_string(layout.sizes[d]) + " in dimension " + std::to_string(d) + " (shape " +
                   listText(layout.sizes) + ")";
        if (layout.strides[d] < 0)
            return "has the negative stride " + std::to_string(layout.strides[d]) + " in dimension " + std::to_string(d) +
                   " (strides " + listText(layout.strides) + ")";
        empty = empty || layout.sizes[d] == 0;
    }
    if (empty)
        return {};  // no element is ever read
    int64_t elements = 1;
    for (size_t d = 0; d < dims; ++d) {
        if (__builtin_mul_overflow(elements, layout.sizes[d], &elements))
            return "has the shape " + listText(layout.sizes) + ", more elements than a 64-bit count holds";
    }
    // The last element the view reaches: offset + sum of (size - 1) * stride.
    int64_t last = layout.storageOffset;
    for (size_t d = 0; d < dims; ++d) {
        int64_t reach = 0;
        if (__builtin_mul_overflow(layout.sizes[d] - 1, layout.strides[d], &reach) || __builtin_add_overflow(last, reach, &last))
            return "has the shape " + listText(layout.sizes) + " with strides " + listText(layout.strides) +
                   ", which reach further than a 64-bit offset";
    }
    int64_t neededBytes = 0;
    if (__builtin_add_overflow(last, int64_t(1), &neededBytes) || __builtin_mul_overflow(neededBytes, layout.elementBytes, &neededBytes) ||
        neededBytes > layout.storageBytes)
        return "has the shape " + listText(layout.sizes) + " with strides " + listText(layout.strides) + " from element " +
               std::to_string(layout.storageOffset) + ", which reaches element " + std::to_string(last) + " of a storage of " +
               std::to_string(layout.storageBytes / layout.elementBytes) + " elements";
    return {};
}

}  // namespace ddplab
