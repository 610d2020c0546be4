#!/usr/bin/env python3
"""make check: the totals of every profile kind against oracles computed
another way (doc/profiles.md "Profile kinds").

1. For every kind and every test recording with a JDK 25 `jfr print --json`
   (testdata/recordings, testdata/kinds), `jfrtool folded --event KIND`
   sums to the weight, and with `--weight count` to the events, that
   tests/profile/folded-from-jdk.py --totals computed from that JSON
   (testdata/kinds/expected/totals.txt; corpus/totals.txt for two corpus
   recordings, skipped without the corpus).
2. alloc on the JDK 11 recordings of the corpus: the total less the
   samples without a stack trace (which the converter leaves out; summed
   with jfrtool sql) is async-profiler's converter's `--alloc --total`
   within 0.1 % (corpus/converter-alloc.txt); skipped without the corpus.
3. The corpus cases of issue 26 (exec keeps running states, wall reads
   profiler.WallClockSample by `samples`, tlabSize) and a synthetic
   async-profiler 2 recording (tests/robust/jfrmake async-states): exec,
   wall, and the hint that the default kind is nearly empty, on standard
   error and in the flame page, with the output unchanged.

Needs JFRTOOL, JFRMAKE and JFR_TESTDATA (set by Makefile.am). Exit 0 pass,
1 fail.
"""
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ["JFRTOOL"]
JFRMAKE = os.environ.get("JFRMAKE", "tests/robust/jfrmake")
DATA = os.environ["JFR_TESTDATA"]
EXPECTED = os.path.join(DATA, "kinds", "expected")
SHARED = os.environ.get("JFR_SHARED", os.path.join(DATA, "..", "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus", "public")
HAS_CORPUS = os.path.isfile(os.path.join(CORPUS, "MANIFEST.tsv"))
QUICK = os.environ.get("JFR_TEST_QUICK", "").strip() not in ("", "0")

CHECKS = Checks()
failures = CHECKS.failures
fail = CHECKS.fail


def run(*args):
    res = subprocess.run([JFRTOOL] + list(args), capture_output=True)
    if res.returncode != 0:
        fail("jfrtool %s: exit %d: %s" % (" ".join(args), res.returncode,
                                          res.stderr.decode()[:300]))
    return res


def total(text):
    return sum(int(line.rpartition(" ")[2]) for line in text.decode().splitlines())


def locate(rec):
    for where in (os.path.join(DATA, "kinds"), os.path.join(DATA, "recordings"), CORPUS):
        if os.path.exists(os.path.join(where, rec)):
            return os.path.join(where, rec)
    return None


def check_totals(name):
    path = os.path.join(EXPECTED, name)
    checked = 0
    with open(path) as f:
        rows = [line.split() for line in f if line.strip()]
    for rec, kind, events, weight in rows:
        if QUICK and not rec.startswith(("alloc-", "throws-", "wait-jdk25", "io-")):
            continue
        path = locate(rec)
        if not path:
            fail("%s: %s not found" % (name, rec))
            continue
        got_weight = total(run("folded", "--event", kind, path).stdout)
        got_events = total(run("folded", "--event", kind, "--weight", "count", path).stdout)
        if (got_events, got_weight) != (int(events), int(weight)):
            fail("%s --event %s: %d events, weight %d; the JDK's JSON gives %s, %s"
                 % (rec, kind, got_events, got_weight, events, weight))
        checked += 1
    print("ok %s: %d (recording, kind) totals" % (name, checked))


def sql_sum(path, query):
    out = run("sql", "--csv", query, path).stdout.decode().splitlines()
    return int(float(out[-1] or 0)) if len(out) > 1 else 0


def check_converter():
    with open(os.path.join(EXPECTED, "corpus", "converter-alloc.txt")) as f:
        rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
    for rec, want in rows:
        path = os.path.join(CORPUS, rec)
        got = total(run("folded", "--event", "alloc", path).stdout)
        null = sql_sum(path, 'SELECT COALESCE(SUM(tlabSize), 0) FROM '
                       'ObjectAllocationInNewTLAB WHERE "stackTrace.truncated" IS NULL')
        null += sql_sum(path, 'SELECT COALESCE(SUM(allocationSize), 0) FROM '
                        'ObjectAllocationOutsideTLAB WHERE "stackTrace.truncated" IS NULL')
        want = int(want)
        if abs(got - null - want) > want / 1000:
            fail("%s: alloc %d (%d without a stack trace), the converter %d"
                 % (rec, got, null, want))
        else:
            print("ok %s: alloc %d - %d = converter's %d" % (rec, got, null, want))


def check_corpus_cases():
    cases = [  # recording, folded arguments, total
        ("jmc-hotmethods.jfr", ["--event", "alloc"], 2073853408),
        ("grafana-async-profiler.jfr.gz", ["--event", "exec"], 112),
        ("grafana-async-profiler.jfr.gz", ["--event", "wall"], 199551),
        ("grafana-wall_tick_sample.jfr.gz", ["--event", "wall"], 2579),
        ("grafana-wall_tick_sample.jfr.gz", ["--event", "wall", "--weight", "count"], 352),
        ("apquery-multi.jfr", ["--event", "wall", "--weight", "count"], 887),
        ("apquery-multi.jfr", ["--event", "exec"], 1932),
        # async-profiler's CPU engine alone (STATE_DEFAULT): no wall-clock
        # samples, as the converter's --wall (its CPU samples are not wall
        # time); the samples are exec's
        ("grafana-new_spancontext.jfr.gz", ["--event", "wall"], 0),
        ("grafana-new_spancontext.jfr.gz", ["--event", "exec"], 472),
        ("apquery-multichunk.jfr", ["--event", "wall"], 0),
        ("apquery-multichunk.jfr", ["--event", "exec"], 1799),
        ("jafar-tck-test.jfr", ["--event", "exec"], 14202),
        ("jafar-tck-test.jfr", ["--event", "wall"], 12813),
    ]
    for rec, args, want in cases:
        got = total(run("folded", *(args + [os.path.join(CORPUS, rec)])).stdout)
        if got != want:
            fail("%s %s: %d, want %d" % (rec, " ".join(args), got, want))
    res = run("folded", os.path.join(CORPUS, "cryostat-recording.jfr"))
    if b"only 4 exec samples; --event wall has 29,867" not in res.stderr:
        fail("cryostat-recording.jfr: no hint: %r" % res.stderr[:200])
    print("ok corpus cases: %d" % len(cases))


def check_synthetic(tmp):
    path = os.path.join(tmp, "async-states.jfr")
    subprocess.run([JFRMAKE, "async-states", path], check=True)
    exec_ = run("folded", "--event", "exec", path)
    wall = run("folded", "--event", "wall", path)
    if total(exec_.stdout) != 3 or total(wall.stdout) != 301:
        fail("async-states: exec %d (want 3: STATE_DEFAULT and STATE_RUNNABLE), wall %d "
             "(want 301: the wall-clock states)" % (total(exec_.stdout), total(wall.stdout)))
    hint = b"only 3 exec samples; --event wall has 301"
    default = run("folded", path)
    if hint not in default.stderr or exec_.stderr:
        fail("async-states: the hint is %r (with --event exec: %r)"
             % (default.stderr, exec_.stderr))
    if default.stdout != exec_.stdout:
        fail("async-states: the hint changed the output")
    page = run("flame", path).stdout
    if b'"hint":"' + hint + b'"' not in page:
        fail("async-states: the flame page has no hint")
    if b'"hint":' in run("flame", "--event", "exec", path).stdout:
        fail("async-states: a hint with --event exec")
    svg = run("flame", "--format", "svg", path).stdout
    if not re.search(rb'class="hint"[^>]*>' + re.escape(hint) + rb'</text>', svg):
        fail("async-states: the SVG has no hint")
    if b'class="hint"' in run("flame", "--format", "svg", "--event", "exec", path).stdout:
        fail("async-states: a hint in the SVG with --event exec")
    print("ok async-states: exec 3, wall 301, hint")


def check_report():
    """The report's allocation timeline and finding take their bytes from
    the alloc kind: on the JDK 17 recording with TLAB events only, the
    page's alloc profile weighs what the oracle gives, and the rate is
    high (2 GB in about 2 s)."""
    path = os.path.join(DATA, "kinds", "alloc-tlab-jdk17.jfr")
    with open(os.path.join(EXPECTED, "totals.txt")) as f:
        want = [r[3] for r in (line.split() for line in f)
                if r[0] == "alloc-tlab-jdk17.jfr" and r[1] == "alloc"][0]
    page = run("report", path).stdout
    if ('"kind":"alloc"' not in page.decode() or
            ('"unit":"bytes","total":%s,' % want) not in page.decode()):
        fail("report of alloc-tlab-jdk17.jfr: no alloc profile of %s bytes" % want)
    if b'"id":"alloc-rate"' not in page:
        fail("report of alloc-tlab-jdk17.jfr: no high-allocation finding")
    rate = re.search(r'"allocRate":\{"bytes":\[[^\]]*\][^{}]*?"total":(\d+)', page.decode())
    if not rate or rate.group(1) != want:
        fail("report of alloc-tlab-jdk17.jfr: the allocation rate's total is %s, not %s"
             % (rate.group(1) if rate else None, want))
    print("ok report: alloc %s bytes, alloc-rate finding" % want)


def main():
    check_totals("totals.txt")
    check_report()
    with tempfile.TemporaryDirectory(prefix="jfr-kinds-") as tmp:
        check_synthetic(tmp)
    if HAS_CORPUS:
        check_totals(os.path.join("corpus", "totals.txt"))
        check_converter()
        check_corpus_cases()
    else:
        print("SKIP: corpus checks: %s not found (set JFR_SHARED)" % CORPUS)
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
