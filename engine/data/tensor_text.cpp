// SPDX-License-Identifier: GPL-3.0-or-later
#include "tensor_text.hpp"

namespace ddplab {

std::string dtypeName(c10::ScalarType type)
{
    switch (type) {
    case c10::ScalarType::Float: return "float32";
    case c10::ScalarType::Double: return "float64";
    case c10::ScalarType::Half: return "float16";
    case c10::ScalarType::BFloat16: return "bfloat16";
    case c10::ScalarType::Long: return "int64";
    case c10::ScalarType::Int: return "int32";
    case c10::ScalarType::Short: return "int16";
    case c10::ScalarType::Char: return "int8";
    case c10::ScalarType::Byte: return "uint8";
    case c10::ScalarType::Bool: return "bool";
    default: return c10::toString(type);
    }
}

std::string shapeText(c10::IntArrayRef shape)
{
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

}  // namespace ddplab
