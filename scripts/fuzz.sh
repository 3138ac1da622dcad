#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets of tests/fuzz with clang (AddressSanitizer, UBSan) in the
# sanitizer leg's build-asan/ and runs each for a fixed number of inputs, starting from its kept
# corpus in tests/fuzz/corpus/. CI runs it short; any crash, hang or leak fails it with the input saved.
#   scripts/fuzz.sh [RUNS]        (default 20000 inputs per target)
#   scripts/fuzz.sh --build-only  builds the targets and stops (.ci/run builds them beside the
#                                 main pass's suites, then runs this leg)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = "--build-only" ]; then
  build_only=true
  shift
fi
runs=${1:-20000}
# The sanitizer leg's build (scripts/configure-asan.sh): the fuzz targets link the libraries its
# suites link, compiled once for both.
scripts/configure-asan.sh
scripts/check-deps.sh --build build-asan
targets=(config_parser event_stream stored_run lab_files tensor_extent pickle_check checkpoint_reader)
# The fuzz targets and what they link, nothing else (the engine and the suites are the sanitizer
# leg's to build).
cmake --build build-asan -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]/#/fuzz_}"
$build_only && exit 0

for target in "${targets[@]}"; do
  corpus="tests/fuzz/corpus/$target"
  # New finds go to a scratch folder: the kept corpus changes only when someone commits to it.
  scratch=$(mktemp -d)
  echo "fuzz: $target, $runs inputs from $(ls "$corpus" | wc -l) kept ones"
  build-asan/bin/fuzz_$target -runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="build-asan/$target-" -print_final_stats=1 "$scratch" "$corpus" 2>&1 | tail -n 4
  rm -rf "$scratch"
done
echo "fuzz: nothing found"
