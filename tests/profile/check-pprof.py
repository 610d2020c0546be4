#!/usr/bin/env python3
"""check-pprof.py - `folded --format pprof` (issue 15) read back by Go's own
reader, `go tool pprof -raw`: for every profile kind a test recording has,
and with --lines, --threads and --annotate, the stacks and weights it shows
equal `jfrtool folded` with the same selection. Skips (77) without `go`.

pprof lists a sample as its values then location ids from the leaf, and each
location as "ID: ADDRESS M=N FUNCTION :LINE s=N"; the folded line is the
functions from the root joined by ';' (spaces and ';' made '_', as folded
does) with ":LINE" under --lines. Every file is one gzip member holding
the whole protobuf, the same bytes whatever --jobs."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.join(TESTDATA, "recordings")
LOCATION = re.compile(r"^\s*(\d+): 0x[0-9a-f]+ M=\d+ (.*) :(-?\d+) s=\d+$")
SAMPLE = re.compile(r"^\s*([\d ]+): ([\d ]*)$")
CHECKS = Checks(verbose=True)
failures = CHECKS.failures
check = CHECKS.check


def folded_of_pprof(raw, lines):
    """{stack: weight} from `go tool pprof -raw` text; the last value column
    is the weight (the count when it is the only one)."""
    locations, samples, section = {}, [], None
    for line in raw.splitlines():
        if line in ("Samples:", "Locations", "Mappings"):
            section = line
            continue
        if section == "Samples:":
            m = SAMPLE.match(line)
            if m:
                values = m.group(1).split()
                samples.append((int(values[-1]), [int(x) for x in m.group(2).split()]))
        elif section == "Locations":
            m = LOCATION.match(line)
            if m:
                name = re.sub(r"[ ;]", "_", m.group(2))
                if lines and int(m.group(3)) > 0:
                    name += ":" + m.group(3)
                locations[int(m.group(1))] = name
    stacks = {}
    for weight, ids in samples:
        key = ";".join(locations[i] for i in reversed(ids))
        stacks[key] = stacks.get(key, 0) + weight
    return stacks


def folded_map(text):
    stacks = {}
    for line in text.splitlines():
        stack, _, weight = line.rpartition(" ")
        stacks[stack] = stacks.get(stack, 0) + int(weight)
    return stacks


def kinds_of(path):
    """Kinds that select samples in `path` (folded exits 0 with output)."""
    out = subprocess.run([JFRTOOL, "folded", "--event", "list"], capture_output=True,
                         text=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line[:1].isalpha()]
    found = []
    for kind in names:
        r = subprocess.run([JFRTOOL, "folded", "--event", kind, path], capture_output=True,
                           text=True)
        if r.returncode == 0 and r.stdout:
            found.append(kind)
    return found


def check_member(rec, tmp):
    """One gzip member (libdeflate or zlib, whichever the build has) whose
    protobuf is the whole profile: the same bytes with --jobs 1 and 2, and
    the profile's functions are in it."""
    one, two = (os.path.join(tmp, n + ".pb.gz") for n in ("one", "two"))
    for out, jobs in ((one, "1"), (two, "2")):
        subprocess.run([JFRTOOL, "folded", "--format", "pprof", "--jobs", jobs, "-o", out,
                        rec], check=True)
    data = {p: open(p, "rb").read() for p in (one, two)}
    check(data[one] == data[two], "pprof: the same bytes with --jobs 1 and 2")
    z = zlib.decompressobj(16 + 15)
    plain = z.decompress(data[one])
    check(data[one][:2] == b"\x1f\x8b" and z.eof and not z.unused_data,
          f"pprof: one gzip member ({len(data[one])} bytes, {len(plain)} of protobuf)")
    folded = subprocess.run([JFRTOOL, "folded", rec], capture_output=True, text=True).stdout
    leaf = folded.splitlines()[0].rsplit(" ", 1)[0].split(";")[-1]
    check(leaf.encode() in plain, f"pprof: the protobuf names the leaf {leaf}")


def main():
    go = shutil.which("go")
    if not go:
        print("SKIP: no `go` (Debian's golang-go) to read pprof profiles back")
        return 77
    tmp = tempfile.mkdtemp(prefix="jfr-pprof.")
    try:
        for rec in ("cpu-jdk25.jfr", "cpu-jdk17.jfr"):
            path = os.path.join(REC, rec)
            kinds = kinds_of(path)
            check(len(kinds) >= 3, f"{rec}: kinds with samples: {kinds}")
            cases = [[k] for k in kinds] + [["lines"], ["threads"], ["annotate"]]
            for case in cases:
                kind = case[0] if case[0] in kinds else kinds[0]
                shape = [] if case[0] in kinds else ["--" + case[0]]
                args = ["--event", kind] + shape
                out = os.path.join(tmp, "p.pb.gz")
                r = subprocess.run([JFRTOOL, "folded", "--format", "pprof", "-o", out] + args +
                                   [path], capture_output=True)
                check(r.returncode == 0, f"{rec} {args}: pprof written ({r.returncode})")
                raw = subprocess.run([go, "tool", "pprof", "-raw", out], capture_output=True,
                                     text=True, timeout=120)
                check(raw.returncode == 0, f"{rec} {args}: go tool pprof reads it: "
                      f"{raw.stderr[-200:]}")
                want = folded_map(subprocess.run([JFRTOOL, "folded"] + args + [path],
                                                 capture_output=True, text=True).stdout)
                got = folded_of_pprof(raw.stdout, "--lines" in shape)
                diff = [k for k in set(want) | set(got) if want.get(k) != got.get(k)]
                check(want and not diff, f"{rec} {args}: {len(got)} stacks, total "
                      f"{sum(got.values())}, as folded ({len(want)} stacks, total "
                      f"{sum(want.values())}); differing: {diff[:2]}")
                unit = re.search(r"^samples/count( (\S+)/(\w+))?$", raw.stdout, re.M)
                want_unit = {"alloc": "bytes", "lock": "nanoseconds", "wait": "nanoseconds",
                             "io": "nanoseconds"}.get(kind)
                check(unit is not None and unit.group(3) == want_unit
                      and (not want_unit or unit.group(2) == kind),
                      f"{rec} {args}: sample types {unit and unit.group(0)}")
        # flame --format pprof writes what folded writes; diff has two profiles
        rec = os.path.join(REC, "cpu-jdk25.jfr")
        a, b = os.path.join(tmp, "a.pb.gz"), os.path.join(tmp, "b.pb.gz")
        subprocess.run([JFRTOOL, "folded", "--format", "pprof", "-o", a, rec], check=True)
        subprocess.run([JFRTOOL, "flame", "--format", "pprof", "-o", b, rec], check=True)
        check(open(a, "rb").read() == open(b, "rb").read(),
              "flame --format pprof writes the bytes folded --format pprof writes")
        check_member(rec, tmp)
        r = subprocess.run([JFRTOOL, "diff", "--format", "pprof", "-o", b, rec, rec],
                           capture_output=True, text=True)
        check(r.returncode == 1, f"diff --format pprof is a usage error: {r.stderr.strip()}")
        # a pprof profile is binary: not into a terminal, and a bad format is a usage error
        r = subprocess.run([JFRTOOL, "folded", "--format", "protobuf",
                            os.path.join(REC, "cpu-jdk25.jfr")], capture_output=True, text=True)
        check(r.returncode == 1 and "--format is folded, pprof or speedscope" in r.stderr,
              f"unknown --format: exit {r.returncode}: {r.stderr.strip()}")
    finally:
        shutil.rmtree(tmp)
    if failures:
        print(f"FAIL: {len(failures)} checks")
        return 1
    print("PASS: pprof profiles read back by go tool pprof equal folded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
