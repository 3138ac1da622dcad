// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: the look over a pickle before LibTorch reads it (engine/core/pickle_check.hpp),
// alone and at speed. Whatever the bytes, it answers without overflow or a read out of bounds
// (the sanitizers would say), and what it accepts it accepts again once rewritten, unchanged
// and as deep: the rewritten pickle is in the instructions LibTorch reads, with no APPEND,
// SETITEM or short LONG1 left to rewrite.

#include "core/pickle_check.hpp"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const ddplab::PickleCheck check = ddplab::checkPickle(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!check.problem.empty()) {
        if (!check.readable.empty())
            std::abort();
        return 0;
    }
    if (check.depth < 0 || check.depth > ddplab::kMaxPickleDepth)
        std::abort();
    const ddplab::PickleCheck again = ddplab::checkPickle(check.readable);
    if (!again.problem.empty() || again.readable != check.readable || again.depth != check.depth)
        std::abort();
    return 0;
}
