#!/usr/bin/env bash
# run.sh MIRRORS OUT — holdfast on Infer Pulse's C++ test suite, scored by
# function against the issues Pulse itself must report there.
#
# Pulse's tests (infer/tests/codetoanalyze/cpp/pulse of github:facebook/infer,
# at the commit pinned below) are written from the bare mirror
# MIRRORS/facebook+infer/repo (the `fetch` tool's layout; elsewhere
# `git clone --bare https://github.com/facebook/infer MIRRORS/facebook+infer/repo`)
# into OUT/pulse, scanned once with --all into OUT/pulse.json, and scored by
# score.py: of the functions where issues.exp lists a use after delete, free
# or lifetime end, a vector invalidation or an escaping stack address, how
# many hold a finding of the default output (and of --all); of the functions
# named *_ok / *_good, how many are flagged. Nothing of the suite is
# committed; OUT must be outside this repository.
set -euo pipefail
pin=be1b9a8dc1b0f8d2aac29136f5812d117da5fcd9
mirrors=${1:?usage: run.sh MIRRORS OUT}
out=${2:?usage: run.sh MIRRORS OUT}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
git=$mirrors/facebook+infer/repo
[[ -d $git/.git ]] && git=$git/.git
git --git-dir="$git" cat-file -e "$pin^{commit}" 2>/dev/null ||
  { echo "run.sh: commit $pin is not in $git (fetch github:facebook/infer)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $out/ in "$root"/*) echo "run.sh: OUT must be outside $root" >&2; exit 2 ;; esac
suite=infer/tests/codetoanalyze/cpp/pulse
rm -rf "$out/pulse"
mkdir -p "$out/pulse"
git --git-dir="$git" archive --format=tar "$pin" -- "$suite" | tar -x -C "$out/pulse" --strip-components=5
(cd "$root" && go build -o "$out/holdfast" ./cmd/holdfast)
rc=0
(cd "$out/pulse" && "$out/holdfast" scan --all --format json --fail-on never --no-cache .) >"$out/pulse.json" || rc=$?
[[ $rc -eq 0 || $rc -eq 3 ]] || { echo "run.sh: scan failed with status $rc" >&2; exit 1; }
python3 "$here/score.py" "$out/pulse/issues.exp" "$out/pulse.json" "$out/pulse"
