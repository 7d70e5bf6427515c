#!/usr/bin/env bash
# corpora.sh DEST — build the real-code corpora of the precision ledger into
# DEST: one folder per repository, DEST/<owner+name>/, holding the C, C++,
# CUDA and Objective-C(++) sources (.c .cc .cpp .cxx .h .hh .hpp .cu .cuh .m
# .mm) of the commit corpora.tsv pins for it, plus PyTorch 1.13.1 as
# DEST/pytorch-1.13.1. ONLY=name[,name...] builds only those corpora.
#
# The repositories are read from bare git mirrors, MIRRORS/<owner+name>/repo
# (MIRRORS defaults to /work/.mirror). A mirror is one GitHub snapshot; in an
# agent session it is brought onto the machine by the `fetch` tool with the
# source github:<owner>/<name>, which writes MIRRORS/<owner+name>/repo.
# Elsewhere, `git clone --bare https://github.com/<owner>/<name>
# MIRRORS/<owner+name>/repo` does the same. Snapshots can lack some blobs;
# those files are skipped and counted.
#
# PyTorch comes from ../shared/corpus/pytorch-src.sh (Debian's 1.13.1 source
# package) when that script exists, or from an unpacked tree named by
# PYTORCH_SRC (copied, sources only). Without either it is skipped with a
# message.
#
# Never commit DEST.
set -euo pipefail
dest=${1:?usage: corpora.sh DEST}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MIRRORS=${MIRRORS:-/work/.mirror}
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)

ext_re='\.(c|cc|cpp|cxx|h|hh|hpp|cu|cuh|m|mm)$'
status=0

: >"$dest/REVS.new"
wanted() { [[ -z ${ONLY:-} || ,$ONLY, == *,$1,* ]]; }

while read -r name rev; do
  [[ -n $name ]] || continue
  wanted "$name" || continue
  git=$MIRRORS/$name/repo
  [[ -d $git/.git ]] && git=$git/.git
  if [[ ! -d $git ]]; then
    echo "$name: no mirror at $MIRRORS/$name/repo (fetch github:${name/+//} first)" >&2
    status=1
    continue
  fi
  if ! git --git-dir="$git" cat-file -e "$rev^{commit}" 2>/dev/null; then
    echo "$name: commit $rev is not in the mirror" >&2
    status=1
    continue
  fi
  out=$dest/$name
  rm -rf "$out.part"
  mkdir -p "$out.part"
  # One `git cat-file --batch` for the whole tree (blobs.py).
  read -r written missing < <(python3 "$here/blobs.py" "$git" "$rev" "$out.part" "$ext_re")
  rm -rf "$out"
  mv "$out.part" "$out"
  echo "$name $rev: $written files, $missing unreadable (skipped)"
  echo "$name $rev $written $missing" >>"$dest/REVS.new"
done < <(awk -F'\t' 'NR > 1 && $1 != "pytorch-1.13.1" { print $1, $2 }' "$here/corpora.tsv")

# PyTorch 1.13.1.
if ! wanted pytorch-1.13.1; then
  mv "$dest/REVS.new" "$dest/REVS"
  exit $status
fi
shared=$here/../../../shared/corpus/pytorch-src.sh
if [[ -n ${PYTORCH_SRC:-} && $(cd "$PYTORCH_SRC" 2>/dev/null && pwd -P) == $(cd "$dest/pytorch-1.13.1" 2>/dev/null && pwd -P) ]]; then
  # The source already is the corpus (DEST/pytorch-1.13.1): copying it
  # onto itself would first delete it.
  echo "pytorch-1.13.1: already in $dest (PYTORCH_SRC is the corpus itself)"
  echo "pytorch-1.13.1 v1.13.1 - -" >>"$dest/REVS.new"
elif [[ -n ${PYTORCH_SRC:-} ]]; then
  [[ -d $PYTORCH_SRC ]] || { echo "PYTORCH_SRC=$PYTORCH_SRC is no folder" >&2; exit 1; }
  rm -rf "$dest/pytorch-1.13.1"
  mkdir -p "$dest/pytorch-1.13.1"
  (cd "$PYTORCH_SRC" && find . -type f -regextype posix-extended -regex ".*$ext_re" -print0 |
    tar -cf - --null -T -) | tar -xf - -C "$dest/pytorch-1.13.1"
  echo "pytorch-1.13.1: copied from $PYTORCH_SRC"
  echo "pytorch-1.13.1 v1.13.1 - -" >>"$dest/REVS.new"
elif [[ -x $shared || -f $shared ]]; then
  bash "$shared" "$dest" >/dev/null
  echo "pytorch-1.13.1: unpacked by $(cd "$(dirname "$shared")" && pwd)/pytorch-src.sh"
  echo "pytorch-1.13.1 v1.13.1 - -" >>"$dest/REVS.new"
else
  echo "pytorch-1.13.1: skipped (no ../shared/corpus/pytorch-src.sh and no PYTORCH_SRC)" >&2
  status=1
fi
mv "$dest/REVS.new" "$dest/REVS"
exit $status
