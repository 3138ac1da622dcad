#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Configures build-asan/, the one build of the sanitizer leg (scripts/sanitize.sh) and the fuzzing
# (scripts/fuzz.sh): clang, AddressSanitizer and UndefinedBehaviorSanitizer over every target of
# ours, and libFuzzer's coverage, so that the suites and the fuzz targets link the same compiled
# libraries (a fuzz build of their own compiled the engine's core a second time: docs/ci.md,
# fifteenth round). Both scripts call it, so neither changes what the other configured.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang++ >/dev/null || { echo "configure-asan: clang++ is missing (scripts/setup-deps.sh installs clang)" >&2; exit 1; }
# -O1 -g1: line numbers in the reports, and a third less compile time than -O2 -g on the
# LibTorch-heavy files; NDEBUG as in the release build, so the code checked is the code shipped.
cmake -S . -B build-asan -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DDDPLAB_SANITIZE=ON -DDDPLAB_BUILD_BENCH=OFF -DDDPLAB_PCH=ON >/dev/null
