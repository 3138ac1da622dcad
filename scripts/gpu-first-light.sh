#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Everything one lent GPU machine is asked for, in one call (docs/gpu-validation.md): the facts
# of the machine, the engine built against its PyTorch LibTorch, `ddplab-engine devices`, the
# self-check table, and samples/s by per-GPU batch beside the Python peer. Each part writes its
# own file into OUT as it goes, so a call cut short still brings back what was done.
#   scripts/gpu-first-light.sh OUT [CARRIED]
# CARRIED (default .gpu): what scripts/gpu-carry.sh wrote for a machine without Debian's packages.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-first-light.sh OUT [CARRIED]}
export PYTHONUNBUFFERED=1
started=$(date +%s)
scripts/gpu-prepare.sh "$out" "${2:-.gpu}"

engine=build-gpu/bin/ddplab-engine
if [[ -x $engine ]]; then
  "$engine" devices >"$out/devices.json" 2>&1
  timeout 200 python3 scripts/gpu_selfcheck.py --engine "$engine" >"$out/selfcheck.txt" 2>&1
  echo "self-check: exit $?" | tee -a "$out/facts.txt"
fi
if [[ -x $engine ]]; then
  timeout 150 python3 scripts/gpu_throughput.py --engine "$engine" >"$out/throughput.txt" 2>&1
  echo "throughput: exit $? at $(($(date +%s) - started)) s" | tee -a "$out/facts.txt"
fi
