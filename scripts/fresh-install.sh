#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The Debian package on a truly fresh Debian 12, as ../shared/tools/fresh-machine tries the
# README's commands: a minimal bookworm debootstrapped once into DIR.base (kept, and the same
# base fresh-machine makes for the same DIR), copied to DIR, and a chroot into it as root. Here
# nothing is cloned and nothing installed beforehand (no git): the .deb is copied in and
#   apt-get install -y ./ddplab_<version>_amd64.deb
# installs it; then no compiler, CMake or Ninja may be present, `ddplab --preset
# seed000-four-ways --run --export out --quit` must write its charts and CSVs (it says how
# many), `ddplab-engine run` must train 2 ranks on the toy problem and a 2-rank CNN on
# Fashion-MNIST from an installed preset, and with man-db added `man` must show both manual
# pages. Prints each step's time; the whole log is DIR.log.
#   scripts/fresh-install.sh DEB [DIR]      (default DIR /tmp/fresh-deb; needs root and debootstrap)
set -u
deb=${1:?usage: scripts/fresh-install.sh DEB [DIR]}
root=${2:-/tmp/fresh-deb}
[ -f "$deb" ] || { echo "fresh-install: no $deb (scripts/package.sh builds it)"; exit 2; }
mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
base="$root.base"
if [ ! -x "$base/usr/bin/apt-get" ]; then
  t0=$(date +%s); debootstrap --variant=minbase bookworm "$base" "$mirror" > "$root.debootstrap.log" 2>&1 || { tail -5 "$root.debootstrap.log"; exit 1; }
  echo "debootstrap: $(( $(date +%s) - t0 )) s"
  cp /etc/apt/sources.list.d/debian.sources "$base/etc/apt/sources.list.d/" 2>/dev/null; rm -f "$base/etc/apt/sources.list"
fi
for m in dev/pts dev sys proc; do umount "$root/$m" 2>/dev/null; done
if grep -q " $root/" /proc/mounts; then echo "something is still mounted under $root: not removing it"; exit 1; fi
rm -rf --one-file-system "$root"; cp -a "$base" "$root"
for m in proc sys dev dev/pts; do mountpoint -q "$root/$m" || mount --bind "/$m" "$root/$m"; done
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cp /etc/hosts "$root/etc/hosts"
cp "$deb" "$root/root/"

# What runs inside: each step timed, the first that fails ends it.
cat > "$root/root/try-package.sh" <<'EOF'
set -eu
cd /root
step() { local t0; t0=$(date +%s); echo "== $*"; "$@"; echo "== $(( $(date +%s) - t0 )) s: $*"; }
step apt-get update -qq
export DEBIAN_FRONTEND=noninteractive
step apt-get install -y -qq ./ddplab_*_amd64.deb
for tool in cc gcc g++ c++ clang cmake ninja make; do
  if command -v "$tool" >/dev/null; then echo "a build tool is installed: $(command -v "$tool")"; exit 1; fi
done
echo "no compiler, cmake, ninja or make installed; $(dpkg-query -W | wc -l) packages"
step ddplab --preset seed000-four-ways --run --export out --quit
ls out
echo "the headless lesson wrote $(find out -type f | wc -l) files: $(find out -type f -name '*.png' | wc -l) PNG," \
     "$(find out -type f -name '*.svg' | wc -l) SVG, $(find out -type f -name '*.csv' | wc -l) CSV"
step ddplab-engine run --world-size 2 --batch-size 16 --lr 1e-3 --noise 1 --experiments 100 --events toy.jsonl
step ddplab-engine run --config /usr/share/ddplab/presets/seed003-cnn-2-ranks.json --max-steps 20 --events cnn.jsonl
tail -n 1 cnn.jsonl
ls -l /usr/share/doc/ddplab/copyright /usr/share/doc/ddplab/changelog.Debian.gz /usr/share/man/man1/ddplab*.1.gz
step apt-get install -y -qq --no-install-recommends man-db
for page in ddplab ddplab-engine; do
  MANWIDTH=80 man -P cat "$page" > "$page.man"
  echo "man $page: $(wc -l < "$page.man") lines; $(grep -A1 '^NAME' "$page.man" | tail -n 1 | sed 's/^ *//')"
done
EOF
t0=$(date +%s)
chroot "$root" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  bash /root/try-package.sh > "$root.log" 2>&1; rc=$?
echo "fresh-install of $(basename "$deb"): rc=$rc in $(( $(date +%s) - t0 )) s (log $root.log)"
grep '^== [0-9]' "$root.log"; tail -3 "$root.log"
for m in dev/pts dev sys proc; do umount "$root/$m" 2>/dev/null; done
exit $rc
