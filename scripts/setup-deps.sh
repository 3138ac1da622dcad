#!/usr/bin/env bash
# Installs the Debian 12 packages DDP Lab needs. Idempotent: installs only what is missing.
# Runs as root, or through sudo when there is one.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  libtorch-dev libgloo-dev          # LibTorch 1.13 (CPU) with c10d + Gloo headers
  libopenblas0-openmp               # a real BLAS for LibTorch (the default reference BLAS is ~70x slower)
  nlohmann-json3-dev libcli11-dev zlib1g-dev
  qt6-base-dev qt6-charts-dev qt6-svg-dev   # qt6-svg-dev: the real package behind the virtual libqt6svg6-dev
  dataset-fashion-mnist             # the real data, under /usr/share/datasets/fashion-mnist
  python3-torch                     # the Python DDP peer and torchrun (tests, bench, golden files)
  xvfb xauth                        # the window without a display (screenshots, headless runs)
  fonts-dejavu-core
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
echo "setup-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
