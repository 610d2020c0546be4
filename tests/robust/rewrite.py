#!/usr/bin/env python3
"""rewrite.py - scrub and repair on the damaged recordings of damaged.py
(truncations of multi-jdk25.jfr at hundreds of offsets, random byte
mutations with a fixed seed, absurd header fields, the synthetic absurd
recordings of jfrmake, records of size 0): never a signal or a hang; exit
0 or 2 (scrub), 0, 2 or 3 (repair: 2 exactly when nothing was written);
every output they write is read by jfrtool with --strict (no warning),
with as many events as summary salvaged from the input less those named
left out."""
import os
import random
import re
import subprocess
import sys

from robustlib import (TIMEOUT, _limits, chunks, fail, finish, header_offsets, make, read,
                       scratch, summary_counts, write, JFRTOOL)
from damaged import patched_header, truncation_offsets

count = 0
LEFT_OUT = re.compile(r": a (\S+) event of \d+ bytes: .*: left out$")


def jfrtool(args):
    try:
        p = subprocess.run([JFRTOOL] + args, capture_output=True, timeout=TIMEOUT,
                           preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        fail("jfrtool %s: timed out after %d s" % (" ".join(args), TIMEOUT))
        return None, b"", ""
    if p.returncode < 0:
        fail("jfrtool %s: killed by signal %d" % (" ".join(args), -p.returncode))
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def check(path, folder):
    global count
    out = os.path.join(folder, "out.jfr")
    _, sout, _ = jfrtool(["summary", path])
    salvaged = summary_counts(sout)
    for args, allowed in ((["repair"], (0, 2, 3)), (["scrub", "--redact"], (0, 2))):
        count += 1
        if os.path.exists(out):
            os.unlink(out)
        status, _, err = jfrtool(args + [path, out])
        if status is None:
            continue
        if status not in allowed:
            fail("jfrtool %s %s: exit status %d: %s" % (" ".join(args), path, status,
                                                         err[-500:]))
            continue
        if status == 2:
            if os.path.exists(out):
                fail("jfrtool %s %s: exit 2 but wrote its output" % (" ".join(args), path))
            continue
        st, rout, rerr = jfrtool(["--strict", "summary", out])
        if st != 0 or rerr:
            fail("jfrtool %s %s: its output is read with a warning: %s"
                 % (" ".join(args), path, rerr[:300]))
            continue
        want = dict(salvaged)
        for line in err.splitlines():
            m = LEFT_OUT.search(line)
            if m and m.group(1) in want:
                want[m.group(1)] -= 1
        want = {k: v for k, v in want.items() if v and not k.endswith((".Metadata",
                                                                        ".Checkpoint"))}
        got = {k: v for k, v in summary_counts(rout).items()
               if v and not k.endswith((".Metadata", ".Checkpoint"))}
        if got != want:
            diff = sorted(set(got.items()) ^ set(want.items()))[:4]
            fail("jfrtool %s %s: output counts are not what summary salvaged: %s"
                 % (" ".join(args), path, diff))


def main():
    folder = scratch()
    multi = read("multi-jdk25.jfr")
    offs = truncation_offsets(multi)
    for off in offs[::3]:
        check(write(folder, "cut.jfr", multi[:off]), folder)
    rng = random.Random(20261126)
    cpu = read("cpu-jdk25.jfr")
    for k in range(40):
        buf = bytearray(cpu)
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(68, len(buf))
            buf[i] = rng.choice([0, 0xff, 0x7f, 0x80, rng.randrange(256)])
        check(write(folder, "mut.jfr", bytes(buf)), folder)
    mini = open(make("mini", folder), "rb").read()
    _, cp, meta = header_offsets(mini)
    for kw in [dict(size=1 << 60), dict(size=0), dict(size=1 << 30, cp=0, meta=0),
               dict(meta=len(mini)), dict(cp=1 << 62), dict(cp=meta), dict(state=1)]:
        check(write(folder, "hdr.jfr", patched_header(mini, **kw)), folder)
    second = chunks(multi)[1][0]
    for kw in [dict(size=1 << 60), dict(size=0), dict(meta=1 << 40), dict(cp=1 << 40)]:
        check(write(folder, "multi-hdr.jfr", patched_header(multi, pos=second, **kw)), folder)
    for name in ["array-2e31", "string-2e60", "nest-inline-cycle", "nest-deep-types",
                 "pool-2e31-entries", "zero-size-event", "leak-cycle", "mini-2chunks",
                 "mini-jfr10"]:
        check(make(name, folder), folder)
    finish("rewrite", count)


if __name__ == "__main__":
    sys.exit(main())
