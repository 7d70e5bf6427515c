#!/usr/bin/env python3
"""scan.py -- write the benchmark's trees from the mirrors and scan each once.

    scan.py MIRRORS CACHE HOLDFAST [--only REPO] [--half tune|check] [--jobs N] [--workers W]

For every (repository, commit) that a row of manifest.tsv (its buggy
commit) or negatives.tsv (its commit) names, the repository's scan roots
(repos.tsv) at that commit are written once to
CACHE/trees/<owner+name>/<sha>/ and scanned whole, as a user scans a
checkout: `holdfast scan --all --format json --fail-on never --no-cache`
from inside the tree, so paths in the JSON are repository paths. One scan
with --all serves both figures: the default output is the findings whose
verification is null or confirmed and that are not suppressed, exactly the
set `holdfast scan` prints without --all.

Scans are kept per binary (CACHE/scans/<first 12 of the binary's
sha256>/<owner+name>/<sha>.json, with <sha>.seconds beside it), so a rerun
with the same binary scans nothing and --only REPO rescans one repository.
It prints the folder of the scans on its last line. Nothing here is
committed: CACHE must be outside the repository.

--workers W writes and scans W trees at once, each scan with --jobs N.
Most trees are small and a scan of one uses one core for much of its
time, so on two cores `--workers 2 --jobs 1` finishes sooner than one
tree at a time with `--jobs 2`; the scans are the same either way.
"""
import argparse
import concurrent.futures
import csv
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "precision"))
from blobs import write_blobs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def read_tsv(name):
    with open(os.path.join(HERE, name), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def slug(repo):
    return repo.replace("/", "+")


def gitdir(mirrors, repo):
    base = os.path.join(mirrors, slug(repo), "repo")
    return os.path.join(base, ".git") if os.path.isdir(os.path.join(base, ".git")) else base


def git(gd, *args, **kw):
    return subprocess.run(["git", "--git-dir", gd, *args], capture_output=True, **kw)


def write_tree(gd, sha, roots, dest):
    """Writes the roots of commit sha to dest; returns files written and
    blobs the snapshot lacks."""
    part = dest + ".part"
    shutil.rmtree(part, ignore_errors=True)
    os.makedirs(part)
    present = [r for r in roots
               if r == "." or git(gd, "cat-file", "-e", f"{sha}:{r}").returncode == 0]
    if not present:
        os.rename(part, dest)
        return 0, 0
    p = git(gd, "archive", "--format=tar", sha, "--", *present)
    written = missing = 0
    if p.returncode == 0:
        tar_path = part + ".tar"
        with open(tar_path, "wb") as f:
            f.write(p.stdout)
        with tarfile.open(tar_path) as t:
            members = [m for m in t.getmembers() if m.isfile() or m.isdir()]
            t.extractall(part, members=members, filter="data")
            written = sum(1 for m in members if m.isfile())
        os.remove(tar_path)
    else:
        # A snapshot may lack large blobs; write what it has, read through
        # one `git cat-file --batch` (one process, not one per blob).
        written, missing = write_blobs(gd, sha, part, paths=present)
    os.rename(part, dest)
    return written, missing


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mirrors")
    ap.add_argument("cache")
    ap.add_argument("holdfast")
    ap.add_argument("--only", help="rescan this repository (owner/name) only")
    ap.add_argument("--half", choices=["tune", "check"],
                    help="scan only this half's repositories (a quick loop while tuning)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--workers", type=int, default=1,
                    help="trees written and scanned at once (each scan with --jobs)")
    args = ap.parse_args()

    cache = os.path.abspath(args.cache)
    if cache == ROOT or cache.startswith(ROOT + os.sep):
        sys.exit("scan.py: CACHE must be outside the repository")
    with open(args.holdfast, "rb") as f:
        binid = hashlib.sha256(f.read()).hexdigest()[:12]
    scans = os.path.join(cache, "scans", binid)

    repos = {r["repo"]: r for r in read_tsv("repos.tsv")}
    work = []  # (repo, sha), in manifest order, once each
    for row in read_tsv("manifest.tsv"):
        work.append((row["repo"], row["buggy_commit"]))
    for row in read_tsv("negatives.tsv"):
        work.append((row["repo"], row["commit"]))
    work = list(dict.fromkeys(work))
    if args.only:
        if args.only not in repos:
            sys.exit(f"scan.py: --only {args.only}: not a repository of repos.tsv")
        work = [w for w in work if w[0] == args.only]
    if args.half:
        work = [w for w in work if repos[w[0]]["half"] == args.half]

    def one(i, repo, sha):
        """Writes and scans one tree; returns False when it failed."""
        gd = gitdir(args.mirrors, repo)
        out = os.path.join(scans, slug(repo), sha + ".json")
        if os.path.exists(out) and not args.only:
            return True
        if not os.path.isdir(gd):
            print(f"[{i}/{len(work)}] {repo}: no mirror at {gd}", file=sys.stderr)
            return False
        tree = os.path.join(cache, "trees", slug(repo), sha)
        if not os.path.isdir(tree):
            roots = [x.strip() for x in repos[repo]["roots"].split(",") if x.strip()]
            os.makedirs(os.path.dirname(tree), exist_ok=True)
            n, missing = write_tree(gd, sha, roots, tree)
            note = f", {missing} blobs missing" if missing else ""
            print(f"[{i}/{len(work)}] {repo}@{sha[:10]}: wrote {n} files{note}",
                  file=sys.stderr)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        t0 = time.monotonic()
        with open(out + ".part", "wb") as f:
            p = subprocess.run([os.path.abspath(args.holdfast), "scan", "--all",
                                "--format", "json", "--fail-on", "never",
                                "--no-cache", "--verbose", "--jobs", str(args.jobs), "."],
                               cwd=tree, stdout=f, stderr=subprocess.PIPE)
        secs = time.monotonic() - t0
        # 0: nothing to fail on; 3: some source could not be analysed (a notice).
        if p.returncode not in (0, 3):
            print(f"[{i}/{len(work)}] {repo}@{sha[:10]}: scan failed with status "
                  f"{p.returncode}: {p.stderr.decode(errors='replace')[-300:]}",
                  file=sys.stderr)
            os.remove(out + ".part")
            return False
        os.rename(out + ".part", out)
        with open(out[:-5] + ".seconds", "w") as f:
            f.write(f"{secs:.2f}\n")
        print(f"[{i}/{len(work)}] {repo}@{sha[:10]}: scanned in {secs:.1f} s",
              file=sys.stderr)
        return True

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
        done = list(pool.map(lambda w: one(w[0], *w[1]), enumerate(work, 1)))
    failed = done.count(False)
    print(scans)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
