#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Photographs the window under Xvfb, as a new user sees it (a fresh home: no saved layout):
#   scripts/screenshots.sh WIDTHxHEIGHT OUT.png [SECONDS] [ddplab arguments...]
#   scripts/screenshots.sh WIDTHxHEIGHT OUT.png --scene SCENE [STUDY.json]
# e.g. scripts/screenshots.sh 1280x720 docs/screenshots/window-1280x720.png 25 --preset seed000-four-ways --run
# The second form brings the window to a scene a person reaches in a few clicks first
# (first-launch, setup-errors, study, runs-study, presentation-lesson, presentation:LESSON, slides:LESSON (every chart
# also exported as a slide, OUT-<chart>.png), predict:LESSON, study-switch, compare:LESSON, file-menu, lessons-menu, advise, advising, advice (its charts
# also written as Save advice… writes them, into OUT-files/): tests/ui/tools/window_scenes.cpp),
# e.g. scripts/screenshots.sh 1280x720 docs/screenshots/study-warned-1280x720.png --scene study tests/ui/data/toy-grid-study.json
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:?WIDTHxHEIGHT}
out=${2:?OUT.png}
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
mkdir -p "$(dirname "$out")"
fresh_home=(env HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_DATA_HOME="$home/.local/share" XDG_CACHE_HOME="$home/.cache")
if [ "${3:-}" = "--scene" ]; then
  scene=${4:?SCENE}
  "${fresh_home[@]}" xvfb-run -a -s "-screen 0 ${size}x24" build/bin/ddplab-window-scenes "$scene" "$out" ${5:+"$5"}
else
  seconds=${3:-8}
  shift $(( $# < 3 ? $# : 3 ))
  "${fresh_home[@]}" xvfb-run -a -s "-screen 0 ${size}x24" \
    sh -c "build/bin/ddplab $* & app=\$!; sleep $seconds; build/bin/ddplab-grab-screen '$out'; kill \$app; wait \$app 2>/dev/null || true"
fi
echo "screenshots: $out"
