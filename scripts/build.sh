#!/usr/bin/env bash
# Configures and builds everything into build/ (engine, window, tests, benchmarks).
# Extra arguments go to CMake, e.g. scripts/build.sh -DDDPLAB_BUILD_UI=OFF
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j "$jobs"
