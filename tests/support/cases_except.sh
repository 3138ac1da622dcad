#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# cases_except.sh SUITE ENTRY...: runs the QtTest suite SUITE with every case of it but the
# ENTRYs, each a test function ("aFifoIsNotWaitedOn": all its rows) or one row of one
# ("craftedDataIsRefused:zip bomb"). The sanitizer build runs its long suites so
# (ddplab_add_test's SANITIZER_LEAVES_OUT, tests/CMakeLists.txt; docs/ci.md says which cases
# and why): a case added to a suite runs there unless it is named here. An entry that names no
# case of the suite fails the run, so that a renamed case cannot leave the list unseen.
set -euo pipefail
suite=$1
shift
declare -A leave=() used=()
for entry in "$@"; do leave[$entry]=1; done

# -datatags prints "CLASS FUNCTION" or "CLASS FUNCTION TAG" a line (the tag may hold spaces).
cases=()
while read -r _ function tag; do
  [ -n "$function" ] || continue
  if [ -n "${leave[$function]:-}" ]; then
    used[$function]=1
  elif [ -n "$tag" ] && [ -n "${leave[$function:$tag]:-}" ]; then
    used[$function:$tag]=1
  elif [ -n "$tag" ]; then
    cases+=("$function:$tag")
  else
    cases+=("$function")
  fi
done < <("$suite" -datatags)

for entry in "$@"; do
  if [ -z "${used[$entry]:-}" ]; then
    echo "cases_except.sh: '$entry' names no case of $(basename "$suite")" >&2
    exit 2
  fi
done
if [ "${#cases[@]}" -eq 0 ]; then
  echo "cases_except.sh: every case of $(basename "$suite") is left out" >&2
  exit 2
fi
echo "cases_except.sh: $(basename "$suite"): ${#cases[@]} cases, $# entries left out ($*)"
exec "$suite" "${cases[@]}"
