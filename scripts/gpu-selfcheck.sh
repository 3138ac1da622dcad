#!/usr/bin/env bash
# The GPU self-check (docs/gpu-validation.md): builds the engine alone against this machine's
# PyTorch LibTorch (with NCCL when it is there) into build-gpu/, then runs
# scripts/gpu_selfcheck.py: every check on 1 GPU and on all of them against CPU, the CNN against
# the Python peer, and one table to send back. Refuses on a machine without a CUDA GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
if ! "$python" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  echo "gpu-selfcheck: no CUDA GPU here (PyTorch's torch.cuda.is_available() is False, or PyTorch is missing):" \
       "run it on a machine with NVIDIA GPUs and PyTorch with CUDA" >&2
  exit 2
fi
torch_prefix=$("$python" -c 'import torch; print(torch.utils.cmake_prefix_path)')
nccl_root=$("$python" -c 'import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))' 2>/dev/null || echo /usr/local/cuda)
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DDDPLAB_BUILD_UI=OFF -DDDPLAB_BUILD_TESTS=OFF -DDDPLAB_BUILD_BENCH=OFF \
      -DCMAKE_PREFIX_PATH="$torch_prefix" -DDDPLAB_WITH_NCCL=ON -DNCCL_ROOT="$nccl_root"
cmake --build build-gpu -j "$(nproc)"
exec "$python" scripts/gpu_selfcheck.py --engine build-gpu/bin/ddplab-engine "$@"
