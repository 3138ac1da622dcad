#!/usr/bin/env bash
# Sets everything up and runs DDP Lab: the window when there is a display, otherwise a
# headless demonstration. The README's first command.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
scripts/build.sh
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -x build/bin/ddplab ]; then
  exec build/bin/ddplab "$@"
fi
exec scripts/demo.sh
