#!/usr/bin/env python3
"""score.py ISSUES_EXP SCAN_JSON SUITE -- score holdfast on Pulse's C++ suite.

Expected: every (file, function) of ISSUES_EXP with an issue of the kinds
holdfast is about (USE_AFTER_DELETE, USE_AFTER_FREE, USE_AFTER_LIFETIME,
VECTOR_INVALIDATION, STACK_VARIABLE_ADDRESS_ESCAPE). Clean: every function
of the suite's .cpp files whose name ends in _ok or _good (found by a
definition's name followed by an opening parenthesis). A function is found
(or flagged) when a finding of SCAN_JSON lies in its file and names it as
its function (the last ::-component compared). The default output is the
findings whose verification is null or confirmed; --all is every finding.
Prints the figures and the expected functions missed by the default output.
Python 3 standard library only.
"""
import json
import os
import re
import sys

KINDS = {"USE_AFTER_DELETE", "USE_AFTER_FREE", "USE_AFTER_LIFETIME",
         "VECTOR_INVALIDATION", "STACK_VARIABLE_ADDRESS_ESCAPE"}


def last(fn):
    """The function's last name: Pulse names each instantiation of a
    function template (f<int>, f<_Bool>); a finding names the one function
    of the source, so template arguments are dropped."""
    fn = re.sub(r"<[^<>]*>", "", fn.split("(")[0])
    return fn.replace("->", "::").split("::")[-1].strip()


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: score.py ISSUES_EXP SCAN_JSON SUITE")
    exp_path, scan_path, suite = sys.argv[1:]
    expected = set()
    with open(exp_path) as f:
        for line in f:
            parts = line.split(", ")
            if len(parts) > 4 and parts[3] in KINDS:
                expected.add((os.path.basename(parts[0]), last(parts[1])))
    clean = set()
    defn = re.compile(r"\b(\w+_(?:ok|good))\s*\(")
    for name in sorted(os.listdir(suite)):
        if name.endswith(".cpp"):
            with open(os.path.join(suite, name), errors="replace") as f:
                for m in defn.finditer(f.read()):
                    clean.add((name, m.group(1)))
    clean -= expected
    with open(scan_path) as f:
        log = json.load(f)
    dflt, every = set(), set()
    for x in log["findings"]:
        key = (os.path.basename(x["file"]), last(x["function"]))
        every.add(key)
        v = x.get("verification")
        if not x.get("suppressed") and (v is None or v.get("verdict") == "confirmed"):
            dflt.add(key)
    fd, fa = len(expected & dflt), len(expected & every)
    cd, ca = len(clean & dflt), len(clean & every)
    n, m = len(expected), len(clean)
    print(f"expected functions found: default {fd}/{n} ({fd / n:.2f}), --all {fa}/{n} ({fa / n:.2f})")
    print(f"_ok/_good functions flagged: default {cd}/{m} ({cd / m:.3f}), --all {ca}/{m} ({ca / m:.3f})")
    for f, fn in sorted(expected - dflt):
        print(f"MISSED {f} {fn}")
    for f, fn in sorted(clean & dflt):
        print(f"FLAGGED {f} {fn}")


if __name__ == "__main__":
    main()
