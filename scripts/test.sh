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
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900 "$@"
