#!/usr/bin/env python3
"""check.py -- check every row of the real-bug benchmark against the mirrors.

    check.py [--mirrors DIR] [--fragment DIR] [--half tune|check]

Without --fragment it checks bench/realbugs/{repos,manifest,negatives}.tsv;
with it, a miner's fragment folder (repos.tsv, positives.tsv,
negatives.tsv, whose first column is a key instead of an id and which have
no half column).

Per row it checks: the columns are complete and well formed; the commits
resolve in MIRRORS/<owner+name>/repo; a positive's buggy commit is the
fix's first parent; the path exists at the row's commit; the range is
inside the file and at most 25 lines; the path lies under one of the
repository's scan roots; ids are unique and a negative's twin names a
positive. Problems are printed as `ID: kind` only, never the row's code or
text, so the check half can be checked without being read. The last line
is the count of rows checked and of problems; the exit status is 1 when
there are problems. With --half, the other half's rows are checked for
form only (columns, ids, ranges), so one half can be checked with only
its own repositories' mirrors. Python 3 standard library only.
"""
import argparse
import csv
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = set("ABCDEFGHN")
MAX_LINES = 25

POS_COLS = ["id", "half", "repo", "buggy_commit", "fixed_commit", "path",
            "function", "line_start", "line_end", "bug_class", "confidence",
            "description"]
NEG_COLS = ["id", "half", "repo", "commit", "twin", "path", "function",
            "line_start", "line_end", "bug_class", "confidence",
            "description"]
REPO_COLS = ["repo", "half", "roots", "branch", "notes"]


def read_tsv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


class Git:
    """Answers about one bare mirror, with the answers cached."""

    def __init__(self, gitdir):
        self.gitdir = gitdir
        self.cache = {}

    def run(self, *args):
        key = args
        if key not in self.cache:
            p = subprocess.run(["git", "--git-dir", self.gitdir, *args],
                               capture_output=True)
            self.cache[key] = p.stdout if p.returncode == 0 else None
        return self.cache[key]

    def commit(self, rev):
        out = self.run("rev-parse", "--verify", "--quiet", rev + "^{commit}")
        return out.decode().strip() if out else None

    def first_parent(self, rev):
        return self.commit(rev + "^1")

    def lines(self, rev, path):
        out = self.run("cat-file", "blob", f"{rev}:{path}")
        if out is None:
            return None
        n = out.count(b"\n")
        if out and not out.endswith(b"\n"):
            n += 1
        return n


def mirror_dir(mirrors, repo):
    base = os.path.join(mirrors, repo.replace("/", "+"), "repo")
    dotgit = os.path.join(base, ".git")
    return dotgit if os.path.isdir(dotgit) else base


def under(path, roots):
    return any(r == "." or path == r or path.startswith(r.rstrip("/") + "/")
               for r in roots)


def check(repos, pos, neg, mirrors, half=None):
    problems = []
    gits = {}

    def say(rid, kind):
        problems.append(f"{rid}: {kind}")

    roots = {}
    for r in repos:
        if not r.get("repo") or not r.get("roots"):
            say(r.get("repo") or "?", "repos.tsv row without repo or roots")
            continue
        roots[r["repo"]] = [x.strip() for x in r["roots"].split(",") if x.strip()]
        if r.get("half") not in (None, "tune", "check"):
            say(r["repo"], "half is not tune or check")

    ids = set()
    for kind, rows in (("positive", pos), ("negative", neg)):
        for row in rows:
            rid = row.get("id") or "?"
            if rid in ids:
                say(rid, "duplicate id")
            ids.add(rid)
    pos_ids = {r.get("id") for r in pos}
    halves = {r["repo"]: r.get("half") for r in repos if r.get("repo")}

    for kind, rows in (("positive", pos), ("negative", neg)):
        for row in rows:
            rid = row.get("id") or "?"
            if any(v is None for v in row.values()) or None in row:
                say(rid, "wrong number of columns")
                continue
            repo = row["repo"]
            if repo not in roots:
                say(rid, "repository not in repos.tsv")
                continue
            if "half" in row and row["half"] != halves.get(repo):
                say(rid, "half differs from the repository's half")
            if row["bug_class"] not in CLASSES:
                say(rid, "bad bug_class")
            if row["confidence"] not in ("certain", "likely"):
                say(rid, "bad confidence")
            if not row["description"].strip() or not row["function"].strip():
                say(rid, "empty function or description")
            try:
                lo, hi = int(row["line_start"]), int(row["line_end"])
            except ValueError:
                say(rid, "line range is not numeric")
                continue
            if lo < 1 or hi < lo:
                say(rid, "empty or inverted range")
            if hi - lo + 1 > MAX_LINES:
                say(rid, f"range longer than {MAX_LINES} lines")
            if not under(row["path"], roots[repo]):
                say(rid, "path is under none of the repository's roots")
            if half and halves.get(repo) != half:
                continue
            gitdir = mirror_dir(mirrors, repo)
            if not os.path.isdir(gitdir):
                say(rid, "no mirror for the repository")
                continue
            g = gits.setdefault(gitdir, Git(gitdir))
            rev = row["buggy_commit"] if kind == "positive" else row["commit"]
            full = g.commit(rev)
            if full is None:
                say(rid, "commit does not resolve")
                continue
            if full != rev:
                say(rid, "commit is not a full sha")
            if kind == "positive":
                fix = g.commit(row["fixed_commit"])
                if fix is None:
                    say(rid, "fix commit does not resolve")
                elif g.first_parent(fix) != full:
                    say(rid, "buggy commit is not the fix's first parent")
            elif row["twin"] != "-" and row["twin"] not in pos_ids:
                say(rid, "twin names no positive")
            n = g.lines(full, row["path"])
            if n is None:
                say(rid, "path does not exist at the commit")
            elif hi > n:
                say(rid, "range ends past the end of the file")
    return problems


def fragment_rows(folder):
    """Reads a miner's fragment into the manifest's columns."""
    repos = read_tsv(os.path.join(folder, "repos.tsv"))
    pos = read_tsv(os.path.join(folder, "positives.tsv"))
    neg = read_tsv(os.path.join(folder, "negatives.tsv"))
    for rows in (pos, neg):
        for r in rows:
            r["id"] = r.pop("key", None)
    return repos, pos, neg


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirrors", default=os.environ.get("MIRRORS", "/work/.mirror"))
    ap.add_argument("--fragment", help="a miner's fragment folder")
    ap.add_argument("--half", choices=("tune", "check"),
                    help="check the commits and files of this half's rows only")
    args = ap.parse_args()
    if args.fragment:
        repos, pos, neg = fragment_rows(args.fragment)
    else:
        repos = read_tsv(os.path.join(HERE, "repos.tsv"))
        pos = read_tsv(os.path.join(HERE, "manifest.tsv"))
        neg = read_tsv(os.path.join(HERE, "negatives.tsv"))
        for name, rows, cols in (("repos.tsv", repos, REPO_COLS),
                                 ("manifest.tsv", pos, POS_COLS),
                                 ("negatives.tsv", neg, NEG_COLS)):
            if rows and list(rows[0].keys()) != cols:
                sys.exit(f"{name}: columns must be {' '.join(cols)}")
    problems = check(repos, pos, neg, args.mirrors, args.half)
    for p in problems:
        print(p)
    print(f"rows={len(pos)} positives, {len(neg)} negatives, "
          f"{len(repos)} repositories; problems={len(problems)}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
