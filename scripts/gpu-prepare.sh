#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The first part of every call on a lent GPU machine (docs/gpu-validation.md): the machine's facts
# into OUT/facts.txt, the carried data where the engine looks for it, and the engine built against
# the machine's PyTorch LibTorch into build-gpu/ (the log in OUT/build.log, the errors apart).
#   scripts/gpu-prepare.sh OUT CARRIED
# CARRIED: what scripts/gpu-carry.sh wrote (fashion-mnist/, common-licenses/, include/).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-prepare.sh OUT CARRIED}
carried=$(realpath "${2:?usage: scripts/gpu-prepare.sh OUT CARRIED}")
mkdir -p "$out"

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
exit "$built"
