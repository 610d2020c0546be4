#!/usr/bin/env python3
"""robust.py - jfrtool disassemble and assemble on damaged input, made at
test time: multi-jdk25.jfr and the copied repository's chunks cut at
hundreds of offsets (inside headers, metadata, flushes, between chunks),
bytes changed at random (fixed seed), absurd header fields, junk between and
after chunks, compressed input cut short, and every file of
testdata/corrupt. Every command must end with status 0 (warnings allowed) or
2, never a signal, within 10 s and a 4 GiB address space (tests/robust's
limits), and what it writes must hold:

* assemble's output is made of closed, whole chunks: assembling it again
  warns about nothing and gives it back byte for byte;
* disassemble's files, joined, are the input's bytes.

Under JFR_TEST_QUICK (the sanitizer pass) one case in four is run.

Environment (set by make check): JFRTOOL, JFR_TESTDATA; TMPDIR."""
import glob
import gzip
import os
import random
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "robust"))
from robustlib import (RECORDINGS, TESTDATA, chunks, fail, finish, read, run,  # noqa: E402
                       scratch, write)

QUICK = bool(os.environ.get("JFR_TEST_QUICK"))
count = 0
seen = 0


def check(folder, path, raw=None):
    """assemble and disassemble `path`; `raw`: its bytes when decompressed."""
    global count, seen
    seen += 1
    if QUICK and seen % 4:
        return
    if raw is None:
        with open(path, "rb") as f:
            raw = f.read()
    out = os.path.join(folder, "out.jfr")
    again = os.path.join(folder, "again.jfr")
    for p in (out, again):
        if os.path.exists(p):
            os.remove(p)
    count += 1
    status, _, err = run(["assemble", path], out)
    if status == 0 and not os.path.exists(out):
        fail("assemble %s: exit 0 and no output" % path)
    if os.path.exists(out):
        count += 1
        status, _, err = run(["assemble", out], again)
        if status != 0 or err.strip():
            fail("assemble of assemble's output (%s): exit %s, %r" % (path, status, err[:300]))
        elif open(out, "rb").read() != open(again, "rb").read():
            fail("assemble of assemble's output (%s) is not that output" % path)
    parts = os.path.join(folder, "parts")
    if os.path.isdir(parts):
        for f in os.listdir(parts):
            os.remove(os.path.join(parts, f))
    else:
        os.mkdir(parts)
    count += 1
    status, _, err = run(["disassemble", "--max-size", "1", "--output", parts], path)
    names = sorted(os.listdir(parts), key=os.fsencode)
    if names:
        joined = b"".join(open(os.path.join(parts, n), "rb").read() for n in names)
        if joined != raw:
            fail("disassemble %s: the parts joined are not the input (%d of %d bytes)"
                 % (path, len(joined), len(raw)))


def cuts(folder):
    """multi-jdk25.jfr and the live chunk cut inside every structure."""
    multi = read("multi-jdk25.jfr")
    offs = {1, 4, 8, 16, 40, 63, 64, 67, 68, 69}
    for pos, size in chunks(multi):
        offs |= {pos + d for d in (1, 8, 64, 67, 68, 100, 10000, 120000)}
        offs |= {pos + size - d for d in (1, 20, 95, 96, 200)}
        offs |= set(range(pos + 68, pos + size, max(1, size // 12)))
    for off in sorted(o for o in offs if 0 < o < len(multi)):
        check(folder, write(folder, "cut.jfr", multi[:off]))
    live = open(sorted(glob.glob(os.path.join(TESTDATA, "repository", "*.jfr")))[-1], "rb").read()
    for off in list(range(1, len(live), max(1, len(live) // 30))) + [len(live) - 95, len(live) - 1]:
        check(folder, write(folder, "live-cut.jfr", live[:off]))


def mutations(folder):
    rng = random.Random(20261126)
    live = open(sorted(glob.glob(os.path.join(TESTDATA, "repository", "*.jfr")))[-1], "rb").read()
    for name, data, n in (("multi", read("multi-jdk25.jfr"), 25), ("live", live, 25)):
        for _ in range(n):
            buf = bytearray(data)
            for _ in range(rng.randint(1, 6)):
                # headers and the ends of flushes (the chunk-header
                # checkpoints) more often than elsewhere
                where = rng.random()
                if where < 0.3:
                    i = rng.randrange(0, 68)
                elif where < 0.6:
                    i = rng.randrange(max(0, len(buf) - 100), len(buf))
                else:
                    i = rng.randrange(0, len(buf))
                buf[i] = rng.choice([0, 0xff, 0x7f, 0x80, rng.randrange(256)])
            check(folder, write(folder, "%s-mut.jfr" % name, bytes(buf)))


def headers(folder):
    """Absurd sizes and offsets, every state byte that matters, in the live
    chunk and in the second chunk of multi-jdk25.jfr."""
    live = open(sorted(glob.glob(os.path.join(TESTDATA, "repository", "*.jfr")))[-1], "rb").read()
    multi = read("multi-jdk25.jfr")
    second = chunks(multi)[1][0]
    for data, pos in ((live, 0), (multi, second)):
        for off, value in ((8, 1 << 62), (8, 0), (8, 67), (8, 68), (16, 1 << 40), (16, 0),
                           (24, 0), (24, 1 << 40), (8, (1 << 64) - 1)):
            buf = bytearray(data)
            buf[pos + off:pos + off + 8] = struct.pack(">Q", value)
            check(folder, write(folder, "hdr.jfr", bytes(buf)))
        for state in (0, 1, 254, 255):
            buf = bytearray(data)
            buf[pos + 64] = state
            check(folder, write(folder, "state.jfr", bytes(buf)))


def junk(folder):
    multi = read("multi-jdk25.jfr")
    second = chunks(multi)[1][0]
    for filler in (b"x" * 10, b"FLR\0" + b"\0" * 100, b"\0" * 4096):
        check(folder, write(folder, "between.jfr", multi[:second] + filler + multi[second:]))
        check(folder, write(folder, "after.jfr", multi + filler))
        check(folder, write(folder, "before.jfr", filler + multi))
    packed = gzip.compress(multi, mtime=0)
    for off in (20, len(packed) // 2, len(packed) - 9):
        path = write(folder, "cut.jfr.gz", packed[:off])
        d = zlib.decompressobj(16 + 15)
        check(folder, path, d.decompress(packed[:off]))


def corrupt(folder):
    for path in sorted(glob.glob(os.path.join(TESTDATA, "corrupt", "*.jfr"))):
        raw = None
        with open(path, "rb") as f:
            head = f.read(2)
        if head == b"\x1f\x8b":
            continue  # compressed: what it decompresses to is not ours to say
        check(folder, path, raw)


def main():
    folder = scratch()
    cuts(folder)
    mutations(folder)
    headers(folder)
    junk(folder)
    corrupt(folder)
    finish("assemble on damaged input", count)


if __name__ == "__main__":
    sys.exit(main())
