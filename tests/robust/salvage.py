#!/usr/bin/env python3
"""salvage.py - what survives damage. A file cut inside chunk N reports
chunks 1..N-1 whole: `jfrtool summary` counts at least those of chunks
1..N-1 read alone (each chunk split out at the boundaries its header gives)
and at most those of chunks 1..N. Unfinished chunks (JVM killed) are read
with a warning and the counts of JDK 17's `jfr summary`
(testdata/jdk/unfinished-*.jfr.summary17.txt). A chunk with an
async-profiler-style placeholder header (size 1 GiB or 0, zero offsets)
is read with a warning, as are chunks whose declared size runs past the
end of the input."""
import os
import sys

from robustlib import (chunks, fail, finish, make, read, run, scratch, summary_counts,
                       write, TESTDATA)
from damaged import patched_header

count = 0


def counts_of(path, want_warning=None):
    global count
    count += 1
    status, out, err = run(["summary"], path)
    if status is None:
        return {}
    if want_warning is not None and want_warning not in err:
        fail("summary %s: expected a warning containing %r, got %r"
             % (path, want_warning, err.strip()))
    return summary_counts(out)


def add(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


def compare_bounds(what, got, low, high):
    for k in set(low) | set(high) | set(got):
        if not low.get(k, 0) <= got.get(k, 0) <= high.get(k, 0):
            fail("%s: %s counted %d, expected %d..%d" % (what, k, got.get(k, 0),
                                                        low.get(k, 0), high.get(k, 0)))


def cut_inside_chunks(folder, name, cuts_in):
    data = read(name)
    parts = chunks(data)
    alone = [counts_of(write(folder, "chunk%d.jfr" % i, data[p:p + s]))
             for i, (p, s) in enumerate(parts)]
    if len(parts) < max(cuts_in) or not all(alone):
        fail("%s: expected at least %d readable chunks" % (name, max(cuts_in)))
        return
    for n in cuts_in:  # 1-based chunk number
        pos, size = parts[n - 1]
        before = {}
        for c in alone[:n - 1]:
            before = add(before, c)
        upto = add(before, alone[n - 1])
        for off in (pos + 1, pos + 40, pos + 68, pos + 69, pos + 1000, pos + size // 3,
                    pos + size // 2, pos + size - 100, pos + size - 1):
            got = counts_of(write(folder, "cut.jfr", data[:off]), want_warning="chunk %d" % (n - 1))
            compare_bounds("%s cut at %d (inside chunk %d)" % (name, off, n), got, before, upto)


def jdk17_counts(name):
    path = os.path.join(TESTDATA, "jdk", name + ".summary17.txt")
    with open(path, "rb") as f:
        return summary_counts(f.read())


def unfinished():
    for name in ("unfinished-jdk17.jfr", "unfinished-jdk25.jfr"):
        from robustlib import RECORDINGS
        got = counts_of(os.path.join(RECORDINGS, name), want_warning="not closed")
        want = jdk17_counts(name)
        # JDK 17 names the checkpoint pseudo-type jdk.CheckPoint
        norm = lambda d: {k.lower(): v for k, v in d.items()}
        if norm(got) != norm(want):
            fail("%s: counts differ from JDK 17's jfr summary:\n  ours %s\n  jdk  %s"
                 % (name, sorted(norm(got).items()), sorted(norm(want).items())))


def placeholders(folder):
    mini_path = make("mini", folder)
    mini = open(mini_path, "rb").read()
    whole = counts_of(mini_path)
    # async-profiler writes its metadata first and patches the header last
    for kw in (dict(size=1 << 30, cp=0, meta=0), dict(size=0, cp=0, meta=0),
               dict(size=1 << 30, cp=0, meta=0, state=1)):
        got = counts_of(write(folder, "ap.jfr", patched_header(mini, **kw)),
                        want_warning="incomplete")
        if got != whole:
            fail("placeholder header %s: counts %s, expected %s" % (kw, got, whole))
    # a JDK chunk whose size field says more than the file holds
    cpu = read("cpu-jdk25.jfr")
    whole = counts_of(write(folder, "cpu.jfr", cpu))
    got = counts_of(write(folder, "big.jfr", patched_header(cpu, size=1 << 30)),
                    want_warning="incomplete")
    if got != whole:
        fail("cpu-jdk25.jfr with a 1 GiB size: counts %s, expected %s" % (got, whole))


def main():
    folder = scratch()
    cut_inside_chunks(folder, "multi-jdk25.jfr", (2, 3))
    cut_inside_chunks(folder, "concat-17-25.jfr", (2,))
    unfinished()
    placeholders(folder)
    finish("salvage", count)


if __name__ == "__main__":
    sys.exit(main())
