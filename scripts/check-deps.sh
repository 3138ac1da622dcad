#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The install list is complete: every Debian package that the build, the tests or the
# benchmarks use is installed by scripts/setup-deps.sh, i.e. named there or a hard dependency
# (Depends/Pre-Depends, recursively; never Recommends or Suggests) of a package named there.
# A machine that already has a package hides its absence from the list; this check does not
# depend on what happens to be installed, only on what is used.
#
#   scripts/check-deps.sh [--build DIR] [--packages FILE]
#
# What counts as used:
#   - what CMake found: the files behind every *_DIR (package config files), *_LIBRARY* and
#     single-owner *_INCLUDE_DIR entry of DIR/CMakeCache.txt, and the compiler (and its
#     launcher, ccache), ninja, cmake, and lld when the build links with it;
#   - once built, the shared libraries the programs in DIR/bin load (ldd);
#   - what tests and benchmarks run: Debian's python3 importing torch, numpy, optuna, protobuf and crc32c,
#     protoc (and struct.proto), torchrun, Xvfb and xauth, sshd/ssh/ssh-keygen, munged/mungekey/
#     slurmctld/slurmd/slurmstepd and srun/sbatch/squeue/scancel/sinfo/scontrol (the Slurm suite),
#     the Fashion-MNIST files, the BLAS LibTorch loads, a font, clang's libFuzzer when the fuzz
#     targets are configured, and what makes and checks the Debian package (help2man,
#     dpkg-shlibdeps, appstreamcli, desktop-file-validate, lintian).
# Essential packages (on every Debian image) count as installed.
# --packages FILE replaces the list setup-deps.sh prints (one name per line); the test of this
# check uses it. Exit 0: nothing outside; 1: the packages outside, each with the file that
# pulled it in; 2: the check itself could not run.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
list_file=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=${2:?--build needs a folder}; shift 2 ;;
    --packages) list_file=${2:?--packages needs a file}; shift 2 ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "check-deps: unknown argument \"$1\" (see --help)" >&2; exit 2 ;;
  esac
done
cache="$build/CMakeCache.txt"
[ -f "$cache" ] || { echo "check-deps: $cache is missing: configure first (scripts/build.sh)" >&2; exit 2; }
for tool in dpkg dpkg-query apt-cache readelf; do
  command -v "$tool" >/dev/null || { echo "check-deps: needs $tool (Debian)" >&2; exit 2; }
done

work=$(mktemp -d)
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
used="$work/used"      # path <TAB> why it is used
: > "$used"

use() {  # use PATH WHY: PATH is used (ignored when it does not exist: a probe reports that itself)
  [ -e "$1" ] && printf '%s\t%s\n' "$1" "$2" >> "$used"
  return 0
}

# --- what CMake found ---------------------------------------------------------------------
# A library counts when a link line of build.ninja names it: FindOpenGL also finds libEGL and
# libGLU, which nothing links. A package config counts by its own file (a folder such as
# cmake/Qt6Gui also holds other packages' plugin configs).
while IFS= read -r line; do
  name=${line%%:*}
  value=${line#*=}
  case "$value" in /*) ;; *) continue ;; esac
  case "$name" in
    *_DIR)
      package=${name%_DIR}
      lower=${package,,}
      for file in "$value/${package}Config.cmake" "$value/${lower}-config.cmake"; do
        [ -f "$file" ] && use "$file" "CMakeCache $name"
      done ;;
    *_LIBRARY|*_LIBRARY_*|*_LIBRARIES)
      [ -f "$value" ] && grep -qF "$value" "$build/build.ninja" 2>/dev/null && use "$value" "CMakeCache $name, linked" ;;
    *_EXECUTABLE|CMAKE_CXX_COMPILER|CMAKE_MAKE_PROGRAM|CMAKE_COMMAND)
      [ -f "$value" ] && use "$value" "CMakeCache $name" ;;
    *_INCLUDE_DIR|*_INCLUDE_DIRS)
      [ -d "$value" ] && use "$value" "CMakeCache $name (folder)" ;;
  esac
done < <(grep -E '^[A-Za-z0-9_]+:(PATH|FILEPATH|STRING|INTERNAL)=/' "$cache")
# A compiler launcher (ccache in CI) is named by its command, not its path.
launcher=$(sed -n 's/^CMAKE_CXX_COMPILER_LAUNCHER:[A-Z]*=//p' "$cache")
if [ -n "$launcher" ]; then
  launcher_path=$(command -v "$launcher" || true)
  if [ -n "$launcher_path" ]; then use "$(readlink -f "$launcher_path")" "CMakeCache CMAKE_CXX_COMPILER_LAUNCHER"; fi
fi

# --- what the built programs load -----------------------------------------------------------
# Programs that ask for their libraries alike (the same NEEDED entries, RPATH, RUNPATH and
# interpreter, from the one folder) load the same files, so ldd runs once for each such set:
# bin/ holds about 90 programs in about 20 sets, and ldd of one that loads LibTorch takes
# 0.2-0.3 s (docs/ci.md). One readelf reads them all; a link, or a file readelf cannot read,
# goes to ldd on its own.
programs=()
links=()
for program in "$build"/bin/*; do
  [ -x "$program" ] && [ -f "$program" ] || continue
  if [ -L "$program" ]; then links+=("$program"); else programs+=("$program"); fi
done
if [ ${#programs[@]} -gt 0 ]; then
  readelf -d -l "${programs[@]}" 2>/dev/null | awk -v programs="$(printf '%s\n' "${programs[@]}")" '
    /^File: / { name = substr($0, 7); next }
    /\((NEEDED|RPATH|RUNPATH)\)|program interpreter/ { sub(/^ *0x[0-9a-f]+ +/, ""); asks[name] = asks[name] "\n" $0 }
    END {
      n = split(programs, list, "\n")
      for (i = 1; i <= n; ++i) {
        if (list[i] == "") continue
        key = asks[list[i]]
        if (key == "" || !(key in first)) { first[key] = 1; print list[i] }
      }
    }' | while IFS= read -r program; do
    ldd "$program" 2>/dev/null | awk -v why="loaded by ${program##*/}" '/=> \// {print $3 "\t" why}'
  done >> "$used"
fi
for program in ${links[@]+"${links[@]}"}; do
  ldd "$program" 2>/dev/null | awk -v why="loaded by ${program##*/}" '/=> \// {print $3 "\t" why}' >> "$used"
done

# --- what the tests and benchmarks run ------------------------------------------------------
problems="$work/problems"
: > "$problems"
probe() {  # probe PACKAGE-HINT WHY PATH...: the first existing path is used, else a problem
  local hint=$1 why=$2 path
  shift 2
  for path in "$@"; do
    if [ -e "$path" ]; then use "$path" "$why"; return 0; fi
  done
  echo "  $hint: $why needs $1, which is missing (scripts/setup-deps.sh installs it)" >> "$problems"
}
torch_module=$(/usr/bin/python3 -c 'import importlib.util as u; print(u.find_spec("torch").origin)' 2>/dev/null || true)
probe python3-torch "the Python DDP peers (bench/) and golden files import torch with /usr/bin/python3" \
  "${torch_module:-/usr/lib/python3/dist-packages/torch/__init__.py}"
probe python3-torch "tests/engine/tst_cluster_launch runs" /usr/bin/torchrun
numpy_module=$(/usr/bin/python3 -c 'import importlib.util as u; print(u.find_spec("numpy").origin)' 2>/dev/null || true)
probe python3-numpy "examples/export_examples.py, the own-model peer and tests/tools write and read .npy files with" \
  "${numpy_module:-/usr/lib/python3/dist-packages/numpy/__init__.py}"
probe python3 "the benchmarks and tests/tools run" /usr/bin/python3
optuna_module=$(/usr/bin/python3 -c 'import importlib.util as u; print(u.find_spec("optuna").origin)' 2>/dev/null || true)
probe python3-optuna "bench/advisor_panel.py (and tst_advisor_panel) compare the advisor with Optuna's TPE, imported by" \
  "${optuna_module:-/usr/lib/python3/dist-packages/optuna/__init__.py}"
protobuf_module=$(/usr/bin/python3 -c 'import importlib.util as u; print(u.find_spec("google.protobuf").origin)' 2>/dev/null || true)
probe python3-protobuf "tests/tools/read_tensorboard.py decodes the TensorBoard exports with" \
  "${protobuf_module:-/usr/lib/python3/dist-packages/google/protobuf/__init__.py}"
crc32c_module=$(/usr/bin/python3 -c 'import importlib.util as u; print(u.find_spec("crc32c").origin)' 2>/dev/null || true)
probe python3-crc32c "tests/tools/read_tensorboard.py checks the TensorBoard records' CRCs with" \
  "${crc32c_module:-/usr/lib/python3/dist-packages/crc32c.so}"
probe protobuf-compiler "tests/tools/read_tensorboard.py compiles the TensorBoard .proto copies with" /usr/bin/protoc
probe libprotobuf-dev "the TensorBoard .proto copies import" /usr/include/google/protobuf/struct.proto
for file in train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz; do
  probe dataset-fashion-mnist "the Fashion-MNIST workload and its tests read" "/usr/share/datasets/fashion-mnist/$file"
done
probe xvfb "screenshots and the window without a display run" /usr/bin/Xvfb
probe xauth "xvfb-run needs" /usr/bin/xauth
probe openssh-server "the remote-run tests start their own" /usr/sbin/sshd
probe openssh-client "remote runs and their tests call" /usr/bin/ssh
probe openssh-client "the remote-run tests make keys with" /usr/bin/ssh-keygen
for daemon in slurmctld slurmd slurmstepd; do
  probe "${daemon/slurmstepd/slurmd}" "the Slurm suite (tests/slurm) runs its own" "/usr/sbin/$daemon"
done
probe munge "the Slurm suite (tests/slurm) runs its own" /usr/sbin/munged
probe munge "the Slurm suite (tests/slurm) makes its key with" /usr/sbin/mungekey
for client in srun sbatch squeue scancel sinfo scontrol; do
  probe slurm-client "the Slurm suite and the lab's Slurm launch template call" "/usr/bin/$client"
done
probe fonts-dejavu-core "offscreen charts draw their text with" /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || true)
probe libopenblas0-openmp "LibTorch computes with the BLAS behind libblas.so.3" "${blas:-/usr/lib/x86_64-linux-gnu/libblas.so.3}"
probe help2man "the build writes the programs' manual pages with" /usr/bin/help2man
probe dpkg-dev "scripts/package.sh (CPack) derives the package's Depends with" /usr/bin/dpkg-shlibdeps
probe appstream "scripts/check-package.sh validates the AppStream metainfo with" /usr/bin/appstreamcli
probe desktop-file-utils "scripts/check-package.sh validates the desktop file with" /usr/bin/desktop-file-validate
probe lintian "scripts/check-package.sh checks the package with" /usr/bin/lintian
if grep -q '^DDPLAB_HAVE_LLD:INTERNAL=1' "$cache"; then
  probe lld "the build links its programs and libraries with" /usr/bin/ld.lld
fi
if grep -q '^DDPLAB_FUZZ_TARGETS:INTERNAL=1' "$cache"; then
  fuzzer=$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | head -n 1 || true)
  probe libclang-rt-14-dev "the fuzz targets (tests/fuzz) link libFuzzer" "${fuzzer:-libclang_rt.fuzzer-x86_64.a}"
  probe clang "the sanitizer build and its fuzz targets are compiled by" /usr/bin/clang++
fi

# --- files to packages ---------------------------------------------------------------------
# dpkg's file lists, read once. A path may be packaged under its symlink target (alternatives)
# or without /usr (Debian 12 merged /lib into /usr/lib after packaging). A folder counts only
# when a single package owns it: /usr/include says nothing.
variants="$work/variants"   # variant <TAB> path <TAB> why
while IFS=$'\t' read -r path why; do
  real=$(readlink -f "$path")
  for variant in "$path" "$real" "${path#/usr}" "${real#/usr}"; do
    printf '%s\t%s\t%s\n' "$variant" "$path" "$why"
  done
done < <(sort -u -t$'\t' -k1,1 "$used") > "$variants"
owners="$work/owners"       # package <TAB> path <TAB> why
awk -F'\t' '
  NR == FNR { wanted[$1] = wanted[$1] ? wanted[$1] SUBSEP $2 "\t" $3 : $2 "\t" $3; next }
  FNR == 1 { package = FILENAME; sub(/.*\//, "", package); sub(/\.list$/, "", package); sub(/:.*/, "", package) }
  $0 in wanted { owned[$0] = owned[$0] ? owned[$0] " " package : package }
  END {
    for (variant in owned) {
      if (split(owned[variant], packages, " ") > 1 && system("test -d \"" variant "\"") == 0) continue
      n = split(wanted[variant], uses, SUBSEP)
      for (i = 1; i <= n; ++i) for (p in packages) print packages[p] "\t" uses[i]
    }
  }' "$variants" /var/lib/dpkg/info/*.list | sort -u > "$owners"

# --- the install closure -------------------------------------------------------------------
if [ -n "$list_file" ]; then
  listed=$(grep -v '^[[:space:]]*\(#\|$\)' "$list_file")
else
  listed=$(scripts/setup-deps.sh --list)
fi
closure="$work/closure"
# shellcheck disable=SC2086
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
  $listed 2>/dev/null | awk '/^[^ ]/ {gsub(/[<>]/, ""); print}' | sort -u > "$closure"
dpkg-query -W -f='${Package} ${Essential}\n' 2>/dev/null | awk '$2 == "yes" {print $1}' >> "$closure"
sort -u -o "$closure" "$closure"

outside="$work/outside"
# One line per package: the first file that pulled it in, and how many more did.
awk -F'\t' 'NR == FNR {inside[$1] = 1; next}
  !($1 in inside) { if (!($1 in first)) { first[$1] = $2 " (" $3 ")"; order[++n] = $1 } else more[$1]++ }
  END { for (i = 1; i <= n; ++i) printf "  %-28s %s%s\n", order[i], first[order[i]], more[order[i]] ? " and " more[order[i]] " more" : "" }' \
  "$closure" "$owners" > "$outside"

used_count=$(cut -f1 "$owners" | sort -u | wc -l)
if [ -s "$outside" ] || [ -s "$problems" ]; then
  if [ -s "$outside" ]; then
    echo "check-deps: $(wc -l < "$outside") package(s) used but not installed by scripts/setup-deps.sh"
    echo "(neither named there nor a hard dependency of a package named there):"
    cat "$outside"
    echo "Name each in scripts/setup-deps.sh, with why it is there, or stop using it."
  fi
  if [ -s "$problems" ]; then
    echo "check-deps: what the tests and benchmarks use is missing on this machine:"
    cat "$problems"
  fi
  exit 1
fi
echo "check-deps: all $used_count Debian packages the build, tests and benchmarks use are installed by scripts/setup-deps.sh"
