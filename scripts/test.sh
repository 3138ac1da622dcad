#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets everything up, builds, and runs every test suite (CTest). The README's second command;
# .ci/run calls it too. Right after configuring, scripts/check-deps.sh proves that set-up
# installs every package the build and the tests use (a machine that already had one would
# otherwise hide its absence from the list). Arguments go to ctest (e.g. -L unit).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh --configure-only
scripts/check-deps.sh
scripts/build.sh
cd build
# As many suites at a time as there are cores: a suite leaves much of the machine idle while
# its engines start, wait for each other and for time-outs (docs/ci.md has the figures). The
# suites that must not share the machine say so in tests/ (RUN_SERIAL, with the reason), and
# each long suite's COST makes ctest start it first.
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900 -j "$(nproc 2>/dev/null || echo 2)" "$@"
