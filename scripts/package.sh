#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package build/package/ddplab_<version>-<revision>_amd64.deb with CPack (the
# version and revision of packaging/debian/changelog's newest entry): the window, the engine,
# their manual pages, the desktop file, icons, AppStream metainfo, the engine's presets, the
# examples script, the documents, the copyright file and the Debian changelog
# (packaging/CMakeLists.txt), Depends from the programs' shared libraries (dpkg-shlibdeps). scripts/check-package.sh checks it; CI runs both after scripts/test.sh.
#
# It packages build/ as scripts/build.sh leaves it (building what changed, or configuring and
# building it first). The engine must load only what Debian packages install: an engine built
# against a CUDA toolkit found under /usr/local/cuda (every build here and in CI) needs a
# runtime no Debian package has. Then, and when build/ has no engine, the engine alone is built
# once more without CUDA into build-package-engine/ (Debian's CPU LibTorch, Gloo) and the
# package takes the window from build/, the engine from there (install components `window`
# and `engine`).
#   scripts/package.sh     build the package; prints its path
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

scripts/setup-deps.sh   # dpkg-dev (dpkg-shlibdeps) and the build's own packages
if [ -f build/CMakeCache.txt ]; then
  cmake --build build -j "$jobs"
else
  scripts/build.sh
fi
[ -f build/CPackConfig.cmake ] || {
  echo "package: build/ has no window (configured with -DDDPLAB_BUILD_UI=OFF): nothing to package" >&2; exit 1; }

# unowned_needs PROGRAM: the shared libraries PROGRAM links directly that no Debian package owns.
unowned_needs() {
  local program=$1 name path
  for name in $(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    path=$(ldd "$program" | awk -v name="$name" '$1 == name {print $3}')
    if [ -z "$path" ] || [ ! -e "$path" ]; then echo "$name (not found)"; continue; fi
    dpkg-query -S "$path" >/dev/null 2>&1 || dpkg-query -S "$(readlink -f "$path")" >/dev/null 2>&1 ||
      dpkg-query -S "${path#/usr}" >/dev/null 2>&1 || echo "$path"
  done
}

engine_build=build
if [ ! -x build/bin/ddplab-engine ]; then
  echo "package: build/ has no engine; building one for the package into build-package-engine/"
  engine_build=build-package-engine
elif unowned=$(unowned_needs build/bin/ddplab-engine) && [ -n "$unowned" ]; then
  echo "package: build/bin/ddplab-engine links what no Debian package installs (${unowned//$'\n'/, });" \
       "building the engine without CUDA for the package into build-package-engine/"
  engine_build=build-package-engine
fi
if [ "$engine_build" != build ]; then
  mkdir -p "$engine_build"
  cmake -S . -B "$engine_build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDDPLAB_BUILD_UI=OFF \
    -DDDPLAB_BUILD_TESTS=OFF -DDDPLAB_BUILD_BENCH=OFF -DDDPLAB_WITH_NCCL=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON > "$engine_build/configure.log" ||
    { cat "$engine_build/configure.log"; exit 1; }
  cmake --build "$engine_build" -j "$jobs" --target ddplab-engine
  unowned=$(unowned_needs "$engine_build/bin/ddplab-engine")
  [ -z "$unowned" ] || { echo "package: $engine_build/bin/ddplab-engine still links ${unowned//$'\n'/, }" >&2; exit 1; }
fi

rm -f build/package/ddplab_*.deb
cpack --config build/CPackConfig.cmake -B "$PWD/build/package" \
  -D CPACK_INSTALL_CMAKE_PROJECTS="$PWD/build;ddplab;window;/;$PWD/$engine_build;ddplab;engine;/" > build/package.log ||
  { cat build/package.log; exit 1; }
deb=$(ls build/package/ddplab_*.deb)
echo "package: $deb ($(du -h "$deb" | cut -f1)); check it with scripts/check-package.sh"
