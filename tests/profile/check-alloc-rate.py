#!/usr/bin/env python3
"""check-alloc-rate.py - the report's allocation rate is estimated from the
samples, not drawn at their moments (issue 26).

A jdk.ObjectAllocationSample's weight is the bytes its thread allocated
since that thread's previous allocation sample. On every test recording
with such samples (and JDK 11 ones, whose TLAB events stand for their
moment) `jfrtool report`'s allocRate (libjfr's jfr_rate) is checked
against:

  * SQL: its integral (all buckets, with what falls before or after the
    page's axis) and its total equal SUM(weight) of the sampled events;
  * an independent spreading of `jfrtool print --json` of the samples
    (doc/report.md's rule): per thread, each weight evenly over [the
    thread's previous sample, this one), a thread's first over [the later
    of the recording's start and its jdk.ThreadStart, this one); every
    bucket within 1e-6 of it;
  * on the seeded workload recording (testdata/report), the peak: it was
    37.85 GiB/s in one 50 ms bucket when each weight was put at its
    moment (8.32 GiB/s spread).

Exit 0 when all agree, 1 otherwise."""
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = os.environ.get("JFR_TESTDATA", "testdata")
RECS = ["report/seeded-jdk25.jfr", "report/quiet-jdk25.jfr", "recordings/cpu-jdk25.jfr",
        "recordings/multi-jdk25.jfr", "recordings/leak-jdk25.jfr", "recordings/io-jdk25.jfr",
        "recordings/cpu-jdk17.jfr", "recordings/leak-jdk17.jfr"]
CHECKS = Checks(verbose=True)
failures = CHECKS.failures
check = CHECKS.check


def jfrtool(*args):
    res = subprocess.run([JFRTOOL] + list(args), capture_output=True, text=True, timeout=120)
    return res.stdout


def epoch_ns(text):
    """"2026-11-25T15:26:02.413548209Z" in ns since the epoch."""
    m = re.match(r"(\d+-\d+-\d+T\d+:\d+:\d+)(?:\.(\d+))?Z$", text)
    secs = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(
        tzinfo=datetime.timezone.utc).timestamp()
    return int(secs) * 10**9 + int((m.group(2) or "0").ljust(9, "0")[:9])


def thread_id(t):
    return (t or {}).get("javaThreadId"), (t or {}).get("osThreadId")


def report_rate(rec, tmp):
    page = os.path.join(tmp, "page.html")
    subprocess.run([JFRTOOL, "report", "-o", page, rec], capture_output=True, timeout=300)
    with open(page, encoding="utf-8") as f:
        m = re.search(r"^const REPORT = (\{.*\});$", f.read(), re.M)
    return json.loads(m.group(1))


def spread_oracle(rec, origin, width, nbuckets):
    """Bytes per bucket, spread from print --json (the rule above)."""
    events = json.loads(jfrtool("print", "--json", "--stack-depth", "1", "--events",
                                "jdk.ObjectAllocationSample,jdk.ThreadStart", rec))
    events = events["recording"]["events"]
    started, samples = {}, []
    for e in events:
        v = e["values"]
        if e["type"] == "jdk.ThreadStart":
            started[thread_id(v.get("thread"))] = epoch_ns(v["startTime"])
        elif v.get("weight", 0) > 0:
            samples.append((thread_id(v.get("eventThread")), epoch_ns(v["startTime"]), v["weight"]))
    buckets = [0.0] * nbuckets
    outside = 0.0
    last = {}
    for tid, t, w in sorted(samples, key=lambda s: (str(s[0]), s[1])):
        start = last.get(tid)
        if start is None:
            start = origin
            if tid in started and origin < started[tid] <= t:
                start = started[tid]
        last[tid] = t
        lo, hi = start - origin, t - origin
        if hi <= lo:
            pieces = [(hi // width, w)]
        else:
            pieces = [(b, w * (min(hi, (b + 1) * width) - max(lo, b * width)) / (hi - lo))
                      for b in range(lo // width, (hi - 1) // width + 1)]
        for b, x in pieces:
            if 0 <= b < nbuckets:
                buckets[b] += x
            else:
                outside += x
    return buckets, outside


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for name in RECS:
            rec = os.path.join(DATA, name)
            base = os.path.basename(rec)
            R = report_rate(rec, tmp)
            a = R["allocRate"]
            sql = "SELECT SUM(weight) FROM ObjectAllocationSample"
            out = jfrtool("sql", "--csv", sql, rec).splitlines()
            total = int(out[1]) if len(out) > 1 and out[1].strip() not in ("", "NULL") else 0
            if total == 0:  # before JDK 16: the TLAB events, at their moment
                prof = [p for p in R["profiles"] if p["kind"] == "alloc"]
                want = prof[0]["total"] if prof else 0
                check(a["total"] == want and a["spread"] == 0,
                      "%s: no allocation samples: rate total %d = alloc profile %d, none spread"
                      % (base, a["total"], want))
                continue
            integral = sum(a["bytes"]) + a["before"] + a["after"]
            check(a["total"] == total and abs(integral - total) <= 1e-9 * total + 1,
                  "%s: integral %.1f and total %d = SQL SUM(weight) %d"
                  % (base, integral, a["total"], total))
            origin, width = int(a["originNanos"]), a["bucketNanos"]
            want, outside = spread_oracle(rec, origin, width, len(a["bytes"]))
            worst = max(abs(x - y) for x, y in zip(a["bytes"], want))
            check(worst <= 1e-6 * max(total, 1) and abs(a["before"] + a["after"] - outside) <= 1,
                  "%s: every bucket as spread from print --json (worst %.3g bytes)" % (base, worst))
            if base == "seeded-jdk25.jfr":
                per_s = [x / (width / 1e9) for x in a["bytes"]]
                check(max(per_s) < 37.85 * 2**30,
                      "seeded: peak %.2f GiB/s (37.85 GiB/s with each weight at its moment)"
                      % (max(per_s) / 2**30))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
