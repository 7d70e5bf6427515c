#!/usr/bin/env python3
"""report.py -- score the benchmark's scans and print the report (markdown).

    report.py SCANS [--rows]

SCANS is the folder scan.py printed (SCANS/<owner+name>/<sha>.json). A bug
(manifest.tsv) is found when a finding of the scan of its buggy commit lies
in its file with its line inside the row's range, or with a step of its
story there that the row's range may name (PLACE_STEPS: the use, the free
or end, the enqueue, the hand-off or escape); a look-alike (negatives.tsv)
is flagged the same way at its commit. The head table also gives the
figure of the finding's own line alone. Each is scored twice:
the default output (verification null or confirmed, not suppressed: what
`holdfast scan` prints) and --all (every finding). The rule is not checked:
a finding of another class in the range counts.

For a missed bug of the check half only the stage that lost it is printed,
never its code: `not scanned` (no scan of its commit), `skipped` (the file
was skipped: size, time budget), `parse` (a parse-error notice names its
function), `cut` (nothing reported, and the path bound dropped some paths
of a function of that name starting at or before the range), `verdict` (found only with --all: the device did not confirm
it), `place` (a default finding in the same function, outside the range),
`value flow` (nothing reported in the function: no fact reached a rule).

--rows adds one line per tuning-half row (FOUND/MISSED, FLAGGED/CLEAN) for
reading while tuning; check-half rows are never listed.
Python 3 standard library only.
"""
import argparse
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = "ABCDEFGHN"
# The witness steps that are places a row's range names ("the use, the
# free, the enqueue, the empty hand-off"): not a declaration, a borrow or an
# assumption.
PLACE_STEPS = {"use", "free", "owner-dies", "async", "callback", "move", "escape"}
STAGES = ["not scanned", "skipped", "parse", "cut", "verdict", "place", "value flow"]


def read_tsv(name):
    with open(os.path.join(HERE, name), newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def shown_by_default(f):
    v = f.get("verification")
    return not f.get("suppressed") and (v is None or v.get("verdict") == "confirmed")


def from_core(f):
    """Whether the semantic core's execution reached finding f's fault (its
    verification reason says so), rather than a rule's own reading."""
    return str((f.get("verification") or {}).get("reason", "")).startswith("the function's own path")


def origin(row, log):
    """"core" when a default finding of the core's execution finds row,
    else "rule" (only a rule's own reading does), else None."""
    if log is None:
        return None
    lo, hi = int(row["line_start"]), int(row["line_end"])
    hits = [f for f in log["findings"] if shown_by_default(f) and lands(f, row["path"], lo, hi, True)]
    if any(from_core(f) for f in hits):
        return "core"
    return "rule" if hits else None


def last_name(fn):
    return fn.replace("->", "::").split("::")[-1].split("(")[0].strip()


class Scans:
    def __init__(self, folder):
        self.folder = folder
        self.cache = {}

    def get(self, repo, sha):
        key = (repo, sha)
        if key not in self.cache:
            path = os.path.join(self.folder, repo.replace("/", "+"), sha + ".json")
            log = None
            if os.path.isfile(path):
                with open(path) as f:
                    log = json.load(f)
                try:
                    with open(path[:-5] + ".seconds") as f:
                        log["seconds"] = float(f.read())
                except OSError:
                    log["seconds"] = 0.0
            self.cache[key] = log
        return self.cache[key]


def lands(f, path, lo, hi, story):
    """Whether finding f lies in path's range: its line, or (story) a place
    step of its witness."""
    if f["file"] == path and lo <= f["line"] <= hi:
        return True
    return story and any(w["kind"] in PLACE_STEPS and w.get("file") == path and lo <= w["line"] <= hi
                         for w in f.get("witness") or [])


def cut_names(notes, name, lo):
    """Whether the notes say the bound cut a function named name that may
    hold line lo: one of that name (each is named with the line it starts
    on) starting at or before lo. An overload of the same name earlier in
    the file can still be taken for it."""
    for n in notes:
        if "were not executed" not in n["message"]:
            continue
        for ent in n["message"].split(": ", 1)[-1].split(", "):
            m = re.fullmatch(r"(.*) \(line (\d+)\)", ent.strip())
            if m is None:
                if name in ent:  # a notice of a build that named no lines
                    return True
            elif last_name(m.group(1)) == name and int(m.group(2)) <= lo:
                return True
    return False


def score(row, log, story=True):
    """Returns (default hit, --all hit, stage when the default missed)."""
    if log is None:
        return False, False, "not scanned"
    lo, hi = int(row["line_start"]), int(row["line_end"])
    in_file = [f for f in log["findings"] if f["file"] == row["path"]]
    hits = [f for f in log["findings"] if lands(f, row["path"], lo, hi, story)]
    d = any(shown_by_default(f) for f in hits)
    a = bool(hits)
    if d:
        return d, a, None
    notes = [n for n in log["notices"] if n["file"] == row["path"]]
    name = last_name(row["function"])
    if any("skipped" in n["message"] for n in notes):
        stage = "skipped"
    elif name and any("parse errors" in n["message"] and name in n["message"] for n in notes):
        stage = "parse"
    elif name and not a and cut_names(notes, name, lo):
        stage = "cut"
    elif a:
        stage = "verdict"
    elif any(shown_by_default(f) and last_name(f["function"]) == name for f in in_file):
        stage = "place"
    else:
        stage = "value flow"
    return d, a, stage


def frac(n, d):
    return f"{n}/{d} ({n / d:.2f})" if d else "0/0"


def half_report(half, pos, neg, scans, rows_out):
    lines = []
    P = [r for r in pos if r["half"] == half]
    N = [r for r in neg if r["half"] == half]
    pres = [(r,) + score(r, scans.get(r["repo"], r["buggy_commit"])) for r in P]
    nres = [(r,) + score(r, scans.get(r["repo"], r["commit"])) for r in N]
    fd = sum(x[1] for x in pres)
    fl = sum(score(r, scans.get(r["repo"], r["buggy_commit"]), story=False)[0] for r in P)
    nl = sum(score(r, scans.get(r["repo"], r["commit"]), story=False)[0] for r in N)
    fa = sum(x[2] for x in pres)
    nd = sum(x[1] for x in nres)
    na = sum(x[2] for x in nres)
    repos = sorted({r["repo"] for r in P} | {r["repo"] for r in N})
    lines += ["| | default output | with `--all` |", "|---|---:|---:|",
              f"| bugs found | **{frac(fd, len(P))}** | {frac(fa, len(P))} |",
              f"| look-alikes flagged | {frac(nd, len(N))} | {frac(na, len(N))} |",
              f"| repositories | {len(repos)} | |", ""]

    lines += ["| class | bugs | found (default) | found (`--all`) | look-alikes | flagged (default) |",
              "|---|---:|---:|---:|---:|---:|"]
    for c in CLASSES:
        pc = [x for x in pres if x[0]["bug_class"] == c]
        nc = [x for x in nres if x[0]["bug_class"] == c]
        if not pc and not nc:
            continue
        lines.append(f"| {c} | {len(pc)} | {sum(x[1] for x in pc)} | {sum(x[2] for x in pc)} "
                     f"| {len(nc)} | {sum(x[1] for x in nc)} |")
    lines.append("")

    lines += ["| repository | bugs | found (default) | found (`--all`) | look-alikes | flagged (default) |",
              "|---|---:|---:|---:|---:|---:|"]
    for repo in repos:
        pr = [x for x in pres if x[0]["repo"] == repo]
        nr = [x for x in nres if x[0]["repo"] == repo]
        lines.append(f"| {repo} | {len(pr)} | {sum(x[1] for x in pr)} | {sum(x[2] for x in pr)} "
                     f"| {len(nr)} | {sum(x[1] for x in nr)} |")
    lines.append("")

    by_core = sum(origin(r, scans.get(r["repo"], r["buggy_commit"])) == "core" for r in P)
    by_rule = sum(origin(r, scans.get(r["repo"], r["buggy_commit"])) == "rule" for r in P)
    neg_core = sum(origin(r, scans.get(r["repo"], r["commit"])) == "core" for r in N)
    lines.append(f"Found by default through the core's execution: {by_core}; only through a rule's "
                 f"own reading: {by_rule}. Look-alikes flagged by the core: {neg_core}, "
                 f"by a rule's own reading only: {nd - neg_core}.")
    lines.append("")

    stages = {}
    for x in pres:
        if x[3]:
            stages[x[3]] = stages.get(x[3], 0) + 1
    if stages:
        lines.append("Where the missed bugs were lost: " + ", ".join(
            f"{s} {stages[s]}" for s in STAGES if s in stages) + ".")
        lines.append("")

    if rows_out and half == "tune":
        lines.append("```")
        for r, d, a, stage in pres:
            what = "FOUND  " if d else ("ALL    " if a else "MISSED ")
            lines.append(f"{what} {r['id']} {r['bug_class']} {r['repo']} {r['path']}:"
                         f"{r['line_start']}-{r['line_end']} {r['function']}"
                         + (f" [{stage}]" if stage else ""))
        for r, d, a, _ in nres:
            what = "FLAGGED" if d else ("ALL    " if a else "CLEAN  ")
            lines.append(f"{what} {r['id']} {r['bug_class']} {r['repo']} {r['path']}:"
                         f"{r['line_start']}-{r['line_end']} {r['function']}")
        lines += ["```", ""]
    return lines, (fd, fa, len(P), nd, na, len(N), fl, nl)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scans")
    ap.add_argument("--rows", action="store_true",
                    help="list every tuning-half row (never the check half's)")
    args = ap.parse_args()
    pos, neg = read_tsv("manifest.tsv"), read_tsv("negatives.tsv")
    scans = Scans(args.scans)

    out = []
    totals = {}
    for half, title in (("check", "Check half (held out: only its scores are read)"),
                        ("tune", "Tuning half")):
        body, t = half_report(half, pos, neg, scans, args.rows)
        totals[half] = t
        out += [f"## {title}", ""] + body

    fd = sum(t[0] for t in totals.values())
    fa = sum(t[1] for t in totals.values())
    n = sum(t[2] for t in totals.values())
    nd = sum(t[3] for t in totals.values())
    nn = sum(t[5] for t in totals.values())
    versions = sorted({log["tool"]["version"] for log in scans.cache.values() if log})
    seconds = sum(log["seconds"] for log in scans.cache.values() if log)
    trees = sum(1 for log in scans.cache.values() if log)
    head = ["# Real-bug benchmark", "",
            f"holdfast {', '.join(versions) or '(no scans)'}; {trees} trees scanned "
            f"in {seconds:.0f} s of scan time.", "",
            "| half | bugs found (default) | with `--all` | look-alikes flagged (default) "
            "| found, the finding's own line only | flagged, own line only |",
            "|---|---:|---:|---:|---:|---:|"]
    for half in ("check", "tune"):
        t = totals[half]
        head.append(f"| {half} | **{frac(t[0], t[2])}** | {frac(t[1], t[2])} | {frac(t[3], t[5])} "
                    f"| {frac(t[6], t[2])} | {frac(t[7], t[5])} |")
    fl = sum(t[6] for t in totals.values())
    nl = sum(t[7] for t in totals.values())
    head.append(f"| both | {frac(fd, n)} | {frac(fa, n)} | {frac(nd, nn)} | {frac(fl, n)} | {frac(nl, nn)} |")
    head.append("")
    print("\n".join(head + out).rstrip() + "\n")


if __name__ == "__main__":
    sys.exit(main())
