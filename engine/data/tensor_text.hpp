// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tensors as messages and reports name them: dtypes as NumPy and PyTorch users write them
// ("float32", "int64", "uint8"), shapes as lists ("[64, 1, 28, 28]").

#include <c10/core/ScalarType.h>
#include <c10/util/ArrayRef.h>

#include <string>

namespace ddplab {

std::string dtypeName(c10::ScalarType type);
std::string shapeText(c10::IntArrayRef shape);

}  // namespace ddplab
