#!/usr/bin/env python3
"""damaged.py - jfrtool on damaged recordings made at test time from
testdata: truncations at hundreds of offsets (inside headers, metadata,
pools, events and between the chunks of multi-jdk25.jfr), random byte
mutations with a fixed seed, absurd sizes and counts, zero-size records,
pool cycles and chunk durations near INT64_MAX. Every command must end with
status 0 (warnings allowed) or 2, never a signal, and 2 when an input has no
readable chunk, within 10 s and a 4 GiB address space; a cut that leaves a
chunk incomplete must be reported (a warning or status 2)."""
import json
import os
import random
import struct
import subprocess
import sys

from robustlib import (JFRTOOL, RECORDINGS, chunks, varint, finish, header_offsets, make, read, run, scratch,
                       write)

FAST = [["summary"], ["folded", "--event", "exec"]]
ALL = FAST + [["print", "--json"], ["leaks"]]
count = 0


def check(path, commands, must_warn=False):
    global count
    for args in commands:
        count += 1
        status, _, err = run(args, path)
        if must_warn and status == 0 and not err.strip():
            from robustlib import fail
            fail("jfrtool %s %s: damaged input read without a warning" % (" ".join(args), path))


def truncation_offsets(data):
    """Offsets inside each header, metadata, the last checkpoint, the events,
    and around every chunk boundary."""
    offs = set(range(0, 69, 3)) | {1, 4, 7, 8, 15, 16, 63, 64, 65, 67}
    for pos, size in chunks(data):
        _, cp, meta = header_offsets(data, pos)
        for d in (1, 2, 5, 20, 100, 1000, 10000, 50000):
            offs |= {pos + meta + d, pos + cp + d}
        offs |= {pos + size - 1, pos + size, pos + size + 1, pos + size + 4,
                 pos + size + 40, pos + size + 67}
        step = max(1, size // 40)
        offs |= set(range(pos + 68, pos + size, step))
    return sorted(o for o in offs if 0 < o < len(data))


def truncations(folder):
    data = read("multi-jdk25.jfr")
    bounds = {pos for pos, _ in chunks(data)} | {len(data)}
    offs = truncation_offsets(data)
    assert len(offs) >= 200, len(offs)
    slow = set(offs[5::40])  # print --json is slow on big files: a sample
    for i, off in enumerate(offs):
        path = write(folder, "cut.jfr", data[:off])
        commands = ALL if off in slow else FAST if i % 3 == 0 else FAST[:1]
        check(path, commands, must_warn=off not in bounds)
    # a small recording cut at every 7th byte: every structure boundary
    mini = open(make("mini-2chunks", folder), "rb").read()
    for i, off in enumerate(range(1, len(mini), 37)):
        path = write(folder, "mini-cut.jfr", mini[:off])
        check(path, ALL if i % 4 == 0 else FAST, must_warn=off != len(mini) // 2)


def mutations(folder):
    rng = random.Random(20261122)
    bases = [("mini", open(make("mini", folder), "rb").read(), ALL, 40),
             ("leak", open(make("leak", folder), "rb").read(), ALL, 30),
             ("cpu-jdk25", read("cpu-jdk25.jfr"), FAST, 15)]
    for name, data, commands, n in bases:
        for k in range(n):
            buf = bytearray(data)
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(68 if rng.random() < 0.9 else 0, len(buf))
                buf[i] = rng.choice([0, 0xff, 0x7f, 0x80, rng.randrange(256)])
            check(write(folder, "%s-mut.jfr" % name, bytes(buf)), commands)


def patched_header(data, pos=0, size=None, cp=None, meta=None, state=None, version=None):
    buf = bytearray(data)
    if version is not None:
        buf[pos + 4:pos + 8] = struct.pack(">HH", *version)
    for off, v in ((8, size), (16, cp), (24, meta)):
        if v is not None:
            buf[pos + off:pos + off + 8] = struct.pack(">Q", v)
    if state is not None:
        buf[pos + 64] = state
    return bytes(buf)


def absurd(folder):
    for name in ["array-2e31", "array-negative", "string-2e60", "nest-inline-cycle",
                 "nest-deep-types", "nest-deep-metadata", "pool-2e31-entries",
                 "zero-size-event", "leak-cycle"]:
        check(make(name, folder), ALL + [["print"]])
    mini = open(make("mini", folder), "rb").read()
    _, cp, meta = header_offsets(mini)
    for kw in [dict(size=1 << 60), dict(size=(1 << 63) + 5), dict(size=(1 << 64) - 1),
               dict(size=0), dict(size=67), dict(size=1 << 30, cp=0, meta=0),
               dict(meta=1 << 62), dict(meta=len(mini)), dict(meta=0), dict(meta=67),
               dict(cp=1 << 62), dict(cp=len(mini) - 1), dict(cp=1), dict(cp=meta),
               dict(meta=cp), dict(state=1), dict(state=255), dict(version=(0, 9)),
               dict(version=(3, 0)), dict(version=(1, 0))]:
        check(write(folder, "hdr.jfr", patched_header(mini, **kw)), ALL)
    multi = read("multi-jdk25.jfr")
    second = chunks(multi)[1][0]
    for kw in [dict(size=1 << 60), dict(size=0), dict(meta=1 << 40), dict(cp=1 << 40)]:
        check(write(folder, "multi-hdr.jfr", patched_header(multi, pos=second, **kw)), FAST)


def zero_size(folder):
    """Records of size 0 in a real recording (async-profiler#1584 loops
    forever on them): the 2nd, 50th and 500th record of cpu-jdk25.jfr."""
    data = read("cpu-jdk25.jfr")
    starts, pos = [], 68
    while pos < len(data) and len(starts) < 600:
        size, _ = varint(data, pos)
        starts.append(pos)
        pos += size
    for n in (1, 49, 499):
        buf = bytearray(data)
        buf[starts[n]] = 0
        check(write(folder, "zero.jfr", bytes(buf)), FAST, must_warn=True)


def durations(folder):
    """Chunk durations near INT64_MAX (one of 2^63-1, two of 2^62) saturate
    in summary's total instead of overflowing to a negative number."""
    global count
    multi = read("multi-jdk25.jfr")
    for name, values in (("max", [(1 << 63) - 1]), ("two-2e62", [1 << 62, 1 << 62])):
        buf = bytearray(multi)
        for (pos, _), v in zip(chunks(multi), values):
            buf[pos + 40:pos + 48] = struct.pack(">q", v)
        path = write(folder, "duration-%s.jfr" % name, bytes(buf))
        for jobs in ("1", "3"):
            count += 1
            status, out, _ = run(["summary", "--jobs", jobs], path)
            if status == 0 and b" Duration: 9223372037 s\n" not in out:
                from robustlib import fail
                fail("summary --jobs %s %s: duration not saturated: %r"
                     % (jobs, path, [l for l in out.splitlines() if b"Duration" in l]))


def start_times(folder):
    """A chunk start before 1678 or after 2262 beside real times: every span
    and time bucket of the report, its rules and the findings saturates
    (UBSan, fuzz_profile of 2026-11-28: the span overflowed int64_t), and so
    does a start of INT64_MAX plus the chunk's duration."""
    multi = read("multi-jdk25.jfr")
    second = chunks(multi)[1][0]
    commands = [["report", "-o", os.devnull], ["rules"], ["view", "gc"],
                ["view", "recording"], ["folded", "--event", "exec", "--threads"],
                ["summary"], ["print", "--json"]]
    for name, pos, v in (("first-1e18-negative", 0, -8784552409113296896),
                         ("second-9e18", second, 9000000000000000000),
                         ("second-min", second, -(1 << 63)),
                         ("first-max", 0, (1 << 63) - 1)):
        buf = bytearray(multi)
        buf[pos + 32:pos + 40] = struct.pack(">q", v)
        check(write(folder, "start-%s.jfr" % name, bytes(buf)), commands)


EVERY = [["summary"], ["metadata"], ["print"], ["print", "--json"], ["print", "--xml"],
         ["folded"],
         ["flame"], ["leaks"], ["view", "hot-methods"], ["view", "cpu-time-hot-methods"],
         ["view", "events-by-count"], ["view", "recording"]]


def summary_total(out):
    """The events a `summary` table counts (its Metadata and Checkpoint rows
    are records, not events)."""
    total, table = 0, False
    for line in out.decode().splitlines():
        if line.startswith("====="):
            table = True
        elif table and len(line.split()) >= 3 and line.split()[0] not in (
                "jdk.Metadata", "jdk.Checkpoint"):
            total += int(line.split()[-2])
    return total


def counted_views(folder):
    """The views that count every type (events-by-count, recording) read on
    past an unreadable chunk, say so, and count what summary counts."""
    global count
    from robustlib import fail
    multi = bytearray(read("multi-jdk25.jfr"))
    pos = chunks(bytes(multi))[1][0]
    multi[pos + 24:pos + 32] = struct.pack(">Q", 12345)  # chunk 1's metadata offset
    path = write(folder, "chunk1-no-metadata.jfr", bytes(multi))
    status, out, _ = run(["summary"], path)
    want = summary_total(out)
    for args in (["view", "events-by-count"], ["view", "recording"]):
        count += 1
        status, out, err = run(args + ["--json"], path)
        if status != 0 or "chunk 1" not in err:
            fail("jfrtool %s %s: exit %s, warning %r" % (" ".join(args), path, status, err))
            continue
        rows = json.loads(out)["rows"]
        got = (sum(r["Count"] for r in rows) if args[1] == "events-by-count"
               else rows[0]["Event Count"])
        if got != want:
            fail("jfrtool %s %s: %d events, summary %d" % (" ".join(args), path, got, want))


def nothing_readable(folder):
    """An input none of whose chunks can be read gives exit status 2 from
    every command (summary and the views did, the others exited 0 with
    empty output), alone or beside a sound file whose output still comes."""
    global count
    from robustlib import fail
    cut = write(folder, "cut-8092.jfr", read("cpu-jdk17.jfr")[:8092])
    multi = bytearray(read("multi-jdk25.jfr"))
    for pos, _ in chunks(bytes(multi)):
        multi[pos + 24:pos + 32] = struct.pack(">Q", 12345)  # metadata offset
    nometa = write(folder, "no-metadata.jfr", bytes(multi))
    sound = os.path.join(RECORDINGS, "cpu-jdk25.jfr")
    for path in (cut, nometa):
        for args in EVERY + [["diff", sound]]:
            count += 1
            status, _, _ = run(args, path)
            if status != 2:
                fail("jfrtool %s %s: exit %s, not 2, with nothing readable"
                     % (" ".join(args), path, status))
        for args in (["summary", sound], ["folded", sound], ["print", "--json", sound]):
            count += 1
            status, out, _ = run(args, path)
            if status != 2 or not out:
                fail("jfrtool %s %s: exit %s with %d bytes; want 2 and the sound "
                     "file's output" % (" ".join(args), path, status, len(out)))


def strict_without_records(folder):
    """A chunk cut short is reported, and fails --strict, also by a view
    or a query that reads none of its records: one whose event type the
    recording does not declare (they said nothing and exited 0), and a
    query that then fails on that missing table (it exited 1)."""
    global count
    from robustlib import fail
    data = read("cpu-jdk17.jfr")
    pos, size = chunks(data)[0]
    path = write(folder, "cut-mid-chunk0.jfr", data[:pos + size // 2])
    view = ["view", "deprecated-methods-for-removal"]  # a JDK 22 type
    query = ["sql", 'SELECT count(*) FROM "test.NotDeclared"']
    for args, plain in ((view, 0), (query, 1)):
        count += 2
        p = subprocess.run([JFRTOOL] + args + [path], capture_output=True, timeout=60)
        if p.returncode != plain or b"incomplete" not in p.stderr:
            fail("jfrtool %s %s: exit %d, stderr %r; want %d and the cut reported"
                 % (" ".join(args), path, p.returncode, p.stderr[-300:], plain))
        p = subprocess.run([JFRTOOL, "--strict"] + args + [path], capture_output=True,
                           timeout=60)
        if p.returncode != 2:
            fail("jfrtool --strict %s %s: exit %d, not 2" % (" ".join(args), path,
                                                              p.returncode))


def main():
    folder = scratch()
    truncations(folder)
    mutations(folder)
    absurd(folder)
    zero_size(folder)
    durations(folder)
    start_times(folder)
    nothing_readable(folder)
    counted_views(folder)
    strict_without_records(folder)
    finish("damaged", count)


if __name__ == "__main__":
    sys.exit(main())
