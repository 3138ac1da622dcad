#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Prepares what the device tool carries to a lent GPU machine for scripts/gpu-first-light.sh
# (docs/gpu-validation.md): that machine has PyTorch with CUDA, a CUDA toolkit, nlohmann-json,
# zlib and NCCL, but neither Fashion-MNIST nor CLI11 nor Gloo's headers, which PyTorch's wheel
# leaves out although its ProcessGroupGloo.hpp includes them; and it cannot download anything.
#   scripts/gpu-carry.sh GLOO_CHECKOUT [OUT]
# GLOO_CHECKOUT: a clone of github.com/pytorch/gloo (the device tool's `fetch github:pytorch/gloo`
# gives a bare one; either works). OUT (default .gpu, which .git/info/exclude should name) gets:
#   fashion-mnist/     the four .gz files of Debian's dataset-fashion-mnist
#   common-licenses/   the texts the examples' language model trains on
#   include/CLI/       CLI11's headers (the engine's command line)
#   include/gloo/      Gloo's headers and a gloo/config.h for PyTorch's Linux wheel
# Not nlohmann/: the machine's own is the one LibTorch's headers agree with.
set -euo pipefail
cd "$(dirname "$0")/.."
gloo=${1:?usage: scripts/gpu-carry.sh GLOO_CHECKOUT [OUT]}
out=${2:-.gpu}
rm -rf "$out" && mkdir -p "$out/include"
cp -r /usr/share/datasets/fashion-mnist "$out/"
cp -r /usr/share/common-licenses "$out/"
cp -r /usr/include/CLI "$out/include/"
if git -C "$gloo" rev-parse --is-bare-repository 2>/dev/null | grep -q true; then
  git -C "$gloo" archive HEAD gloo | tar -x -C "$out/include"
else
  cp -r "$gloo/gloo" "$out/include/"
fi
find "$out/include/gloo" -type f ! -name '*.h' -delete
rm -rf "$out/include/gloo/test" "$out/include/gloo/benchmark" "$out/include/gloo/examples"
find "$out/include/gloo" -type d -empty -delete
# What Gloo's CMake writes from config.h.in for PyTorch's Linux build: version 0.5, the TCP
# transport, torch's dtypes. Only the headers c10d's ProcessGroupGloo.hpp includes are used.
cat >"$out/include/gloo/config.h" <<'H'
#pragma once
// Written by DDP Lab's scripts/gpu-carry.sh from Gloo's config.h.in, for building against
// PyTorch's Linux wheel, which links Gloo into libtorch_cpu but ships none of its headers.
#define GLOO_VERSION_MAJOR 0
#define GLOO_VERSION_MINOR 5
#define GLOO_VERSION_PATCH 0
#define GLOO_VERSION (GLOO_VERSION_MAJOR * 10000 + GLOO_VERSION_MINOR * 100 + GLOO_VERSION_PATCH)
#define GLOO_USE_CUDA 0
#define GLOO_USE_NCCL 0
#define GLOO_USE_ROCM 0
#define GLOO_USE_RCCL 0
#define GLOO_USE_REDIS 0
#define GLOO_USE_IBVERBS 0
#define GLOO_USE_MPI 0
#define GLOO_USE_AVX 0
#define GLOO_USE_LIBUV 0
#define GLOO_HAVE_TRANSPORT_TCP 1
#define GLOO_HAVE_TRANSPORT_TCP_TLS 0
#define GLOO_HAVE_TRANSPORT_IBVERBS 0
#define GLOO_HAVE_TRANSPORT_UV 0
#define GLOO_USE_TORCH_DTYPES 1
H
du -sh "$out"
