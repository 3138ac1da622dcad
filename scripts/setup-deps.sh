#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages DDP Lab needs: to build, to run, to test and to benchmark.
# Idempotent: installs only what is missing, without Recommends (so every package the project
# uses must be named here; scripts/check-deps.sh proves it). Runs as root, or through sudo.
#   scripts/setup-deps.sh          install what is missing
#   scripts/setup-deps.sh --list   print the package names, one per line (for check-deps.sh)
set -euo pipefail

packages=(
  # --- building ------------------------------------------------------------------------
  cmake ninja-build g++ pkg-config  # the build itself
  binutils                          # readelf: scripts/check-deps.sh reads the built programs' libraries
  ccache                            # CI's legs share the compiles they have in common (.ci/run)
  lld                               # the linker: a tenth of GNU ld's CPU (CMakeLists.txt, DDPLAB_LLD)
  help2man                          # the programs' manual pages, made from their --help (packaging/install_program.cmake)
  libtorch-dev                      # LibTorch 1.13 (CPU) with c10d: the engine
  libgloo-dev                       # Gloo's headers, which Debian's c10d headers include
  libopenblas0-openmp               # a real BLAS for LibTorch (the default reference BLAS is ~70x slower)
  nlohmann-json3-dev                # JSON in the engine and its config files
  libcli11-dev                      # the engine's command line
  zlib1g-dev                        # reading the gzip-compressed Fashion-MNIST files
  qt6-base-dev                      # Qt Core, Gui, Widgets, Test: the window and the test suites
  qt6-charts-dev                    # the charts
  libqt6opengl6-dev                 # Qt Charts' CMake package needs Qt6OpenGL; only a Recommends of qt6-base-dev
  qt6-svg-dev                       # SVG export (the real package behind the virtual libqt6svg6-dev)
  # --- running, testing, benchmarking --------------------------------------------------
  dataset-fashion-mnist             # the real data, under /usr/share/datasets/fashion-mnist
  python3-torch                     # torchrun (cluster tests), the Python DDP peers (bench), golden files
  python3-numpy                     # .npy data: examples/export_examples.py, the own-model peer, tests/tools
  python3-optuna                    # bench/advisor_panel.py: Optuna's TPE beside the advisor (and tst_advisor_panel)
  xvfb xauth                        # the window without a display (screenshots, headless runs)
  fonts-dejavu-core                 # a font for the offscreen platform (chart text in tests and exports)
  openssh-server openssh-client     # remote runs: the window drives the engine over ssh (tests start their own sshd)
  slurmctld slurmd slurm-client munge  # the Slurm suite (tests/slurm) starts its own munged, slurmctld and slurmd
  # tests/tools/read_tensorboard.py: tst_tensorboard_export decodes the lab's TensorBoard files with
  # protoc-compiled copies of TensorBoard's .proto files (struct.proto comes with libprotobuf-dev)
  # and checks every record's CRC32C, without TensorBoard's own code
  protobuf-compiler libprotobuf-dev python3-protobuf python3-crc32c
  clang libclang-rt-14-dev          # the sanitizer build and its fuzz targets (ASan, UBSan, libFuzzer; scripts/sanitize.sh, scripts/fuzz.sh, CI)
  # --- the Debian package (scripts/package.sh, scripts/check-package.sh; CI) ------------
  dpkg-dev                          # dpkg-shlibdeps: the package's Depends from the programs' shared libraries
  appstream desktop-file-utils      # appstreamcli and desktop-file-validate check the metainfo and the desktop file
  lintian                           # Debian's own checks of the package (scripts/check-package.sh: no error, no warning)
)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

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
# openssh-server, munge, slurmctld and slurmd are here for their binaries: the remote-run tests
# start their own sshd on 127.0.0.1, the Slurm suite its own munged, slurmctld and slurmd.
# Installing them must not leave system daemons running that nobody asked for (sshd on port
# 22, a cluster controller), so while they are installed no service may start (policy-rc.d),
# and their services stay off.
services=()
for package in "${missing[@]}"; do
  case "$package" in
    openssh-server) services+=(ssh.service ssh.socket) ;;
    munge) services+=(munge.service) ;;
    slurmctld|slurmd) services+=("$package.service") ;;
  esac
done
if [ ${#services[@]} -gt 0 ] && [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\n# scripts/setup-deps.sh: no service starts while it installs packages\nexit 101\n' |
    "${as_root[@]}" tee /usr/sbin/policy-rc.d >/dev/null
  "${as_root[@]}" chmod 755 /usr/sbin/policy-rc.d
  trap '"${as_root[@]}" rm -f /usr/sbin/policy-rc.d' EXIT
fi

echo "setup-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
if [ ${#services[@]} -gt 0 ] && command -v systemctl >/dev/null; then
  "${as_root[@]}" systemctl disable --now "${services[@]}" >/dev/null 2>&1 || true
  echo "setup-deps: ${services[*]} are installed for the tests only and stay off" \
       "(sudo systemctl enable --now ssh to serve this machine over SSH)"
fi
