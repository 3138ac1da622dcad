#!/usr/bin/env bash
# Builds everything of ours with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DDDPLAB_SANITIZE=ON) into build-asan/ and runs the fast tier and the engine's multi-process
# suites there: the forking, the threads and the signal handling checked by the tools, not
# only by luck. Any report fails the run. Not yet a leg of .ci/run (a whole ASan build has not
# yet been run through on the 2-core development machine); locally:
#   scripts/sanitize.sh [ctest arguments]   (default: -L unit, then the engine's multiprocess suites)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDDPLAB_SANITIZE=ON -DDDPLAB_BUILD_BENCH=OFF -DDDPLAB_PCH=ON >/dev/null
cmake --build build-asan -j "$(nproc 2>/dev/null || echo 2)"
# LibTorch and Qt keep their static data to the end of the process: leaks at exit are theirs,
# not a finding. Everything else (overflows, use after free, undefined behaviour) stops the test.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export QT_QPA_PLATFORM=offscreen
cd build-asan
if [ $# -gt 0 ]; then
  ctest --output-on-failure --timeout 900 "$@"
else
  ctest --output-on-failure --timeout 900 -L unit
  ctest --output-on-failure --timeout 900 -L multiprocess -LE 'ui|remote|slurm'
fi
