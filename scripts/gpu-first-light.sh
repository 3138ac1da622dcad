#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Everything one lent GPU machine is asked for, in one call (docs/gpu-validation.md): the facts
# of the machine, the engine built against its PyTorch LibTorch, `ddplab-engine devices`, the
# self-check table, and samples/s by per-GPU batch beside the Python peer. Each part writes its
# own file into OUT as it goes, so a call cut short still brings back what was done.
#   scripts/gpu-first-light.sh OUT [CARRIED]
# CARRIED (default .gpu): what the device tool carried for a machine without Debian's packages:
# fashion-mnist/ (the four .gz files), common-licenses/ (examples' language model) and include/
# (nlohmann/, CLI/, zlib.h, zconf.h).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-first-light.sh OUT [CARRIED]}
carried=$(realpath "${2:-.gpu}")
mkdir -p "$out"
export PYTHONUNBUFFERED=1

{
  date -u
  nvidia-smi
  python3 -c 'import torch; print("PyTorch", torch.__version__, "CUDA", torch.version.cuda, "NCCL", torch.cuda.nccl.version(),
              "device", torch.cuda.get_device_name(0))'
  nvcc --version | tail -2
  cmake --version | head -1
  echo "cores $(nproc)"
  python3 - <<'PY'
import os, torch
include = os.path.join(os.path.dirname(torch.__file__), "include")
for header in ("gloo/algorithm.h", "caffe2/serialize/inline_container.h", "torch/csrc/distributed/c10d/ProcessGroupGloo.hpp"):
    print(header, "present" if os.path.exists(os.path.join(include, header)) else "MISSING")
try:
    import nvidia.nccl
    print("nvidia.nccl at", list(nvidia.nccl.__path__), os.listdir(list(nvidia.nccl.__path__)[0]))
except Exception as failure:
    print("nvidia.nccl:", failure)
PY
} >"$out/facts.txt" 2>&1
# Hopper: LibTorch's CMake package need not guess the GPU's architecture.
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}

if [[ ! -e /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ]]; then
  mkdir -p /usr/share/datasets && cp -r "$carried/fashion-mnist" /usr/share/datasets/
fi
[[ -d /usr/share/common-licenses ]] || cp -r "$carried/common-licenses" /usr/share/

started=$(date +%s)
THIRD_PARTY_INCLUDE="$carried/include" timeout 330 scripts/gpu-selfcheck.sh --build-only >"$out/build.log" 2>&1
built=$?
echo "build: exit $built after $(($(date +%s) - started)) s" | tee -a "$out/facts.txt"
if [[ $built -ne 0 ]]; then
  grep -E -B2 -A6 "error:|Error|FAILED" "$out/build.log" | head -400 >"$out/build-errors.txt"
fi

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
