// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A rank's allocation that failed, said in one sentence: at which step, with which batch per
// rank, and the allocator's own first line ("DefaultCPUAllocator: can't allocate memory: you
// tried to allocate ... bytes"). LibTorch's backtrace is not part of it: the trainer writes
// that to stderr, which the lab keeps in the run's stderr.log.

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ddplab {

class OutOfMemory : public std::runtime_error {
public:
    OutOfMemory(int64_t step, int64_t batchSize, const std::string& detail)
        : std::runtime_error("ran out of memory at step " + std::to_string(step) + " (batch " + std::to_string(batchSize) +
                             "): " + detail)
    {
    }
};

}  // namespace ddplab
