#!/usr/bin/env python3
"""The report's thread lanes against SQL (libjfr's jfr/timeline.h, embedded
by jfrtool/report_threads.c).

  check-report-threads.py [--jfrtool PATH] [--testdata DIR]

For every test recording (testdata/recordings, report, kinds, threads) it
writes the report, reads its data line and checks that each lane's totals
by state (count and nanoseconds, kept or not) equal what `jfrtool sql`
counts and sums per thread over the events of that state: JavaMonitorEnter
(blocked), JavaMonitorWait (waiting), ThreadPark (parked), ThreadSleep
(sleeping), FileRead + FileWrite, SocketRead + SocketWrite, ExecutionSample
+ CPUTimeSample (running) and NativeMethodSample (native), with threads
named as the profiles name them (the Java name and id, else the OS ones);
GC pauses (GCPhasePause) are checked on the band. No browser needed.
Prints TAP-like lines and "N passed, N failed".
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

# state -> ([(event type, its thread field)], timed); CPU-time samples name
# the sampled thread eventThread
STATES = {
    "running": ([("ExecutionSample", "sampledThread"), ("CPUTimeSample", "eventThread")], False),
    "native": ([("NativeMethodSample", "sampledThread")], False),
    "blocked": ([("JavaMonitorEnter", "eventThread")], True),
    "waiting": ([("JavaMonitorWait", "eventThread")], True),
    "parked": ([("ThreadPark", "eventThread")], True),
    "sleeping": ([("ThreadSleep", "eventThread")], True),
    "file-io": ([("FileRead", "eventThread"), ("FileWrite", "eventThread")], True),
    "socket-io": ([("SocketRead", "eventThread"), ("SocketWrite", "eventThread")], True),
}


def sql(jfrtool, rec, query):
    p = subprocess.run([jfrtool, "sql", "--csv", query, rec], capture_output=True, text=True)
    if p.returncode != 0:
        return None  # the recording has no such table
    return [line.rsplit(",", 3) for line in p.stdout.splitlines()[1:] if line.strip()]


def expected(jfrtool, rec):
    want = {}
    for state, (types, timed) in STATES.items():
        for t, field in types:
            q = ('SELECT COALESCE("{f}.javaName", "{f}.osName", \'unknown\'), CASE WHEN "{f}.javaThreadId" = 0'
                 ' OR "{f}.javaThreadId" IS NULL THEN COALESCE("{f}.osThreadId", 0) ELSE "{f}.javaThreadId" END,'
                 ' COUNT(*), {d} FROM {t} GROUP BY 1, 2').format(
                     f=field, t=t, d="TOTAL(MAX(duration, 0))" if timed else "0")
            for name, tid, count, ns in sql(jfrtool, rec, q) or []:
                key = ("%s tid=%s" % (name, tid), state)
                c, n = want.get(key, (0, 0))
                want[key] = (c + int(count), n + int(float(ns)))
    return want


def report_threads(jfrtool, rec, tmp):
    page = os.path.join(tmp, "page.html")
    p = subprocess.run([jfrtool, "report", rec, "-o", page], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    with open(page, encoding="utf-8") as f:
        for line in f:
            if line.startswith("const REPORT = "):
                return json.loads(line[len("const REPORT = "):].rstrip().rstrip(";"))["threads"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    ap.add_argument("--jfrtool", default=os.environ.get("JFRTOOL", os.path.join(os.getcwd(), "jfrtool", "jfrtool")))
    ap.add_argument("--testdata", default=os.environ.get("JFR_TESTDATA", os.path.join(top, "testdata")))
    args = ap.parse_args()
    if not os.access(args.jfrtool, os.X_OK):
        print("SKIP: no jfrtool at %s" % args.jfrtool)
        sys.exit(77)
    if sql(args.jfrtool, os.path.join(args.testdata, "recordings", "cpu-jdk25.jfr"), "SELECT 1") is None:
        print("SKIP: jfrtool sql is not available (built without SQLite)")
        sys.exit(77)
    recs = sorted(glob.glob(os.path.join(args.testdata, d, "*.jfr*"))
                  for d in ("recordings", "report", "kinds", "threads"))
    recs = [r for group in recs for r in group if r.endswith((".jfr", ".jfr.gz"))]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rec in recs:
            name = os.path.relpath(rec, args.testdata)
            th = report_threads(args.jfrtool, rec, tmp)
            if th is None:
                print("# %s: no report (unreadable input)" % name)
                continue
            got = {}
            for ln in th["lanes"]:
                tot = ln["tot"]
                for j in range(0, len(tot), 3):
                    state = th["states"][tot[j]]
                    if state in STATES:
                        got[("%s tid=%d" % (ln["n"], ln["tid"]), state)] = (tot[j + 1], tot[j + 2])
            want = expected(args.jfrtool, rec)
            bad = sorted(k for k in set(got) | set(want) if got.get(k) != want.get(k))
            gc = sql(args.jfrtool, rec, "SELECT 0, 0, COUNT(*), TOTAL(MAX(duration, 0)) FROM GCPhasePause")
            band = dict(zip(th["band"][0::3], zip(th["band"][1::3], th["band"][2::3])))
            gc_want = (int(gc[0][2]), int(float(gc[0][3]))) if gc and int(gc[0][2]) else None
            gc_got = band.get(th["states"].index("gc-pause"))
            ok = not bad and gc_got == gc_want
            passed, failed = passed + ok, failed + (not ok)
            print("%s %d - %s: %d lane totals and the GC band equal SQL's%s" % (
                "ok" if ok else "not ok", passed + failed, name, len(want),
                "" if ok else " # " + "; ".join("%s %s: page %s, SQL %s" % (k[0], k[1], got.get(k), want.get(k))
                                                for k in bad[:4]) + " gc %s/%s" % (gc_got, gc_want)))
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == "__main__":
    main()
