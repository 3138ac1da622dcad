#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks the Debian package scripts/package.sh built, by reading the .deb itself (dpkg-deb -I/-c/-x):
#   - its control fields: ddplab, the version of packaging/debian/changelog's newest entry (the
#     project's version and a Debian revision), amd64, a Maintainer at no reserved domain
#     (.example, .invalid, .test, .localhost), the project's Homepage;
#   - its contents: the three programs in /usr/bin with their manual pages, the desktop file, hicolor
#     icons (PNGs at 16, 32, 48, 64, 128 and 256 pixels, as their headers say, and the SVG), the
#     metainfo, the copyright file (DEP-5) and the Debian changelog, the documents, the examples
#     script (not executable: it needs python3-torch, a Suggests), the presets; nothing outside
#     /usr/bin and /usr/share, no build tool;
#   - the desktop file (desktop-file-validate) and the metainfo (appstreamcli validate --no-net;
#     its id, launchable, newest release, licence, homepage and bug tracker agree with the
#     package and the copyright file);
#   - lintian --pedantic: no error and no warning (its informational and pedantic tags are shown);
#   - Depends: none the package misses (the packages of every shared library its programs load,
#     of the Qt plugins they load at run time, and of the data its lessons read, are all installed
#     by Depends, recursively), none it does not need (each names a package that owns a library
#     a program links directly, or the data), and every package it names (Depends, Recommends,
#     Suggests) is one scripts/setup-deps.sh installs, so the lab was built and tested with it.
#
#   scripts/check-package.sh [DEB]   (default: build/package/ddplab_*.deb)
# Exit 0: the package is right; 1: what is wrong, one line each; 2: the check could not run.
set -euo pipefail
deb=${1:+$(realpath -- "$1")}
cd "$(dirname "$0")/.."

deb=${deb:-$(find build/package -maxdepth 1 -name 'ddplab_*.deb' 2>/dev/null | head -n 1)}
if [ -z "$deb" ] || [ ! -f "$deb" ]; then echo "check-package: no package (run scripts/package.sh first)" >&2; exit 2; fi
for tool in dpkg-deb dpkg-query apt-cache readelf ldd appstreamcli desktop-file-validate lintian; do
  command -v "$tool" >/dev/null || { echo "check-package: needs $tool (scripts/setup-deps.sh installs it)" >&2; exit 2; }
done

work=$(mktemp -d)
lintian_pid=""
trap '[ -z "$lintian_pid" ] || kill "$lintian_pid" 2>/dev/null; rm -rf "$work"' EXIT
problems="$work/problems"
: > "$problems"
problem() { echo "  $*" >> "$problems"; }

# lintian reads the .deb on its own and is the longest of these checks (7 s of 14 s here):
# it runs beside the others, and its tags are read at the end.
lintian --pedantic --display-info --tag-display-limit 0 --fail-on error,warning "$deb" > "$work/lintian" 2> "$work/lintian.err" &
lintian_pid=$!

app_id=io.github.ddplab.DDPLab
upstream_version=$(sed -n 's/^project(ddplab VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
version=$(sed -n '1s/^ddplab (\([^)]*\)).*/\1/p' packaging/debian/changelog)   # with the Debian revision
homepage=$(sed -n 's/^ *HOMEPAGE_URL "\([^"]*\)".*/\1/p' CMakeLists.txt)

# --- control fields ----------------------------------------------------------------------
field() { dpkg-deb -f "$deb" "$1" 2>/dev/null || true; }
[ "$(field Package)" = ddplab ] || problem "Package is '$(field Package)', not ddplab"
[ "${version%-*}" = "$upstream_version" ] || problem "packaging/debian/changelog's newest entry is $version, not the project's $upstream_version-REVISION"
[ "$(field Version)" = "$version" ] || problem "Version is '$(field Version)', not packaging/debian/changelog's $version"
[ "$(field Architecture)" = amd64 ] || problem "Architecture is '$(field Architecture)', not amd64"
[ "$(basename "$deb")" = "ddplab_${version}_amd64.deb" ] || problem "the file is $(basename "$deb"), not ddplab_${version}_amd64.deb"
if [ -z "$(field Maintainer)" ] || [ -z "$(field Description)" ]; then problem "Maintainer or Description is empty"; fi
# A reserved domain (RFC 2606, 6761) is nobody's: lintian takes it for a real one.
if field Maintainer | grep -Eq '\.(example|invalid|test|localhost)>?$'; then problem "Maintainer '$(field Maintainer)' is at a reserved domain, which reaches nobody"; fi
[ -n "$homepage" ] && [ "$(field Homepage)" = "$homepage" ] || problem "Homepage is '$(field Homepage)', not the project's HOMEPAGE_URL '$homepage' (CMakeLists.txt)"

# --- contents ----------------------------------------------------------------------------
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$work/contents"
required=(
  /usr/bin/ddplab /usr/bin/ddplab-headless /usr/bin/ddplab-engine
  /usr/share/man/man1/ddplab.1.gz /usr/share/man/man1/ddplab-headless.1.gz /usr/share/man/man1/ddplab-engine.1.gz
  /usr/share/doc/ddplab/copyright /usr/share/doc/ddplab/changelog.Debian.gz
  "/usr/share/applications/$app_id.desktop"
  "/usr/share/metainfo/$app_id.metainfo.xml"
  "/usr/share/icons/hicolor/scalable/apps/$app_id.svg"
  /usr/share/doc/ddplab/README.md /usr/share/doc/ddplab/docs/ui.md /usr/share/doc/ddplab/docs/own-model.md
  /usr/share/ddplab/examples/export_examples.py
  /usr/share/ddplab/presets/seed003-cnn-2-ranks.json   # scripts/fresh-install.sh runs it
)
sizes=(16 32 48 64 128 256)
for size in "${sizes[@]}"; do required+=("/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png"); done
for path in "${required[@]}"; do
  grep -qxF "$path" "$work/contents" || problem "missing $path"
done
for doc in docs/*.md; do
  grep -qxF "/usr/share/doc/ddplab/$doc" "$work/contents" || problem "missing /usr/share/doc/ddplab/$doc"
done
{ grep -v -e '^/$' -e '^/usr/$' -e '^/usr/bin/' -e '^/usr/share/' "$work/contents" || true; } |
  while IFS= read -r path; do problem "outside /usr/bin and /usr/share: $path"; done
{ grep -E '\.(a|h|hpp|cmake|o)$|/tst_|render-icon|/build/' "$work/contents" || true; } |
  while IFS= read -r path; do problem "a build file: $path"; done

root="$work/root"
dpkg-deb -x "$deb" "$root"
for program in ddplab ddplab-headless ddplab-engine; do
  [ -x "$root/usr/bin/$program" ] || problem "/usr/bin/$program is not executable"
done
# An executable Python script would make python3 a dependency, which alone could not run it.
if [ -x "$root/usr/share/ddplab/examples/export_examples.py" ]; then problem "the examples script is executable, but Depends has no python3 (and python3 alone could not run it)"; fi
for page in ddplab ddplab-headless ddplab-engine; do
  file="$root/usr/share/man/man1/$page.1.gz"
  [ -f "$file" ] || continue
  # help2man's title line: .TH DDPLAB "1" "November 2026" "ddplab 0.1.0" "User Commands"
  gzip -cd "$file" | grep -q "^\.TH ${page^^} \"1\" " || problem "/usr/share/man/man1/$page.1.gz is not the manual page of $page"
done
copyright="$root/usr/share/doc/ddplab/copyright"
if [ -f "$copyright" ]; then
  head -n 1 "$copyright" | grep -qx 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
    problem "the copyright file is not machine-readable (DEP-5: its first line is 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/')"
  grep -A2 -x 'Files: \*' "$copyright" | grep -qx 'License: GPL-3+' || problem "the copyright file does not give the project's files (Files: *) as GPL-3+"
  grep -qx "Source: $homepage" "$copyright" || problem "the copyright file's Source is not the Homepage $homepage"
fi
# A PNG's width and height are the big-endian words at bytes 16 and 20 of its header.
for size in "${sizes[@]}"; do
  png="$root/usr/share/icons/hicolor/${size}x${size}/apps/$app_id.png"
  [ -f "$png" ] || continue
  read -r width height < <(od -An -tu1 -j16 -N8 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8}')
  [ "$width x $height" = "$size x $size" ] || problem "the ${size}x${size} icon is $width x $height pixels"
done

# --- desktop file and metainfo ---------------------------------------------------------------
desktop="$root/usr/share/applications/$app_id.desktop"
metainfo="$root/usr/share/metainfo/$app_id.metainfo.xml"
if [ -f "$desktop" ]; then
  desktop-file-validate "$desktop" > "$work/desktop.log" 2>&1 || problem "desktop-file-validate: $(tr '\n' ' ' < "$work/desktop.log")"
  grep -qx 'Exec=ddplab' "$desktop" || problem "the desktop file does not start /usr/bin/ddplab (Exec=ddplab)"
  grep -qx "Icon=$app_id" "$desktop" || problem "the desktop file's Icon is not $app_id"
fi
if [ -f "$metainfo" ]; then
  appstreamcli validate --no-net "$metainfo" > "$work/appstream.log" 2>&1 ||
    problem "appstreamcli validate: $(grep -v '^$' "$work/appstream.log" | tr '\n' ' ')"
  grep -q "<id>$app_id</id>" "$metainfo" || problem "the metainfo's id is not $app_id"
  grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" || problem "the metainfo does not launch $app_id.desktop"
  newest=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "$metainfo" | head -n 1)
  [ "$newest" = "$upstream_version" ] || problem "the metainfo's newest release is '$newest', not $upstream_version"
  grep -q '<project_license>GPL-3.0-or-later</project_license>' "$metainfo" || problem "the metainfo's project_license is not GPL-3.0-or-later"
  grep -q "<url type=\"homepage\">$homepage</url>" "$metainfo" || problem "the metainfo's homepage is not $homepage"
  bugs=$(sed -n 's/.*<url type="bugtracker">\([^<]*\)<.*/\1/p' "$metainfo")
  [ -n "$bugs" ] || problem "the metainfo has no bug tracker (url type=\"bugtracker\")"
  if [ -f "$copyright" ] && [ -n "$bugs" ]; then
    grep -qx "Upstream-Contact: $bugs" "$copyright" || problem "the copyright file's Upstream-Contact is not the metainfo's bug tracker $bugs"
  fi
fi

# --- Depends ---------------------------------------------------------------------------------
# Package names of a relationship field, one clause per line, alternatives space-separated.
clauses() { field "$1" | tr ',' '\n' | sed -e 's/([^)]*)//g' -e 's/|/ /g' -e 's/:any//g' | awk 'NF {$1 = $1; print}'; }
clauses Depends > "$work/depends"
[ -s "$work/depends" ] || problem "Depends is empty (was dpkg-shlibdeps run? CPACK_DEBIAN_PACKAGE_SHLIBDEPS)"

# Owners of files, from dpkg's file lists read once; a path may be listed without /usr
# (Debian 12 merged /lib into /usr/lib after packaging) or under its link target.
owners() {  # owners FILE-OF-PATHS: "package<TAB>path" for each path some package owns
  while IFS= read -r path; do
    real=$(readlink -f "$path")
    for variant in "$path" "$real" "${path#/usr}" "${real#/usr}"; do printf '%s\t%s\n' "$variant" "$path"; done
  done < "$1" > "$work/variants"
  awk -F'\t' 'NR == FNR { wanted[$1] = wanted[$1] ? wanted[$1] SUBSEP $2 : $2; next }
    FNR == 1 { package = FILENAME; sub(/.*\//, "", package); sub(/\.list$/, "", package); sub(/:.*/, "", package) }
    $0 in wanted { n = split(wanted[$0], paths, SUBSEP); for (i = 1; i <= n; ++i) print package "\t" paths[i] }' \
    "$work/variants" /var/lib/dpkg/info/*.list | sort -u
}

# What the programs need: every library they load (ldd), the Qt plugins they load at run time
# (platforms: xcb with a display, offscreen without; SVG icons and images), and the data.
: > "$work/loaded"; : > "$work/direct"
for program in "$root"/usr/bin/*; do
  ldd "$program" > "$work/ldd" 2>&1 || true
  if grep -q 'not found' "$work/ldd"; then problem "${program#"$root"} loads what is not installed here: $(grep 'not found' "$work/ldd" | tr -s ' \t\n' ' ')"; fi
  awk '/=> \// {print $3}' "$work/ldd" >> "$work/loaded"
  for name in $(readelf -d "$program" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    awk -v name="$name" '$1 == name {print $3}' "$work/ldd" >> "$work/direct"
  done
done
plugins=/usr/lib/x86_64-linux-gnu/qt6/plugins
for plugin in platforms/libqxcb.so platforms/libqoffscreen.so imageformats/libqsvg.so iconengines/libqsvgicon.so; do
  echo "$plugins/$plugin" >> "$work/loaded"
done
data=(/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz)   # the Fashion-MNIST presets and lessons
printf '%s\n' "${data[@]}" >> "$work/loaded"
sort -u -o "$work/loaded" "$work/loaded"
owners "$work/loaded" > "$work/needed"
cut -f2 "$work/needed" | sort -u | comm -23 "$work/loaded" - | while IFS= read -r path; do
  problem "no Debian package installs $path, which the package needs"
done

closure() {  # closure NAME...: the packages NAMEs install, hard dependencies recursively
  apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
    "$@" 2>/dev/null | awk '/^[^ ]/ {gsub(/[<>]/, ""); print}' | sort -u
}
# shellcheck disable=SC2046
closure $(cat "$work/depends") > "$work/installed"
dpkg-query -W -f='${Package} ${Essential}\n' | awk '$2 == "yes" {print $1}' >> "$work/installed"
sort -u -o "$work/installed" "$work/installed"
# Packages of libraries the programs link directly first: the rest are theirs.
awk -F'\t' 'FILENAME == ARGV[1] {direct[$1] = 1; next} FILENAME == ARGV[2] {installed[$1] = 1; next}
  !($1 in installed) && !seen[$1]++ {print ($2 in direct ? 0 : 1) "\t" $1 "\t" $2}' \
  "$work/direct" "$work/installed" "$work/needed" | sort -t$'\t' -k1,1n -k2,2 | cut -f2- > "$work/missed"
head -n 8 "$work/missed" | while IFS=$'\t' read -r package path; do
  problem "Depends misses $package (for $path): it is not installed by Depends, recursively"
done
if [ "$(wc -l < "$work/missed")" -gt 8 ]; then problem "... and $(( $(wc -l < "$work/missed") - 8 )) more packages Depends misses"; fi

# Every clause of Depends must be needed: one of its alternatives owns a library a program links
# directly, or the data.
{ owners "$work/direct"; printf '%s\n' "${data[@]}" > "$work/data"; owners "$work/data"; } | cut -f1 | sort -u > "$work/justified"
while read -r -a alternatives; do
  ok=false
  for package in "${alternatives[@]}"; do grep -qxF "$package" "$work/justified" && ok=true; done
  $ok || problem "Depends names ${alternatives[*]}, which no program links directly and no lesson reads"
done < "$work/depends"

# Every package named anywhere must be one the lab's set-up installs (and one Debian 12 has).
scripts/setup-deps.sh --list > "$work/listed"
# shellcheck disable=SC2046
closure $(cat "$work/listed") > "$work/setup"
dpkg-query -W -f='${Package} ${Essential}\n' | awk '$2 == "yes" {print $1}' >> "$work/setup"
for relation in Depends Recommends Suggests; do
  while read -r -a alternatives; do
    ok=false
    for package in "${alternatives[@]}"; do grep -qxF "$package" "$work/setup" && ok=true; done
    $ok || problem "$relation names ${alternatives[*]}, which scripts/setup-deps.sh does not install: the lab was never built or tested with it"
  done < <(clauses "$relation")
done
# The examples script imports torch and numpy.
for package in python3-torch python3-numpy; do
  { clauses Recommends; clauses Suggests; } | tr ' ' '\n' | grep -qxF "$package" ||
    problem "neither Recommends nor Suggests names $package, which examples/export_examples.py imports"
done

# --- lintian (started above) ----------------------------------------------------------------
# Every tag it has (errors, warnings, informational, pedantic) is printed; errors and warnings fail.
# (As root, in CI, it also says on stderr that root is not recommended.)
lintian_rc=0
wait "$lintian_pid" || lintian_rc=$?
lintian_pid=""
if [ -s "$work/lintian" ]; then echo "check-package: lintian --pedantic:"; sed 's/^/  /' "$work/lintian"; fi
{ grep -E '^[EW]: ' "$work/lintian" || true; } | while IFS= read -r tag; do problem "lintian: $tag"; done
# Exit 2 is an error or a warning (listed above), 1 or 2 without one is lintian failing to run.
if [ "$lintian_rc" -ne 0 ] && ! grep -qE '^[EW]: ' "$work/lintian"; then
  problem "lintian could not check the package (exit $lintian_rc): $(tr '\n' ' ' < "$work/lintian.err")"
fi

if [ -s "$problems" ]; then
  echo "check-package: $deb is not right:"
  cat "$problems"
  exit 1
fi
echo "check-package: $deb is right: $(wc -l < "$work/contents") entries, $(du -h "$deb" | cut -f1);" \
     "Depends: $(field Depends)"
