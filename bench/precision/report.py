#!/usr/bin/env python3
"""report.py LEDGER OUTDIR — precision of holdfast's findings on real code.

Joins the scans that scan.sh wrote into OUTDIR (<corpus>.json, the default
output, and <corpus>.all.json, the output with --all) with the judgements in
LEDGER (ledger.tsv) on (repo, path, line, rule) and prints, as markdown:

- precision per rule and per corpus of the default output, and by origin:
  findings of the semantic core's execution apart from those of a rule's
  own reading;
- the share of TRUE findings per verification verdict (how far `confirmed`
  can be trusted);
- the precision of the judged sample of --all-only findings;
- findings whose verification verdict changed since they were judged;
- NEW findings (reported, not in the ledger: they need judging) and GONE
  rows (in the ledger, no longer reported).

Several findings can share a key (one callback capturing three locals gives
three findings on one line): the findings of a key, in the scan's order
(sorted by message), pair with the ledger rows of that key in file order.

corpora.tsv (beside this script) says of each corpus whether it was
`looked` at while the analysis was changed or is `fresh` (its findings are
judged only by reviewers who do not change the analysis). Precision is
reported for both; the findings and reasons of fresh corpora are printed
only with --show-fresh (for the reviewers), otherwise only counted.

Exit status 1 when a default finding has no ledger row, else 0.
Python 3 standard library only.
"""

import collections
import csv
import glob
import json
import os
import sys

COLUMNS = ["repo", "commit", "path", "line", "rule", "verdict", "judgement",
           "reason", "shown"]


def load_ledger(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            sys.exit("%s: missing columns %s" % (path, ", ".join(missing)))
        for n, row in enumerate(reader, start=2):
            if row["judgement"] not in ("TRUE", "FP"):
                sys.exit("%s:%d: judgement must be TRUE or FP, not %r"
                         % (path, n, row["judgement"]))
            if row["shown"] not in ("default", "all"):
                sys.exit("%s:%d: shown must be default or all, not %r"
                         % (path, n, row["shown"]))
            row["line"] = int(row["line"])
            row["lineno"] = n
            rows.append(row)
    return rows


def load_findings(path):
    with open(path, encoding="utf-8") as f:
        log = json.load(f)
    out = []
    for x in log["findings"]:
        repo, _, rel = x["file"].partition("/")
        v = x.get("verification")
        out.append({
            "repo": repo, "path": rel, "line": x["line"], "rule": x["ruleId"],
            "verdict": v["verdict"] if v else "none",
            "message": x["message"], "function": x["function"],
            "suppressed": x.get("suppressed", ""),
            "origin": origin(v),
        })
    return out


def origin(v):
    """Where a finding comes from: "core" when the semantic core's
    execution reached its fault (its verification reason says so), else
    "rule" (a rule's own reading, replayed on the device)."""
    if v and str(v.get("reason", "")).startswith("the function's own path"):
        return "core"
    return "rule"


def key(d):
    return (d["repo"], d["path"], d["line"], d["rule"])


def pair(findings, rows):
    """Pairs findings with ledger rows by key, in order. Returns
    (matched [(finding, row)], new [finding], gone [row])."""
    by_key = collections.OrderedDict()
    for f in findings:
        by_key.setdefault(key(f), ([], []))[0].append(f)
    for r in rows:
        by_key.setdefault(key(r), ([], []))[1].append(r)
    matched, new, gone = [], [], []
    for fs, rs in by_key.values():
        n = min(len(fs), len(rs))
        matched += list(zip(fs[:n], rs[:n]))
        new += fs[n:]
        gone += rs[n:]
    return matched, new, gone


def pct(num, den):
    return "%.1f%%" % (100.0 * num / den) if den else "-"


def table(title, groups, order=None):
    """groups: name -> list of (finding, row). Prints a markdown table."""
    print("| %s | findings | TRUE | FP | precision |" % title)
    print("| --- | ---: | ---: | ---: | ---: |")
    tot_t = tot_n = 0
    for name in order or sorted(groups):
        pairs = groups.get(name, [])
        t = sum(1 for _, r in pairs if r["judgement"] == "TRUE")
        print("| %s | %d | %d | %d | %s |" % (name, len(pairs), t,
                                              len(pairs) - t, pct(t, len(pairs))))
        tot_t += t
        tot_n += len(pairs)
    print("| **all** | %d | %d | %d | %s |" % (tot_n, tot_t, tot_n - tot_t,
                                               pct(tot_t, tot_n)))
    print()


def show_new(items, what):
    for f in items:
        print("- `%s/%s:%d` %s (%s) in `%s`: %s" % (
            f["repo"], f["path"], f["line"], f["rule"], f["verdict"],
            f["function"], f["message"]))
    if not items:
        print("- none (%s)" % what)
    print()


def load_status():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpora.tsv")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    for r in rows:
        if r["status"] not in ("looked", "fresh"):
            sys.exit("%s: status of %s must be looked or fresh" % (path, r["corpus"]))
    return {r["corpus"]: r["status"] for r in rows}


def main(argv):
    args = [a for a in argv[1:] if a != "--show-fresh"]
    show_fresh = len(args) != len(argv) - 1
    if len(args) != 2:
        sys.exit("usage: report.py [--show-fresh] LEDGER OUTDIR")
    ledger, outdir = args
    rows = load_ledger(ledger)
    status = load_status()

    def visible(d):
        return show_fresh or status.get(d["repo"]) != "fresh"

    default, only_all, scanned = [], [], []
    for path in sorted(glob.glob(os.path.join(outdir, "*.json"))):
        if path.endswith(".all.json"):
            continue
        corpus = os.path.basename(path)[:-len(".json")]
        scanned.append(corpus)
        fs = load_findings(path)
        default += fs
        all_path = os.path.join(outdir, corpus + ".all.json")
        if os.path.exists(all_path):
            left = collections.Counter(
                (key(f), f["message"]) for f in fs)
            for f in load_findings(all_path):
                k = (key(f), f["message"])
                if left[k]:
                    left[k] -= 1
                else:
                    only_all.append(f)
    if not scanned:
        sys.exit("%s: no <corpus>.json scans" % outdir)

    in_scope = [r for r in rows if r["repo"] in scanned]
    not_scanned = sorted({r["repo"] for r in rows} - set(scanned))
    matched, new, gone = pair(
        default, [r for r in in_scope if r["shown"] == "default"])
    all_matched, all_new, all_gone = pair(
        only_all, [r for r in in_scope if r["shown"] == "all"])

    print("## Precision of the default output\n")
    print("%d findings in %d corpora; %d judged, %d not yet (NEW).\n"
          % (len(default), len(scanned), len(matched), len(new)))
    by_rule = collections.defaultdict(list)
    by_corpus = collections.defaultdict(list)
    by_verdict = collections.defaultdict(list)
    for f, r in matched:
        by_rule[f["rule"]].append((f, r))
        by_corpus[f["repo"]].append((f, r))
        by_verdict[f["verdict"]].append((f, r))
    table("rule", by_rule)
    table("corpus", by_corpus, order=scanned)
    by_status = collections.defaultdict(list)
    for f, r in matched:
        by_status[status.get(f["repo"], "looked")].append((f, r))
    print("### Corpora looked at while changing the analysis, and fresh ones\n")
    for st in ("looked", "fresh"):
        names = [c for c in scanned if status.get(c, "looked") == st]
        conf = [(f, r) for f, r in by_status.get(st, []) if f["verdict"] == "confirmed"]
        conf_t = sum(1 for _, r in conf if r["judgement"] == "TRUE")
        print("- %s (%d corpora): %d of `confirmed` TRUE (%s)"
              % (st, len(names), conf_t, pct(conf_t, len(conf))))
    print()
    table("status", by_status, order=["looked", "fresh"])
    by_origin = collections.defaultdict(list)
    for f, r in matched:
        by_origin["%s, %s" % (status.get(f["repo"], "looked"), f["origin"])].append((f, r))
    print("### Found by the core's execution, or by a rule's own reading\n")
    table("corpora, origin", by_origin,
          order=["looked, core", "looked, rule", "fresh, core", "fresh, rule"])
    print("### By verification verdict\n")
    conf = by_verdict.get("confirmed", [])
    conf_t = sum(1 for _, r in conf if r["judgement"] == "TRUE")
    print("%s of the `confirmed` findings are TRUE (%d of %d).\n"
          % (pct(conf_t, len(conf)), conf_t, len(conf)))
    table("verdict", by_verdict)

    print("## The `--all` sample\n")
    print("`--all` adds %d findings the simulated device did not reproduce; "
          "%d are judged.\n" % (len(only_all), len(all_matched)))
    if all_matched:
        groups = collections.defaultdict(list)
        for f, r in all_matched:
            groups[f["rule"]].append((f, r))
        table("rule", groups)

    changed = [(f, r) for f, r in matched + all_matched
               if f["verdict"] != r["verdict"] and visible(f)]
    if changed:
        print("## Verdict changed since judging\n")
        for f, r in changed:
            print("- `%s/%s:%d` %s: %s, was %s (judged %s)" % (
                f["repo"], f["path"], f["line"], f["rule"], f["verdict"],
                r["verdict"], r["judgement"]))
        print()

    print("## NEW: reported, not in the ledger\n")
    hidden = [f for f in new if not visible(f)]
    show_new([f for f in new if visible(f)], "every default finding is judged")
    if hidden:
        print("NEW in fresh corpora (not listed; reviewers run --show-fresh): %d.\n"
              % len(hidden))
    if all_new:
        print("Not judged `--all`-only findings: %d (judging a sample is "
              "enough).\n" % len(all_new))

    print("## GONE: in the ledger, no longer reported\n")
    for r in [r for r in gone + all_gone if visible(r)]:
        print("- `%s/%s:%d` %s (%s, %s row, ledger line %d): %s" % (
            r["repo"], r["path"], r["line"], r["rule"], r["judgement"],
            r["shown"], r["lineno"], r["reason"]))
    if not gone and not all_gone:
        print("- none")
    hidden = [r for r in gone + all_gone if not visible(r)]
    if hidden:
        print("- %d rows of fresh corpora (not listed)" % len(hidden))
    print()
    if not_scanned:
        print("Ledger rows of corpora not in %s were left out: %s.\n"
              % (outdir, ", ".join(not_scanned)))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
