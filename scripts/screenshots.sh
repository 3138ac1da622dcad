#!/usr/bin/env bash
# Photographs the window under Xvfb, as a new user sees it (a fresh home: no saved layout):
#   scripts/screenshots.sh WIDTHxHEIGHT OUT.png [SECONDS] [ddplab arguments...]
# e.g. scripts/screenshots.sh 1280x720 docs/screenshots/window-1280x720.png 25 --preset seed000-four-ways --run
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:?WIDTHxHEIGHT}
out=${2:?OUT.png}
seconds=${3:-8}
shift $(( $# < 3 ? $# : 3 ))
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$(dirname "$out")"
HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache" \
  xvfb-run -a -s "-screen 0 ${size}x24" sh -c "build/bin/ddplab $* & app=\$!; sleep $seconds; build/bin/ddplab-grab-screen '$out'; kill \$app; wait \$app 2>/dev/null || true"
echo "screenshots: $out"
