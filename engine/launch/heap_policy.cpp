// SPDX-License-Identifier: GPL-3.0-or-later
#include "heap_policy.hpp"

// __GLIBC__ comes from <features.h>, which every C and C++ library header includes: one must come
// before the test, or the policy is compiled out without a word. It was, once LibTorch's
// precompiled header no longer came first (1b76dcf): the toy's steps took 4x their CPU and
// tst_fashion_mnist's steady steps faulted 52 pages each (it allows 40).
#include <cstdlib>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ddplab {
namespace {

#if defined(__GLIBC__)
// Blocks up to this size come from the heap and are reused. 32 MiB is the largest value every
// 64-bit glibc accepts; a batch's activations above it are rare and costly enough that an
// mmap per allocation no longer shows.
constexpr int kLargestReusedBlock = 32 << 20;
// Free memory at the heap's top is returned to the kernel only beyond this.
constexpr int kRetainedHeapTop = 1 << 30;
#endif

}  // namespace

void keepFreedMemoryForReuse()
{
#if defined(__GLIBC__)
    // Either setting also turns off glibc's own adaptive thresholds, which is the point.
    mallopt(M_MMAP_THRESHOLD, kLargestReusedBlock);
    mallopt(M_TRIM_THRESHOLD, kRetainedHeapTop);
#endif
}

}  // namespace ddplab
