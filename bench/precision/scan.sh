#!/usr/bin/env bash
# scan.sh CORPORA OUT — build holdfast from this checkout and scan every
# corpus folder of CORPORA (as built by corpora.sh) twice: with the default
# output (OUT/<corpus>.json) and with --all, which adds the findings the
# simulated device did not reproduce (OUT/<corpus>.all.json). Scans run from
# inside CORPORA, so paths in the JSON start with <corpus>/, e.g.
# ml-explore+mlx/mlx/... or pytorch-1.13.1/aten/....
#
# HOLDFAST=/path/to/binary skips the build; JOBS sets --jobs; ALL=0 skips
# the --all scans (report.py then judges the default output only).
set -euo pipefail
corpora=${1:?usage: scan.sh CORPORA OUT}
out=${2:?usage: scan.sh CORPORA OUT}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
corpora=$(cd "$corpora" && pwd)

hf=${HOLDFAST:-}
if [[ -z $hf ]]; then
  hf=$out/holdfast
  (cd "$root" && go build -o "$hf" ./cmd/holdfast)
fi
jobs=()
[[ -z ${JOBS:-} ]] || jobs=(--jobs "$JOBS")

run() { # corpus file flags...
  local corpus=$1 file=$2 rc=0
  shift 2
  # --no-cache: each corpus is a whole tree of its own; the cache of the
  # folder above would add the other corpora's summaries.
  (cd "$corpora" && "$hf" scan --format json --fail-on never --no-cache "${jobs[@]}" "$@" "$corpus") \
    >"$out/$file" || rc=$?
  # 3: some source could not be analysed (each is a notice in the JSON).
  if [[ $rc -ne 0 && $rc -ne 3 ]]; then
    echo "scan of $corpus failed with status $rc" >&2
    return 1
  fi
}

count() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$1"; }
for dir in "$corpora"/*/; do
  corpus=$(basename "$dir")
  [[ $corpus == *.part ]] && continue
  run "$corpus" "$corpus.json"
  if [[ ${ALL:-1} == 0 ]]; then
    # ALL=0: the default output only (what the ledger judges).
    printf '%s: %s default\n' "$corpus" "$(count "$out/$corpus.json")"
    continue
  fi
  run "$corpus" "$corpus.all.json" --all
  printf '%s: %s default, %s with --all\n' "$corpus" "$(count "$out/$corpus.json")" "$(count "$out/$corpus.all.json")"
done
