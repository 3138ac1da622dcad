#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sets everything up and runs DDP Lab: the window when there is a display; without one, a
# lesson run headless (seed 000's four ways to use 8 GPUs) whose charts and CSVs land in
# demo-output/. The README's first command. Arguments go to the window (e.g. --preset NAME).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec build/bin/ddplab "$@"
fi
out="${DDPLAB_DEMO_DIR:-demo-output}"
echo "No display: running a lesson headless; its charts (PNG, SVG) and CSVs go to $out/"
exec env QT_QPA_PLATFORM=offscreen build/bin/ddplab --preset seed000-four-ways --run --export "$out" --quit
