#!/usr/bin/env python3
"""`folded --format speedscope` without a browser (doc/profiles.md, "speedscope files").

  check-speedscope.py [--jfrtool PATH] [--testdata DIR]

For test recordings and profile kinds it checks the file against the
speedscope file format (the fields its schema requires: shared frames with
names, sampled profiles with name, unit, startValue, endValue, samples and
weights of one length, frame indexes in range), that there is one profile
per thread whose total (endValue) equals that thread's total in `folded
--threads`, that weights are in the kind's unit, and that each thread's
samples are in time order: their leaf frames, one per sample weight, are
the top frames of the thread's jdk.ExecutionSample events ordered by
startTime (`jfrtool sql`). Prints TAP-like lines and "N passed, N failed".
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

RECORDINGS = ["report/seeded-jdk25.jfr", "recordings/cpu-jdk25.jfr", "recordings/io-jdk25.jfr",
              "recordings/multi-jdk25.jfr", "kinds/wait-jdk25.jfr"]
KINDS = {"exec": "none", "cpu": "none", "alloc": "bytes", "lock": "nanoseconds", "io": "nanoseconds"}


def folded_threads(jfrtool, rec, kind):
    out = subprocess.run([jfrtool, "folded", "--threads", "--event", kind, rec], capture_output=True,
                         text=True).stdout
    totals = {}
    for line in out.splitlines():
        stack, w = line.rsplit(" ", 1)
        root = stack.split(";", 1)[0]
        totals[root[len("[thread_"):-1]] = totals.get(root[len("[thread_"):-1], 0) + int(w)
    return totals


def structure(d):
    """What the schema requires, as a list of problems."""
    bad = []
    frames = d.get("shared", {}).get("frames")
    if d.get("$schema") != "https://www.speedscope.app/file-format-schema.json":
        bad.append("$schema")
    if not isinstance(frames, list) or any(not isinstance(f.get("name"), str) for f in frames):
        return bad + ["shared.frames"]
    for p in d.get("profiles", []):
        if p.get("type") != "sampled" or not isinstance(p.get("name"), str):
            bad.append("profile type/name")
        if p.get("unit") not in ("none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"):
            bad.append("unit %r" % p.get("unit"))
        if len(p["samples"]) != len(p["weights"]) or p["startValue"] != 0 or p["endValue"] != sum(p["weights"]):
            bad.append("%s: samples/weights/endValue" % p["name"])
        if any(not (0 <= i < len(frames)) for s in p["samples"] for i in s):
            bad.append("%s: frame index out of range" % p["name"])
    if not isinstance(d.get("profiles"), list) or (
            "activeProfileIndex" in d and not (0 <= d["activeProfileIndex"] < len(d["profiles"]))):
        bad.append("profiles/activeProfileIndex")
    return bad


def time_order(jfrtool, rec, d):
    """Threads whose leaf frames are not their samples' top frames in startTime order."""
    frames = d["shared"]["frames"]
    bad = []
    for p in d["profiles"]:
        name, tid = p["name"].rsplit(" tid=", 1)
        q = ("SELECT \"stackTrace.topFrame\" FROM ExecutionSample WHERE \"sampledThread.javaThreadId\" = %s"
             " ORDER BY startTime" % int(tid))
        out = subprocess.run([jfrtool, "sql", "--csv", q, rec], capture_output=True, text=True).stdout
        want = [re.sub(r"\(.*$", "", line.strip('"')) or "[no stack trace]" for line in out.splitlines()[1:]]
        got = []
        for s, w in zip(p["samples"], p["weights"]):
            got += [frames[s[-1]]["name"]] * w
        if got != want:
            bad.append("%s: %s... vs SQL %s..." % (p["name"], got[:4], want[:4]))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    ap.add_argument("--jfrtool", default=os.environ.get("JFRTOOL", os.path.join(os.getcwd(), "jfrtool", "jfrtool")))
    ap.add_argument("--testdata", default=os.environ.get("JFR_TESTDATA", os.path.join(top, "testdata")))
    args = ap.parse_args()
    if not os.access(args.jfrtool, os.X_OK):
        print("SKIP: no jfrtool at %s" % args.jfrtool)
        sys.exit(77)
    has_sql = subprocess.run([args.jfrtool, "sql", "SELECT 1", os.path.join(args.testdata, RECORDINGS[0])],
                             capture_output=True).returncode == 0
    passed = failed = 0

    def check(ok, what, detail=""):
        nonlocal passed, failed
        passed, failed = passed + bool(ok), failed + (not ok)
        print("%s %d - %s%s" % ("ok" if ok else "not ok", passed + failed, what, "" if ok else " # " + detail))

    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "p.json")
        for rel in RECORDINGS:
            rec = os.path.join(args.testdata, rel)
            for kind, unit in KINDS.items():
                p = subprocess.run([args.jfrtool, "folded", "--format", "speedscope", "--event", kind, "-o", out, rec],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    check("samples selected" in p.stderr or "does not declare" in p.stderr or "has no" in p.stderr,
                          "%s %s: no samples, said so" % (rel, kind), p.stderr.strip()[:200])
                    continue
                with open(out) as f:
                    d = json.load(f)
                bad = structure(d)
                check(not bad, "%s %s: the schema's fields" % (rel, kind), "; ".join(bad[:5]))
                got = {pr["name"].replace(" ", "_"): pr["endValue"] for pr in d["profiles"]}
                want = folded_threads(args.jfrtool, rec, kind)
                check(got == want and all(pr["unit"] == unit for pr in d["profiles"]),
                      "%s %s: a profile per thread in %s, totals as folded --threads (%d threads)"
                      % (rel, kind, unit, len(want)), "%s vs %s" % (got, want))
                if kind == "exec" and has_sql:
                    bad = time_order(args.jfrtool, rec, d)
                    check(not bad, "%s: every thread's samples in startTime order" % rel, "; ".join(bad[:2]))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == "__main__":
    main()
