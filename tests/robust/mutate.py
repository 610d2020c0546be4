#!/usr/bin/env python3
"""mutate.py - seeded mutations of real and synthetic recordings through
every jfrtool command, with default settings and --jobs 1 (issue 16, "make
it stay fixed").

Each variant is one mutation of one input, chosen by a seeded generator:
a cut at a structure boundary (chunk header, metadata, checkpoint, record
start, a few bytes either side), a header field set to an edge value (chunk
size, pool and metadata offsets, start, duration, tick rate), a record's
size or type id varint rewritten, chunks duplicated, dropped or reordered,
a few random bytes, or the whole thing gzip- or lz4-wrapped after a bomb of
zeros. Every command then runs on it twice (default threads and --jobs 1)
under a time limit and, outside AddressSanitizer, an address-space limit. A
signal, a time-out, an exit status outside 0..2, a sanitizer's report on
standard error (AddressSanitizer and UBSan exit with 1, a status jfrtool
uses too), or output or status that differs between the two runs fails
the test; the message gives the seed,
the mutation and the command, and the variant is kept for reproducing.

    mutate.py [--variants N] [--seed S] [--processes P] [--keep DIR]

make check runs 150 variants (24 under JFR_TEST_QUICK, the sanitizer pass);
`make mutate-campaign` runs many more (MUTATE_VARIANTS, MUTATE_SEED)."""
import argparse
import gzip
import os
import random
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from robustlib import JFRMAKE, JFRTOOL, RECORDINGS, chunks, sanitized  # noqa: E402

INPUTS = ["multi-jdk25.jfr", "cpu-jdk17.jfr", "concat-17-25.jfr", "leak-jdk25.jfr",
          "unfinished-jdk17.jfr"]
SYNTHETIC = ["mini-2chunks", "leak", "nest-deep-metadata"]
TIMEOUT = 60 if sanitized() else 20
ADDRESS_SPACE = 2 << 30

# (arguments, whether --jobs applies); diff gets the file twice
COMMANDS = [
    (["summary"], True), (["metadata"], False), (["print", "--stack-depth", "3"], False),
    (["print", "--json", "--stack-depth", "3"], False),
    (["print", "--xml", "--stack-depth", "3"], False), (["folded"], True),
    (["folded", "--event", "alloc", "--threads"], True), (["flame"], True),
    (["flame", "--format", "svg"], True), (["folded", "--format", "pprof"], True),
    (["diff"], True), (["view", "hot-methods"], True),
    (["view", "cpu-time-hot-methods"], True), (["view", "allocation-by-site"], True),
    # the records of its tables listed in three threads first (one table:
    # after the share of events read from the checkpoint chain), then --jobs 1
    (["view", "--jobs", "3", "gc"], True), (["view", "--jobs", "3", "gc-pauses"], True),
    (["leaks"], False),
]


def limits():
    if not sanitized():
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


# ---- mutations: each returns (bytes, description) ---------------------------

def varint_len(d, p):
    for i in range(9):
        if p + i >= len(d) or i == 8 or not d[p + i] & 0x80:
            return i + 1
    return 9


def record_starts(d, start, size, limit=4000):
    """Offsets of the records of the chunk at `start`, by their sizes."""
    out, p, end = [], start + 68, start + size
    while p < end and len(out) < limit:
        v, s, n = 0, 0, varint_len(d, p)
        for i in range(n):
            v |= (d[p + i] & (0xff if i == 8 else 0x7f)) << s
            s += 7
        if v <= 0 or p + v > end:
            break
        out.append(p)
        p += v
    return out


def edge_value(rng):
    return rng.choice([0, 1, 67, 68, 12345, 2**31 - 1, 2**32, 2**62, 2**63 - 1, 2**64 - 1])


def cut(rng, d, parts):
    start, size = rng.choice(parts)
    cp, meta = struct.unpack(">QQ", d[start + 16:start + 32])
    points = [start, start + 32, start + 68, start + meta, start + cp, start + size]
    recs = record_starts(d, start, size)
    points += rng.sample(recs, min(4, len(recs)))
    at = max(0, min(len(d), rng.choice(points) + rng.randint(-3, 3)))
    return d[:at], "cut at %d" % at


def header_field(rng, d, parts):
    start, _ = rng.choice(parts)
    field, at = rng.choice([("size", 8), ("pool offset", 16), ("metadata offset", 24),
                            ("start ns", 32), ("duration ns", 40), ("start ticks", 48),
                            ("ticks/s", 56)])
    v = edge_value(rng)
    d = bytearray(d)
    d[start + at:start + at + 8] = struct.pack(">Q", v)
    return bytes(d), "chunk at %d: %s = %d" % (start, field, v)


def record_varint(rng, d, parts):
    start, size = rng.choice(parts)
    recs = record_starts(d, start, size)
    if not recs:
        return header_field(rng, d, parts)
    p = rng.choice(recs)
    if rng.random() < 0.5:  # the type id, after the size
        p += varint_len(d, p)
        what = "type id"
    else:
        what = "size"
    n = varint_len(d, p)
    v = rng.choice([0, 1, 2, 0x7f, rng.randrange(1 << (7 * n))])
    d = bytearray(d)
    for i in range(n):  # same length: the record stays where it was
        d[p + i] = ((v >> (7 * i)) & 0x7f) | (0x80 if i < n - 1 else 0)
    return bytes(d), "record at %d: %s = %d" % (p, what, v)


def reorder(rng, d, parts):
    pieces = [d[s:s + n] for s, n in parts]
    how = rng.choice(["duplicate", "drop", "reverse", "shuffle"])
    if how == "duplicate":
        i = rng.randrange(len(pieces))
        pieces.insert(i, pieces[i])
    elif how == "drop" and len(pieces) > 1:
        pieces.pop(rng.randrange(len(pieces)))
    elif how == "reverse":
        pieces.reverse()
    else:
        rng.shuffle(pieces)
    return b"".join(pieces) + d[sum(n for _, n in parts):], "chunks: %s" % how


def flip(rng, d, parts):
    d = bytearray(d)
    spots = [rng.randrange(len(d)) for _ in range(rng.randint(1, 8))]
    for p in spots:
        d[p] = rng.randrange(256)
    return bytes(d), "bytes at %s" % spots


def bomb(rng, d, parts):
    zeros = 64 << 20
    body = d[:rng.choice([68, len(d)])] + bytes(zeros)
    return gzip.compress(body, 1), "gzip of %d bytes then %d zeros" % (len(body) - zeros,
                                                                      zeros)


MUTATIONS = [cut, cut, header_field, record_varint, record_varint, reorder, flip, bomb]


def variant(seed, sources):
    rng = random.Random(seed)
    name = rng.choice(sorted(sources))
    d = sources[name]
    parts = chunks(d) or [(0, len(d))]
    mutation = rng.choice(MUTATIONS)
    data, what = mutation(rng, d, parts)
    return name, data, what


# ---- running -------------------------------------------------------------------

# what AddressSanitizer, LeakSanitizer and UBSan print when they find something
SANITIZER_REPORTS = (b"ERROR: AddressSanitizer", b"ERROR: LeakSanitizer",
                     b"runtime error:")


def run(args, path):
    files = [path, path] if args[0] == "diff" else [path]
    try:
        p = subprocess.run([JFRTOOL] + args + files, capture_output=True,
                           timeout=TIMEOUT, preexec_fn=limits)
    except subprocess.TimeoutExpired:
        return "timeout", b""
    if any(r in p.stderr for r in SANITIZER_REPORTS):
        return "sanitizer", p.stderr
    return p.returncode, p.stdout


def check_variant(seed, sources, folder):
    name, data, what = variant(seed, sources)
    path = os.path.join(folder, "variant-%d.jfr" % seed)
    with open(path, "wb") as f:
        f.write(data)
    problems = []
    for args, jobs in COMMANDS:
        status, out = run(args, path)
        if status == "sanitizer":
            problems.append("%s: sanitizer report\n%s" %
                            (" ".join(args), out.decode(errors="replace")[-3000:]))
            continue
        bad = status == "timeout" or status < 0 or status > 2
        if bad:
            problems.append("%s: %s" % (" ".join(args), "timed out" if status == "timeout"
                                        else "signal %s" % signal.Signals(-status).name
                                        if status < 0 else "exit %d" % status))
            continue
        if jobs:
            status1, out1 = run(args + ["--jobs", "1"], path)
            if (status1, out1) != (status, out):
                problems.append("%s: --jobs 1 differs (exit %s vs %s)" %
                                (" ".join(args), status1, status))
    if not problems:
        os.unlink(path)
    return seed, name, what, path, problems


def main():
    quick = os.environ.get("JFR_TEST_QUICK") == "1"
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", type=int, default=24 if quick else 150)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--keep", default=None, help="folder for failing variants")
    a = ap.parse_args()

    folder = a.keep or tempfile.mkdtemp(prefix="jfr-mutate-")
    os.makedirs(folder, exist_ok=True)
    sources = {}
    for n in INPUTS:
        with open(os.path.join(RECORDINGS, n), "rb") as f:
            sources[n] = f.read()
    for n in SYNTHETIC:
        path = os.path.join(folder, n + ".jfr")
        subprocess.run([JFRMAKE, n, path], check=True)
        with open(path, "rb") as f:
            sources[n] = f.read()
        os.unlink(path)
    print("mutate: seeds %d..%d, %d commands each with and without --jobs 1" %
          (a.seed, a.seed + a.variants - 1, len(COMMANDS)))
    failed = 0
    with ThreadPoolExecutor(max_workers=a.processes) as pool:
        results = pool.map(lambda s: check_variant(s, sources, folder),
                           range(a.seed, a.seed + a.variants))
        for seed, name, what, path, problems in results:
            for p in problems:
                failed += 1
                print("FAIL: seed %d (%s, %s): %s\n  reproduce: jfrtool ... %s" %
                      (seed, name, what, p, path))
    print("mutate: %d variants, %d failures" % (a.variants, failed))
    if not failed and not a.keep:
        shutil.rmtree(folder, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
