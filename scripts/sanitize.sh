#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds our code with AddressSanitizer and UndefinedBehaviorSanitizer (-DDDPLAB_SANITIZE=ON,
# clang) into build-asan/ and runs test tiers there: the engine's forking, threads and signal handling
# checked by the tools, not only by luck. Any report fails the run. Only the suites of the
# chosen tiers (and what they link and start, the engine among it) are built, so a tier costs
# what it runs. .ci/run runs it with no arguments.
#   scripts/sanitize.sh                 the engine's fast tier (-L unit -LE 'ui|setup'), then its
#                                       multi-process suites (-L multiprocess -LE 'ui|remote|slurm')
#                                       but two (below)
#   scripts/sanitize.sh -L unit         one selection, in ctest's own words (-L, -LE, -R, -E); the
#                                       window's fast tier so builds the ui/ libraries here too
#   scripts/sanitize.sh --build-only    builds what the run would run and stops (.ci/run builds it
#                                       beside the main pass's suites, then runs this leg)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=false
if [ "${1:-}" = "--build-only" ]; then
  build_only=true
  shift
fi
# build-asan/ with clang, shared with the fuzz targets (scripts/configure-asan.sh).
scripts/configure-asan.sh

# A selection is ctest's words split at spaces (none of ours has a space inside a word).
if [ $# -gt 0 ]; then
  selections=("$*")
else
  # Not the window's fast tier (-L ui) nor the checks over the sources (-L setup): the engine is
  # what forks, runs threads and handles signals. The ui/ libraries (Qt Core and widgets, one
  # thread, no fork) and their 19 suites were 39 % of this leg's build (715 of 1,820
  # job-seconds on a clean clone, docs/ci.md); they run in the main pass, and the parsers among
  # them (event stream, stored runs, presets, lessons, studies) are fuzzed under ASan and UBSan
  # by scripts/fuzz.sh. The setup suites read text and run none of our libraries.
  # Not tst_own_model_fidelity and tst_own_model_examples: they compare numbers with PyTorch's
  # and train the shipped examples, through the loading, launching and training code that
  # tst_own_model and tst_own_model_hostile run here too, and would add minutes under ASan.
  # They run in the main pass (docs/ci.md).
  selections=("-L unit -LE ui|setup" "-L multiprocess -LE ui|remote|slurm -E tst_own_model_fidelity|tst_own_model_examples")
fi

# Each suite's target has the suite's name (tests/CMakeLists.txt, ddplab_add_test).
suites_of() { (cd build-asan && ctest -N $1 | awk '/Test +#[0-9]+:/{print $3}'); }
targets=()
for selection in "${selections[@]}"; do
  mapfile -t -O "${#targets[@]}" targets < <(suites_of "$selection")
done
if [ "${#targets[@]}" -eq 0 ]; then
  echo "sanitize.sh: no suite matches ${selections[*]}" >&2
  exit 2
fi
cmake --build build-asan -j "$(nproc 2>/dev/null || echo 2)" --target "${targets[@]}"
$build_only && exit 0
# The sanitizers' runtimes (libasan, libubsan) are what these programs load beyond build/'s.
scripts/check-deps.sh --build build-asan

# LibTorch and Qt keep their static data to the end of the process: leaks at exit are theirs,
# not a finding. Everything else (overflows, use after free, undefined behaviour) stops the test.
# An allocation that cannot be had returns null, as glibc's does, so that the engine meets a
# batch that does not fit (tst_faults' --fail-at oom) as it does in a release build, not as
# ASan's abort.
# Cheaper than ASan's defaults, every check still made (docs/ci.md, seventh round: a whole
# suite 32 % less wall time, 21 % less CPU): an allocation and a free record 2 frames of their
# stack, not 30 (LibTorch allocates thousands of times as an engine starts; a report's own stack,
# where the bad access is, stays whole), and freed memory waits 16 MiB of later frees in
# quarantine before it is used again, not 256 (each rank held up to 256 MiB of freed tensors:
# a use after free is caught while the block is among the last 16 MiB a process freed).
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1:allocator_may_return_null=1:malloc_context_size=2:quarantine_size_mb=16
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export QT_QPA_PLATFORM=offscreen
cd build-asan
# Two suites at a time, as scripts/test.sh runs them (the ones that must be alone say so in
# tests/ with RUN_SERIAL): 302 s instead of 578 s one at a time for the multi-process suites
# (docs/ci.md). The long ones run here without the cases tests/engine/CMakeLists.txt names
# (SANITIZER_LEAVES_OUT): refusals of crafted bytes that the fuzz leg's parsers read under these
# sanitizers, and rows that take a path another row takes here (docs/ci.md, seventh round).
for selection in "${selections[@]}"; do
  ctest --output-on-failure --timeout 900 -j "$(nproc 2>/dev/null || echo 2)" $selection
done
