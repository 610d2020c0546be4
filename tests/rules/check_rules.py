#!/usr/bin/env python3
"""check_rules.py - `jfrtool rules --json` (doc/report.md "Rules"):

  * its schema: every key and the type of every value, on every test
    recording;
  * the findings are the report page's (id, severity, title, evidence
    with the page's "; at N s", the page's link one of the rule's), on
    every test recording and, with ../shared, every corpus file
    (JFR_TEST_QUICK: a few);
  * every number the SQL rules and the CPU-time rules print, from JDK 25's
    `jfr print --json` of the events (testdata/jdk/NAME.print.json.gz, and
    testdata/rules/jdk/NAME.events.json.gz made by regen-jdk-events.sh)
    and the chunk headers read here: long GC pauses (collections, the
    longest pause with its collector and cause and time, the sum, its
    share of the recording), lock contention (enters, blocked time),
    deoptimization storms (the busiest second, all, the method and reason
    most often), safepoint bias and lost CPU-time samples, whether each
    fires or not;
  * the exceptions rule's count against jdk.ExceptionStatistics' growth
    and `jfrtool folded --event exceptions`.

Exit 0 when all agree, 1 otherwise."""
import datetime
import glob
import gzip
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = os.environ.get("JFR_TESTDATA", "testdata")
SHARED = os.environ.get("JFR_SHARED", os.path.join(DATA, "..", "..", "shared"))
QUICK = os.environ.get("JFR_TEST_QUICK")
failures = []


def check(ok, what):
    if not ok:
        print("FAIL: " + what)
        failures.append(what)


def jfrtool(*args, status=None):
    res = subprocess.run([JFRTOOL] + list(args), capture_output=True, text=True, timeout=300)
    if status is not None and res.returncode not in status:
        check(False, "jfrtool %s: exit status %d (%s)" % (" ".join(args), res.returncode,
                                                           res.stderr[:300]))
    return res


def rules_json(path):
    res = jfrtool("rules", "--json", path, status=(0, 2, 3))
    return json.loads(res.stdout) if res.stdout else None


# ---- schema ---------------------------------------------------------------------------

TOP = {"files": list, "rules": int, "skipped": list, "warnings": int, "infos": int,
       "findings": list}
FINDING = {"id": str, "rule": str, "severity": str, "title": str, "evidence": str,
           "value": (float, int, type(None)), "threshold": (float, int),
           "at": (float, int, type(None)), "atNanos": (int, type(None)),
           "subject": (str, type(None)), "link": (str, type(None)), "source": str}


def check_schema(name, d):
    check(list(d) == list(TOP), "%s: keys %s" % (name, list(d)))
    for k, t in TOP.items():
        check(isinstance(d.get(k), t), "%s: %s is %r" % (name, k, d.get(k)))
    for s in d["skipped"]:
        check(sorted(s) == ["id", "source", "why"] and all(isinstance(v, str) for v in s.values()),
              "%s: skipped %r" % (name, s))
    for f in d["findings"]:
        check(list(f) == list(FINDING), "%s: finding keys %s" % (name, list(f)))
        for k, t in FINDING.items():
            check(isinstance(f.get(k), t), "%s: %s of %s is %r" % (name, k, f.get("id"), f.get(k)))
        check(f["severity"] in ("warning", "info"), "%s: severity %r" % (name, f["severity"]))
        check((f["at"] is None) == (f["atNanos"] is None), "%s: at and atNanos" % name)
    check(d["warnings"] == sum(f["severity"] == "warning" for f in d["findings"]) and
          d["infos"] == sum(f["severity"] == "info" for f in d["findings"]),
          "%s: warnings and infos count the findings" % name)


# ---- the report page agrees ----------------------------------------------------------

def page_findings(path, tmp):
    page = os.path.join(tmp, "page.html")
    if os.path.exists(page):
        os.remove(page)
    jfrtool("report", path, "-o", page, status=(0, 2))
    if not os.path.exists(page):
        return None
    with open(page, encoding="utf-8") as f:
        line = next(l for l in f if l.startswith("const REPORT = "))
    return json.loads(line[len("const REPORT = "):].rstrip().rstrip(";"))["findings"]


def check_page(name, d, page):
    if page is None or d is None:
        check(page is None and (d is None or not d["findings"] or d["findings"][0]["id"] == "damaged"),
              "%s: rules and report do not both read it" % name)
        return
    page = [f for f in page if f["id"] != "damaged"]
    mine = [f for f in d["findings"] if f["id"] != "damaged"]
    check(len(page) == len(mine), "%s: %d findings on the page, %d from rules" %
          (name, len(page), len(mine)))
    for p, f in zip(page, mine):
        ev = f["evidence"] + ("; at %.3f s" % f["at"] if f["at"] is not None else "")
        same = (p["id"], p["severity"], p["title"], p["evidence"]) == (f["id"], f["severity"],
                                                                        f["title"], ev)
        check(same, "%s: page %r, rules %r" % (name, p, f))
        links = (f["link"] or "").split() + ["#findings"]
        check(p["link"] in links, "%s: page links %s to %s, not one of %s" %
              (name, p["id"], p["link"], links))


# ---- the oracle: JDK 25's print --json and the chunk headers ------------------------

def epoch_ns(text):
    m = re.match(r"(\d+-\d+-\d+T\d+:\d+:\d+)(?:\.(\d+))?Z$", text)
    secs = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S").replace(
        tzinfo=datetime.timezone.utc).timestamp()
    return int(secs) * 10**9 + int((m.group(2) or "0").ljust(9, "0")[:9])


def span_ns(text):
    """An ISO-8601 duration as jfr prints it ("PT0.000077112S", "PT1M2S") in ns."""
    if text is None:
        return None
    m = re.match(r"(-)?PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?$", text)
    ns = ((int(m.group(2) or 0) * 60 + int(m.group(3) or 0)) * 60 + int(m.group(4) or 0)) * 10**9
    ns += int((m.group(5) or "0").ljust(9, "0")[:9])
    return -ns if m.group(1) else ns


def jdk_events(name):
    for path in (os.path.join(DATA, "jdk", name + ".print.json.gz"),
                 os.path.join(DATA, "rules", "jdk", name + ".events.json.gz")):
        if os.path.exists(path):
            with gzip.open(path, "rt", encoding="utf-8") as f:
                events = json.load(f)["recording"]["events"]
            by = {}
            for e in events:
                by.setdefault(e["type"], []).append(e["values"])
            return by
    return None


def chunk_span(path):
    """Seconds from the earliest chunk start to the latest end, from the
    headers (jfr-format.md: start nanos at 32, duration at 40)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, start, end = 0, None, None
    while pos + 68 <= len(data) and data[pos:pos + 4] == b"FLR\0":
        size, = struct.unpack(">q", data[pos + 8:pos + 16])
        s, d = struct.unpack(">qq", data[pos + 32:pos + 48])
        e = s + d if d > 0 else s
        start = s if start is None else min(start, s)
        end = e if end is None else max(end, e)
        if size <= 0:
            break
        pos += size
    return max((end - start) / 1e9, 0.001)


def finding(d, rule):
    return next((f for f in d["findings"] if f["rule"] == rule), None)


def check_gc(name, path, d, ev):
    gcs = ev.get("jdk.GarbageCollection", [])
    f = finding(d, "gc-pauses")
    longest = max((span_ns(g["longestPause"]) for g in gcs if g.get("longestPause")), default=0)
    pauses = sum(max(span_ns(g.get("sumOfPauses")) or 0, 0) for g in gcs)
    share = pauses / 1e9 / chunk_span(path)
    fires = longest / 1e6 >= 100 or share >= 0.05
    check((f is not None) == fires, "%s: gc-pauses fires: %s, longest %.1f ms, share %.4f" %
          (name, f is not None, longest / 1e6, share))
    if not f:
        return
    first = next(g for g in gcs if span_ns(g.get("longestPause")) == longest)
    who = "%s (%s)" % (first["name"], first["cause"]) if first.get("cause") else first["name"]
    want = ("%d collections; longest pause %.1f ms (%s); pauses %.1f ms in all, %.1f%% of "
            "the recording" % (len(gcs), longest / 1e6, who, pauses / 1e6, 100 * share))
    check(f["evidence"] == want, "%s: gc-pauses %r, JDK %r" % (name, f["evidence"], want))
    check(f["atNanos"] == epoch_ns(first["startTime"]), "%s: gc-pauses at %s, JDK %s" %
          (name, f["atNanos"], first["startTime"]))


def check_lock(name, d, ev):
    enters = ev.get("jdk.JavaMonitorEnter", [])
    blocked = sum(max(span_ns(e.get("duration")) or 0, 0) for e in enters) / 1e6
    f = finding(d, "lock-contention")
    fires = len(enters) >= 5 and blocked >= 100
    check((f is not None) == fires, "%s: lock-contention fires %s (%d enters, %.1f ms)" %
          (name, f is not None, len(enters), blocked))
    if f:
        want = ("%d contended monitor enters (jdk.JavaMonitorEnter), %.1f ms blocked in all" %
                (len(enters), blocked))
        check(f["evidence"] == want, "%s: lock-contention %r, JDK %r" % (name, f["evidence"], want))


def check_deopt(name, d, ev):
    deopts = ev.get("jdk.Deoptimization", [])
    per_second = {}
    for e in deopts:
        per_second.setdefault(epoch_ns(e["startTime"]) // 10**9, []).append(e)
    peak = max((len(v) for v in per_second.values()), default=0)
    f = finding(d, "deoptimization-storm")
    check((f is not None) == (peak >= 100), "%s: deoptimization-storm fires %s, peak %d" %
          (name, f is not None, peak))
    if not f:
        return
    groups = {}
    for e in deopts:
        m = e["method"]
        key = (m["type"]["name"].replace("/", ".") + "." + m["name"], e["reason"])
        groups[key] = groups.get(key, 0) + 1
    (method, reason), n = max(groups.items(), key=lambda kv: kv[1])
    head = "%d deoptimizations in one second, %d in all; most often %s(" % (peak, len(deopts), method)
    check(f["evidence"].startswith(head) and (") (%s, %d times)" % (reason, n)) in f["evidence"],
          "%s: deoptimization-storm %r, JDK %r ... (%s, %d times)" % (name, f["evidence"], head, reason, n))


def check_cpu(name, d, ev):
    samples = ev.get("jdk.CPUTimeSample", [])
    lost = sum(e.get("lostSamples", 0) for e in ev.get("jdk.CPUTimeSamplesLost", []))
    biased = sum(1 for e in samples if e.get("biased"))
    bias = finding(d, "safepoint-bias")
    fires = len(samples) >= 100 and biased / len(samples) >= 0.10
    check((bias is not None) == fires, "%s: safepoint-bias fires %s (%d of %d)" %
          (name, bias is not None, biased, len(samples)))
    if bias:
        want = ("%d of %d CPU-time samples (%.1f%%) were taken at a safepoint: their stacks "
                "lean towards safepoint polls" % (biased, len(samples), 100 * biased / len(samples)))
        check(bias["evidence"] == want, "%s: safepoint-bias %r, JDK %r" % (name, bias["evidence"], want))
    lf = finding(d, "cpu-lost")
    check((lf is not None) == (lost > 0), "%s: cpu-lost fires %s, %d lost" % (name, lf is not None, lost))
    if lf:
        all_ = len(samples) + lost
        check(lf["evidence"].startswith("%d of %d CPU-time samples (%.1f%%) were lost" %
                                        (lost, all_, 100 * lost / all_)) and
              lf["severity"] == ("warning" if lost / all_ >= 0.05 else "info"),
              "%s: cpu-lost %r, JDK %d of %d" % (name, lf["evidence"], lost, all_))


def check_exceptions(name, path, d, ev):
    growth, prev = 0.0, None
    for e in ev.get("jdk.ExceptionStatistics", []):
        v = e["throwables"]
        if prev is not None:
            growth += v - prev if v >= prev else v
        prev = v
    out = jfrtool("folded", "--event", "exceptions", path).stdout
    events = sum(int(l.rsplit(" ", 1)[1]) for l in out.splitlines() if l.strip())
    n = max(growth, events)
    f = finding(d, "exceptions")
    fires = n / chunk_span(path) >= 100
    check((f is not None) == fires, "%s: exceptions fires %s (%d)" % (name, f is not None, n))
    if f:
        check(f["evidence"].startswith("%.0f throwables created, " % n),
              "%s: exceptions %r, want %.0f" % (name, f["evidence"], n))


def main():
    recs = sorted(glob.glob(os.path.join(DATA, "recordings", "*.jfr*")) +
                  glob.glob(os.path.join(DATA, "report", "*.jfr")) +
                  glob.glob(os.path.join(DATA, "kinds", "*.jfr")) +
                  glob.glob(os.path.join(DATA, "rules", "*.jfr")))
    corpus = sorted(glob.glob(os.path.join(SHARED, "corpus", "public", "*.jfr*")))
    if not corpus:
        print("(no ../shared/corpus: the corpus files are not compared)")
    elif QUICK:
        corpus = corpus[::8]
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in recs + corpus:
            name = os.path.basename(path)
            d = rules_json(path)
            if d is not None:
                check_schema(name, d)
            check_page(name, d, page_findings(path, tmp))
            ev = jdk_events(name) if path in recs and not name.endswith((".gz", ".lz4")) else None
            if ev is None or d is None:
                continue
            checked += 1
            check_gc(name, path, d, ev)
            check_lock(name, d, ev)
            check_deopt(name, d, ev)
            check_cpu(name, d, ev)
            check_exceptions(name, path, d, ev)
    check(checked >= 10, "JDK outputs for %d recordings, at least 10 expected" % checked)
    print("%s: %d recordings and %d corpus files, %d against JDK 25's events, %d failures" %
          ("FAIL" if failures else "PASS", len(recs), len(corpus), checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
