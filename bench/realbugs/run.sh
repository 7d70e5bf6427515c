#!/usr/bin/env bash
# run.sh MIRRORS CACHE [--only OWNER/NAME] [--half tune|check] [--rows]
#
# Rebuilds the real-bug benchmark and prints its report (markdown):
#   1. builds holdfast from this checkout into CACHE/bin/;
#   2. check.py: every row's commits, paths and ranges against the mirrors;
#   3. scan.py: writes each (repository, commit) tree once into
#      CACHE/trees/ and scans it whole (once per holdfast binary);
#   4. report.py: recall of the default output and of --all, per half,
#      class and repository, look-alikes flagged, and the stage that lost
#      each missed bug.
# MIRRORS holds bare mirrors as MIRRORS/<owner+name>/repo (the `fetch`
# tool's layout, or `git clone --bare https://github.com/OWNER/NAME
# MIRRORS/OWNER+NAME/repo`). CACHE must be outside this repository; nothing
# in it is committed. --only reruns the scans of one repository; --half
# scans one half only (the other's rows then count as not scanned, and only
# this half's mirrors are needed); --rows
# lists the tuning half's rows one by one. JOBS sets holdfast's --jobs;
# WORKERS, the trees scanned at once (default 1). On two cores
# WORKERS=2 JOBS=1 is the quickest.
set -euo pipefail
usage() { echo "usage: run.sh MIRRORS CACHE [--only OWNER/NAME] [--half tune|check] [--rows]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
mirrors=$1 cache=$2
shift 2
only=() rows=() half=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --only) [[ $# -ge 2 ]] || usage; only=(--only "$2"); shift 2 ;;
    --half) [[ $# -ge 2 ]] || usage; only+=(--half "$2"); half=(--half "$2"); shift 2 ;;
    --rows) rows=(--rows); shift ;;
    *) usage ;;
  esac
done
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$cache/bin"
cache=$(cd "$cache" && pwd)
case $cache/ in "$root"/*) echo "run.sh: CACHE must be outside $root" >&2; exit 2 ;; esac

(cd "$root" && go build -o "$cache/bin/holdfast" ./cmd/holdfast)
python3 "$here/check.py" --mirrors "$mirrors" "${half[@]}" >&2
scans=$(python3 "$here/scan.py" "$mirrors" "$cache" "$cache/bin/holdfast" \
  --jobs "${JOBS:-$(nproc)}" --workers "${WORKERS:-1}" "${only[@]}" | tail -n 1)
python3 "$here/report.py" "$scans" "${rows[@]}"
