#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# GPU second light, in one call of at most 8 minutes on a lent GPU machine (docs/gpu-validation.md):
# the engine built as for first light, then scripts/gpu_second_light.py's table (checkpoint and
# resume, accumulate_as_ranks, a steps batch schedule, a scripted resnet18 against the Python peer
# with its peak GPU memory, the hostile own-model files with device cuda). Each part writes its
# own file into OUT as it goes, so a call cut short still brings back what was done.
#   scripts/gpu-second-light.sh OUT [CARRIED [gpu_second_light.py's options, e.g. --only deterministic]]
# CARRIED (default .gpu): scripts/gpu-carry.sh's folder, with hostile/ beside it, written here by
#   /usr/bin/python3 tests/tools/make_own_model_case.py .gpu/hostile
#   /usr/bin/python3 tests/tools/make_hostile_model_case.py .gpu/hostile
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-second-light.sh OUT [CARRIED]}
carried=$(realpath "${2:-.gpu}")
export PYTHONUNBUFFERED=1
started=$(date +%s)
scripts/gpu-prepare.sh "$out" "$carried"

engine=build-gpu/bin/ddplab-engine
if [[ -x $engine ]]; then
  "$engine" devices >"$out/devices.json" 2>&1
  timeout 330 python3 scripts/gpu_second_light.py --engine "$engine" --hostile "$carried/hostile" "${@:3}" 2>&1 | tee "$out/second-light.txt"
  echo "second light: exit ${PIPESTATUS[0]} at $(($(date +%s) - started)) s" | tee -a "$out/facts.txt"
fi
