// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Whether this build is the one scripts/sanitize.sh makes (-DDDPLAB_SANITIZE=ON). The test and
// the engine it starts are built with the same flags, so the test's own build says it.
// AddressSanitizer keeps freed memory in quarantine (256 MiB by default) so that a use after
// free is caught, and shadows all memory: under it, a process's resident size and page faults
// say nothing about how our code allocates. Suites that measure those skip the measure there.

namespace ddplab::test {

// GCC says it with __SANITIZE_ADDRESS__, clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kBuiltWithAddressSanitizer = true;
#elif defined(__has_feature)
inline constexpr bool kBuiltWithAddressSanitizer = __has_feature(address_sanitizer);
#else
inline constexpr bool kBuiltWithAddressSanitizer = false;
#endif

inline constexpr const char* kNoMemoryMeasureUnderAddressSanitizer =
    "AddressSanitizer holds freed memory in quarantine and shadows all memory: resident size and "
    "page faults measure it, not our code (tests/support/sanitizer.hpp)";

}  // namespace ddplab::test
