// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How deep a TorchScript model's code may nest before LibTorch compiles it. torch::jit::load
// parses the archive's code/*.py with a recursive-descent parser and emits it recursively: an
// expression nested 10^4 deep (parentheses, or a run of unary minus signs) overflows an 8 MiB
// stack (SIGSEGV), and a model is code anyone may hand over. torch.jit.save prints one
// operation a line, a few levels deep. codeNestingProblem bounds what the parser could nest on
// each logical line from above, without parsing: the blocks it is indented in, its deepest
// brackets, and every operator character and operator keyword on it (each might open a level:
// a unary minus, `not`, a conditional expression, a right-associative power). Strings and
// comments count for nothing. No LibTorch: the fuzz targets drive it.

#include <cstdint>
#include <string>
#include <string_view>

namespace ddplab {

// More than TorchScript's own printing nests by far; a third of what overflowed the stack.
constexpr int64_t kMaxCodeNesting = 1000;

// "" when no logical line of `source` could nest more than kMaxCodeNesting deep; else which
// line and how deep, for a person ("line 12 could nest 100003 levels deep ...").
std::string codeNestingProblem(std::string_view source);

}  // namespace ddplab
