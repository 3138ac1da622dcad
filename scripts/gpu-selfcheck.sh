#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The GPU self-check (docs/gpu-validation.md): builds the engine alone against this machine's
# PyTorch LibTorch (with NCCL when it is there) into build-gpu/, then runs
# scripts/gpu_selfcheck.py: every check on 1 GPU and on all of them against CPU, the CNN against
# the Python peer, and one table to send back. Refuses on a machine without a CUDA GPU.
#   scripts/gpu-selfcheck.sh [--build-only] [gpu_selfcheck.py's options]
# A GPU box without Debian's -dev packages: THIRD_PARTY_INCLUDE names a folder holding
# nlohmann/json.hpp, CLI/CLI.hpp and, when the box has no zlib.h, zlib.h and zconf.h.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if ! "$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  echo "gpu-selfcheck: no CUDA GPU here (PyTorch's torch.cuda.is_available() is False, or PyTorch is missing):" \
       "run it on a machine with NVIDIA GPUs and PyTorch with CUDA" >&2
  exit 2
fi
build_only=false
if [[ ${1:-} == --build-only ]]; then build_only=true; shift; fi
torch_prefix=$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)')
# The wheel's nvidia-nccl package (a namespace package in newer wheels: its __path__, not __file__).
nccl_root=$("$python" -c 'import nvidia.nccl; print(list(nvidia.nccl.__path__)[0])' 2>/dev/null || echo /usr/local/cuda)
extra=()
if [[ -n ${THIRD_PARTY_INCLUDE:-} ]]; then
  extra+=(-DDDPLAB_THIRD_PARTY_INCLUDE="$THIRD_PARTY_INCLUDE")
  # No zlib development package: its header from the folder, the library every system has.
  if [[ ! -e /usr/include/zlib.h && -e $THIRD_PARTY_INCLUDE/zlib.h ]]; then
    zlib=$(ldconfig -p | awk '/libz\.so\.1 .*x86-64/ {print $NF; exit}')
    extra+=(-DZLIB_INCLUDE_DIR="$THIRD_PARTY_INCLUDE" -DZLIB_LIBRARY="$zlib")
  fi
fi
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DDDPLAB_BUILD_UI=OFF -DDDPLAB_BUILD_TESTS=OFF -DDDPLAB_BUILD_BENCH=OFF \
      -DCMAKE_PREFIX_PATH="$torch_prefix" -DDDPLAB_WITH_NCCL=ON -DNCCL_ROOT="$nccl_root" "${extra[@]}"
# -k 0: every file that fails to compile is reported in one build, not the first alone.
cmake --build build-gpu -j "$(nproc)" -- -k 0
if $build_only; then exit 0; fi
exec "$python" scripts/gpu_selfcheck.py --engine build-gpu/bin/ddplab-engine "$@"
