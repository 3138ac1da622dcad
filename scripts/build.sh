#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Configures and builds everything into build/ (engine, window, tests, benchmarks).
#   scripts/build.sh                      configure and build
#   scripts/build.sh --configure-only     configure only (scripts/test.sh checks the install list then)
# Other arguments go to CMake, e.g. scripts/build.sh -DDDPLAB_BUILD_UI=OFF
set -euo pipefail
cd "$(dirname "$0")/.."
configure_only=false
if [ "${1:-}" = "--configure-only" ]; then
  configure_only=true
  shift
fi
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
$configure_only || cmake --build build -j "$jobs"
