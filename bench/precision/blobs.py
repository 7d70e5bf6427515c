#!/usr/bin/env python3
"""blobs.py GITDIR REV DEST REGEX -- write the blobs of commit REV whose
paths match REGEX under DEST, read through one `git cat-file --batch`
(one process for the whole tree, not one per file). Blobs a snapshot lacks
are skipped. Prints "WRITTEN MISSING". Python 3 standard library only.
bench/realbugs/scan.py imports write_blobs for its trees."""
import os
import re
import subprocess
import sys
import tempfile


def write_blobs(gitdir, rev, dest, want=None, paths=()):
    """Writes the blobs of rev (under paths, if any; whose path matches the
    compiled regex want, if any) to dest; returns (written, missing)."""
    ls = subprocess.run(["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", rev, "--", *paths],
                        capture_output=True, check=True).stdout
    blobs = []
    for entry in ls.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, obj = meta.split()
        name = path.decode("utf-8", "surrogateescape")
        if kind == b"blob" and mode != b"120000" and (want is None or want.search(name)):
            blobs.append((obj, name))
    written = missing = 0
    if not blobs:
        return written, missing
    with tempfile.TemporaryFile() as ids:
        ids.write(b"".join(obj + b"\n" for obj, _ in blobs))
        ids.seek(0)
        out = subprocess.run(["git", "--git-dir", gitdir, "cat-file", "--batch"],
                             stdin=ids, capture_output=True, check=True).stdout
    pos = 0
    for _, name in blobs:
        nl = out.index(b"\n", pos)
        header = out[pos:nl].split()
        pos = nl + 1
        if len(header) < 3 or header[1] != b"blob":
            missing += 1
            continue
        size = int(header[2])
        dst = os.path.join(dest, name)
        os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
        with open(dst, "wb") as f:
            f.write(out[pos:pos + size])
        pos += size + 1
        written += 1
    return written, missing


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.split("\n")[0])
    gitdir, rev, dest, pattern = sys.argv[1:]
    print(*write_blobs(gitdir, rev, dest, re.compile(pattern)))


if __name__ == "__main__":
    main()
