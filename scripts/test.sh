#!/usr/bin/env bash
# Sets everything up, builds, and runs every test suite (CTest). The README's second command;
# .ci/run calls it too.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
cd build
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 900 "$@"
