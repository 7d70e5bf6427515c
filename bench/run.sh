#!/usr/bin/env bash
# bench/run.sh [DIR...] — holdfast's speed against tree-sitter's own parse
# time, measured in one run on the same files, for each source tree given.
#
# Each DIR is any source tree. Without one, PyTorch's source is unpacked
# with ../shared/corpus/pytorch-src.sh when that script exists beside this
# repository. docs/performance.md's figures come from three trees in one
# run: PyTorch 1.13, a large CUDA tree and a small one. Builds holdfast and
# bench/parseonly (the same discovery, size limit and generated-source
# check, the same parser setup, no analysis), then for each tree times,
# alternating, RUNS times each:
#   (a) parse only, (b) holdfast scan with every rule and verification,
#       without the summary cache and then with the cache a first
#       (untimed) scan of the tree wrote,
#   (c) ast-grep matching one pattern over the same tree (installed from npm
#       into bench/.cache; skipped with a message if npm cannot fetch it, or
#       when NO_ASTGREP=1).
# It prints medians, the ratio b/a, peak RSS, files/s and MB/s; the time of
# a pre-commit-sized scan (the first 5 source files of DIR) with the rest
# of the tree's summaries from the cache the full scans wrote, with those
# 5 files missing from that cache (as after editing them: the scan writes
# them into it), and with --no-cache; scan time on 1/4, 1/2 and all of the
# tree to show growth; and, last, one line per tree.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
runs=${RUNS:-5}
cache=$here/.cache
mkdir -p "$cache"

declare -a trees
if [[ $# -ge 1 ]]; then
  for d in "$@"; do trees+=("$(cd "$d" && pwd)"); done
elif [[ -x $repo/../shared/corpus/pytorch-src.sh ]]; then
  trees+=("$("$repo/../shared/corpus/pytorch-src.sh" "$cache/corpus")")
else
  echo "usage: bench/run.sh DIR...   (source trees to measure)" >&2
  exit 2
fi

echo "== building"
(cd "$repo" && go build -o "$cache/holdfast" ./cmd/holdfast && go build -o "$cache/parseonly" ./bench/parseonly)

astgrep=""
if [[ ${NO_ASTGREP:-} != 1 ]] && command -v npm >/dev/null; then
  if [[ ! -x $cache/astgrep/node_modules/.bin/ast-grep ]]; then
    (mkdir -p "$cache/astgrep" && cd "$cache/astgrep" && npm install --silent --no-audit --no-fund @ast-grep/cli@0.51.1 >/dev/null 2>&1) || true
  fi
  [[ -x $cache/astgrep/node_modules/.bin/ast-grep ]] && astgrep=$cache/astgrep/node_modules/.bin/ast-grep
fi
# ast-grep reads .h/.mm/.cu as C++ only when told to.
cat >"$cache/sgconfig.yml" <<'YML'
ruleDirs: []
languageGlobs:
  cpp: ["*.h", "*.hh", "*.hpp", "*.mm", "*.cu", "*.cuh", "*.inl", "*.ipp", "*.cc", "*.cpp", "*.cxx", "*.c"]
YML

# measure CMD... prints "seconds peak_kb". A command that fails with a
# usage or internal error (exit 2 or more, other than holdfast's 3 for
# skipped files) stops the benchmark instead of timing nothing.
measure() {
  local tf rc=0
  tf=$(mktemp)
  /usr/bin/time -o "$tf" -f "%e %M" "$@" >/dev/null 2>"$tf.err" || rc=$?
  if (( rc == 2 || rc > 3 )); then
    echo "bench: $* failed with exit $rc:" >&2; cat "$tf.err" >&2
    rm -f "$tf" "$tf.err"; exit 1
  fi
  tail -1 "$tf"
  rm -f "$tf" "$tf.err"
}
calc() { awk "BEGIN {print $1}"; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }

bench_tree() {
  local tree=$1
  cd "$tree"
  rm -rf "$cache/summaries"
  bytes=$(find . -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.h' -o -name '*.hh' -o -name '*.hpp' -o -name '*.hxx' -o -name '*.inl' -o -name '*.ipp' -o -name '*.cu' -o -name '*.cuh' -o -name '*.mm' -o -name '*.c++' \) -printf '%s\n' | awk '{s+=$1} END {print s}')
  files=$("$cache/parseonly" . | awk '{print $1}')

  # The tree's summary cache, as a first full scan leaves it (untimed):
  # the warm scans and the pre-commit scans read it.
  "$cache/holdfast" scan --fail-on never --cache-dir "$cache/summaries" -o /dev/null . 2>/dev/null || true

  declare -a pa sc sw ag
  peak_scan=0 peak_warm=0 peak_parse=0
  for i in $(seq "$runs"); do
    read -r t m < <(measure "$cache/parseonly" .); [[ -n $t ]] || exit 1; pa+=("$t"); (( m > peak_parse )) && peak_parse=$m
    read -r t m < <(measure "$cache/holdfast" scan --fail-on never --no-cache -o "$cache/scan.out" .); [[ -n $t ]] || exit 1; sc+=("$t"); (( m > peak_scan )) && peak_scan=$m
    read -r t m < <(measure "$cache/holdfast" scan --fail-on never --cache-dir "$cache/summaries" -o "$cache/scan.out" .); [[ -n $t ]] || exit 1; sw+=("$t"); (( m > peak_warm )) && peak_warm=$m
    if [[ -n $astgrep ]]; then
      read -r t m < <(measure "$astgrep" run -c "$cache/sgconfig.yml" -l cpp -p '$X.get()' .); ag+=("$t")
    fi
  done
  p=$(printf '%s\n' "${pa[@]}" | median)
  s=$(printf '%s\n' "${sc[@]}" | median)
  w=$(printf '%s\n' "${sw[@]}" | median)
  echo "== $tree: $files files, $bytes bytes, $runs runs each, alternating"
  printf 'parse only                  median %6.2f s   peak RSS %4d MB\n' "$p" $((peak_parse / 1024))
  printf 'holdfast scan, no cache     median %6.2f s   peak RSS %4d MB   %.0f files/s  %.1f MB/s\n' "$s" $((peak_scan / 1024)) \
    "$(calc "$files / $s")" "$(calc "$bytes / 1000000 / $s")"
  printf 'holdfast scan, warm cache   median %6.2f s   peak RSS %4d MB   %.0f files/s  %.1f MB/s\n' "$w" $((peak_warm / 1024)) \
    "$(calc "$files / $w")" "$(calc "$bytes / 1000000 / $w")"
  printf 'ratio scan/parse %.2f with no cache, %.2f with the warm cache\n' "$(calc "$s / $p")" "$(calc "$w / $p")"
  if [[ -n $astgrep ]]; then
    a=$(printf '%s\n' "${ag[@]}" | median)
    printf 'ast-grep (one pattern) median %6.2f s   %.1f MB/s\n' "$a" "$(calc "$bytes / 1000000 / $a")"
  else
    echo "ast-grep: not run (NO_ASTGREP=1, or npm could not fetch @ast-grep/cli@0.51.1)"
  fi

  list=$(mktemp)
  find . -type f \( -name '*.cc' -o -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.mm' -o -name '*.c' -o -name '*.hpp' -o -name '*.cuh' \) | sort >"$list"

  echo "== pre-commit sized scan (the first 5 source files; the rest of the tree's summaries from the cache the full scans wrote)"
  mapfile -t five < <(head -5 "$list")
  declare -a pc pn
  for i in $(seq "$runs"); do
    read -r t m < <(measure "$cache/holdfast" scan --fail-on never --cache-dir "$cache/summaries" "${five[@]}"); [[ -n $t ]] || exit 1; pc+=("$t")
    read -r t m < <(measure "$cache/holdfast" scan --fail-on never --no-cache "${five[@]}"); [[ -n $t ]] || exit 1; pn+=("$t")
  done
  # The same 5 files missing from the cache, as after an edit: a full scan
  # that leaves them out writes a cache the timed scans each start from.
  excl=()
  for f in "${five[@]}"; do excl+=(--exclude "${f#./}"); done
  rm -rf "$cache/stale"
  "$cache/holdfast" scan --fail-on never --cache-dir "$cache/stale" "${excl[@]}" -o /dev/null . 2>/dev/null || true
  declare -a ps
  for i in $(seq "$runs"); do
    rm -rf "$cache/stale-run"; cp -r "$cache/stale" "$cache/stale-run"
    read -r t m < <(measure "$cache/holdfast" scan --fail-on never --cache-dir "$cache/stale-run" "${five[@]}"); [[ -n $t ]] || exit 1; ps+=("$t")
  done
  rm -rf "$cache/stale" "$cache/stale-run"
  pcm=$(printf '%s\n' "${pc[@]}" | median); psm=$(printf '%s\n' "${ps[@]}" | median); pnm=$(printf '%s\n' "${pn[@]}" | median)
  printf '5 files median %.3f s with the warm cache, %.3f s missing from it (edited), %.3f s with --no-cache\n' "$pcm" "$psm" "$pnm"

  echo "== growth"
  for frac in 4 2 1; do
    n=$(wc -l <"$list"); k=$((n / frac))
    (( k > 0 )) || continue
    mapfile -t part < <(head -n "$k" "$list")
    read -r t m < <(measure "$cache/holdfast" scan --fail-on never --no-cache -o "$cache/scan.out" "${part[@]}"); [[ -n $t ]] || exit 1
    pb=$(printf '%s\0' "${part[@]}" | xargs -0 stat -c %s | awk '{s+=$1} END {print s}')
    printf '1/%d of the files: %5d files %9d bytes  %6.2f s  %.1f MB/s\n' "$frac" "$k" "$pb" "$t" "$(calc "$pb / 1000000 / $t")"
  done
  rm -f "$list"
  summary+=("$(printf '%s: %d files, ratio %.2f (%.2f s / %.2f s) with no cache, %.2f (%.2f s) warm; peak RSS %d MB, %d MB warm / %d MB; 5 files %.3f s warm, %.3f s edited, %.3f s no cache' \
    "$(basename "$tree")" "$files" "$(calc "$s / $p")" "$s" "$p" "$(calc "$w / $p")" "$w" $((peak_scan / 1024)) $((peak_warm / 1024)) $((peak_parse / 1024)) "$pcm" "$psm" "$pnm")")
}

declare -a summary
for tree in "${trees[@]}"; do
  bench_tree "$tree"
done
echo "== all trees (scan / parse only)"
printf '%s\n' "${summary[@]}"
