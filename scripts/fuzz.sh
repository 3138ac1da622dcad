#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the libFuzzer targets of tests/fuzz with clang (AddressSanitizer, UBSan) into
# build-fuzz/ and runs each for a fixed number of inputs, starting from its kept corpus in
# tests/fuzz/corpus/. CI runs it short; any crash, hang or leak fails it with the input saved.
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
command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (scripts/setup-deps.sh installs clang)" >&2; exit 1; }
cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDDPLAB_FUZZ=ON >/dev/null
scripts/check-deps.sh --build build-fuzz
targets=(config_parser event_stream stored_run lab_files tensor_extent pickle_check checkpoint_reader)
# The fuzz targets and what they link, nothing else: the folders they link from hold other
# libraries too (the advisor's, 23 of the 124 compile steps of a whole build-fuzz).
cmake --build build-fuzz -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]/#/fuzz_}"
$build_only && exit 0

for target in "${targets[@]}"; do
  corpus="tests/fuzz/corpus/$target"
  # New finds go to a scratch folder: the kept corpus changes only when someone commits to it.
  scratch=$(mktemp -d)
  echo "fuzz: $target, $runs inputs from $(ls "$corpus" | wc -l) kept ones"
  build-fuzz/bin/fuzz_$target -runs="$runs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -artifact_prefix="build-fuzz/$target-" -print_final_stats=1 "$scratch" "$corpus" 2>&1 | tail -n 4
  rm -rf "$scratch"
done
echo "fuzz: nothing found"
