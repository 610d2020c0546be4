#!/usr/bin/env python3
"""make check: `jfrtool folded` against folded stacks built from the JDK's own
`jfr print --json` (testdata/expected/R.jfr.folded-EVENT[-VARIANT].txt, made
by tests/profile/folded-from-jdk.py; see testdata/expected/README.md), plus
flamegraph.pl's format rules and the selection options.

Needs JFRTOOL and JFR_TESTDATA (set by Makefile.am). Exit 0 pass, 1 fail.
"""
import collections
import gzip
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ["JFRTOOL"]
DATA = os.environ["JFR_TESTDATA"]
REC = os.path.join(DATA, "recordings")
EXPECTED = os.path.join(DATA, "expected")
KINDS = os.path.join(DATA, "kinds")
SHARED = os.environ.get("JFR_SHARED", os.path.join(DATA, "..", "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus", "public")
EVENTS = {"exec": "jdk.ExecutionSample", "cpu": "jdk.CPUTimeSample",
          "native": "jdk.NativeMethodSample", "alloc": "jdk.ObjectAllocationSample"}
# flamegraph.pl: frames without spaces, ';'-joined, a space, a positive integer
LINE = re.compile(r"^[^ ;\n]+(;[^ ;\n]+)* [1-9][0-9]*$")
# The JDK's JSON shows a character outside the BMP in a method name as
# U+FFFD U+FFFD (it read the modified UTF-8 surrogates one by one); libjfr
# decodes the real character. Compare with that one difference mapped.
ASTRAL = re.compile("[\U00010000-\U0010ffff]")

CHECKS = Checks()
failures = CHECKS.failures
fail = CHECKS.fail


def folded(*args, stdin=None):
    cmd = [JFRTOOL, "folded"] + list(args)
    res = subprocess.run(cmd, stdin=stdin, capture_output=True)
    if res.returncode != 0:
        fail("%s: exit %d: %s" % (" ".join(cmd), res.returncode, res.stderr.decode()[:300]))
    return res.stdout.decode("utf-8")


def parse(text):
    out = collections.OrderedDict()
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        out[stack] = out.get(stack, 0) + int(count)
    return out


def check_format(what, text):
    lines = text.splitlines()
    bad = [l for l in lines if not LINE.match(l)]
    if bad:
        fail("%s: %d lines break flamegraph.pl's rules, e.g. %r" % (what, len(bad), bad[0][-120:]))
    keys = [l.rpartition(" ")[0] for l in lines]
    if len(keys) != len(set(keys)):
        fail("%s: a stack appears on more than one line" % what)
    raw = [l.encode("utf-8") for l in lines]
    if raw != sorted(raw):
        fail("%s: lines are not sorted by bytes" % what)


def normalise(text):
    lines = [ASTRAL.sub("\ufffd\ufffd", l) for l in text.splitlines()]
    return sorted(lines, key=lambda l: l.encode("utf-8"))


def compare(what, ours, expected_lines):
    got = normalise(ours)
    if got != expected_lines:
        a, b = set(got), set(expected_lines)
        fail("%s: %d lines only in ours, %d only expected; first: %r / %r" % (
            what, len(a - b), len(b - a), sorted(a - b)[:1], sorted(b - a)[:1]))


def summary_count(recording, event_type):
    path = os.path.join(DATA, "jdk", recording + ".summary.txt")
    for line in open(path, encoding="utf-8"):
        parts = line.split()
        if len(parts) == 3 and parts[0] == event_type:
            return int(parts[1])
    return None


def golden(name):
    with open(os.path.join(EXPECTED, name), encoding="utf-8") as f:
        return f.read()


def goldens():
    pat = re.compile(r"^(.+\.jfr)\.folded-(exec|cpu|native|alloc)(?:-(threads|lines))?\.txt$")
    for name in sorted(os.listdir(EXPECTED)):
        m = pat.match(name)
        if m:
            yield name, m.group(1), m.group(2), m.group(3)


def merged(*texts):
    total = collections.Counter()
    for t in texts:
        for stack, count in parse(t).items():
            total[stack] += count
    return sorted(("%s %d" % kv for kv in total.items()), key=lambda l: l.encode("utf-8"))


def test_goldens():
    for name, rec, event, variant in goldens():
        args = ["--event", event] + (["--" + variant] if variant else [])
        out = folded(*(args + [os.path.join(REC, rec)]))
        check_format(name, out)
        compare(name, out, golden(name).splitlines())
        if event != "alloc":
            want = summary_count(rec, EVENTS[event])
            got = sum(parse(out).values())
            if want is not None and got != want:
                fail("%s: counts add up to %d, jfr summary says %d" % (name, got, want))


def kind_goldens(where):
    pat = re.compile(r"^(.+\.jfr)\.folded-([a-z]+)\.txt\.gz$")
    for name in sorted(os.listdir(where)):
        m = pat.match(name)
        if m:
            yield name, m.group(1), m.group(2)


def test_kinds():
    """Each profile kind (several event types, weighed by count, duration or
    bytes) against the same sums made from JDK 25's JSON with the kind table
    of folded-from-jdk.py: testdata/kinds/expected for our recordings, and
    expected/corpus for a JDK 11 and a JDK 21 recording of the public
    corpus (skipped when it is absent)."""
    sources = [(os.path.join(KINDS, "expected"), lambda rec: os.path.join(
        KINDS if os.path.exists(os.path.join(KINDS, rec)) else REC, rec))]
    if os.path.isfile(os.path.join(CORPUS, "MANIFEST.tsv")):
        sources.append((os.path.join(KINDS, "expected", "corpus"),
                        lambda rec: os.path.join(CORPUS, rec)))
    else:
        print("SKIP: corpus kinds: %s not found (set JFR_SHARED)" % CORPUS)
    seen = collections.Counter()
    for where, locate in sources:
        for name, rec, kind in kind_goldens(where):
            with gzip.open(os.path.join(where, name), "rt", encoding="utf-8") as f:
                want = f.read().splitlines()
            out = folded("--event", kind, locate(rec))
            if want:
                check_format(name, out)
                seen[kind] += 1
            compare(name, out, sorted(want, key=lambda l: l.encode("utf-8")))
    # every kind must be checked on at least one recording with stacks
    for kind in ("wall", "alloc", "lock", "wait", "io", "exceptions"):
        if seen[kind] < 2:
            fail("kinds: only %d non-empty golden(s) for %s" % (seen[kind], kind))


def test_containers():
    """gzip and lz4 copies fold like the originals; '-' reads standard input."""
    for copy, orig in (("cpu-jdk25.jfr.gz", "cpu-jdk25.jfr"), ("cpu-jdk25.jfr.lz4", "cpu-jdk25.jfr"),
                       ("cpu-jdk17-gzip.jfr", "cpu-jdk17.jfr")):
        if not os.path.exists(os.path.join(REC, copy)):
            continue
        a = folded("--event", "exec", os.path.join(REC, copy))
        b = folded("--event", "exec", os.path.join(REC, orig))
        if a != b:
            fail("%s folds differently from %s" % (copy, orig))
    with open(os.path.join(REC, "cpu-jdk25.jfr.gz"), "rb") as f:
        a = folded("--event", "cpu", "-", stdin=f)
    if a != folded("--event", "cpu", os.path.join(REC, "cpu-jdk25.jfr")):
        fail("standard input folds differently")


def test_concat():
    """Two JVMs' chunks in one file (where the JDK tool fails) and two files
    on the command line: the sum of the parts."""
    for event in ("exec", "cpu", "native", "alloc"):
        parts = []
        for rec in ("cpu-jdk17.jfr", "cpu-jdk25.jfr"):
            p = os.path.join(EXPECTED, "%s.folded-%s.txt" % (rec, event))
            parts.append(golden(os.path.basename(p)) if os.path.exists(p) else "")
        want = merged(*parts)
        out = folded("--event", event, os.path.join(REC, "concat-17-25.jfr"))
        check_format("concat %s" % event, out)
        compare("concat-17-25.jfr %s" % event, out, normalise("\n".join(want)))
        two = folded("--event", event, os.path.join(REC, "cpu-jdk17.jfr"),
                     os.path.join(REC, "cpu-jdk25.jfr"))
        if two != out:
            fail("two files fold differently from their concatenation (%s)" % event)


def test_unfinished():
    """Chunks of a killed JVM (JDK 25's tool refuses them): counts equal JDK
    17's jfr summary."""
    for rec in ("unfinished-jdk17.jfr", "unfinished-jdk25.jfr"):
        path = os.path.join(DATA, "jdk", rec + ".summary17.txt")
        for event in ("exec", "native"):
            want = 0
            for line in open(path, encoding="utf-8"):
                parts = line.split()
                if len(parts) == 3 and parts[0] == EVENTS[event]:
                    want = int(parts[1])
            out = folded("--event", event, os.path.join(REC, rec))
            check_format(rec, out)
            if sum(parse(out).values()) != want:
                fail("%s %s: %d samples, JDK 17 summary says %d" % (
                    rec, event, sum(parse(out).values()), want))


def test_default_event():
    rec = os.path.join(REC, "cpu-jdk25.jfr")
    if folded(rec) != folded("--event", "cpu", rec):
        fail("default event of a recording with CPU-time samples is not cpu")
    rec = os.path.join(REC, "cpu-jdk17.jfr")
    if folded(rec) != folded("--event", "exec", rec):
        fail("default event of a JDK 17 recording is not exec")


def test_filters():
    rec = os.path.join(REC, "io-jdk25.jfr")
    base = parse(folded("--event", "exec", rec))
    inc = parse(folded("--event", "exec", "--include", "Deflater|SHA2", rec))
    want = {k: v for k, v in base.items() if re.search("Deflater|SHA2", k)}
    if inc != want or not inc:
        fail("--include keeps %d stacks, expected %d" % (len(inc), len(want)))
    exc = parse(folded("--event", "exec", "--exclude", "Deflater|SHA2", rec))
    want = {k: v for k, v in base.items() if not re.search("Deflater|SHA2", k)}
    if exc != want:
        fail("--exclude keeps %d stacks, expected %d" % (len(exc), len(want)))
    thr = parse(folded("--event", "exec", "--threads", "--thread", "^main$", rec))
    if not thr or any(not k.startswith("[thread_main_tid=") for k in thr):
        fail("--thread ^main$ --threads: roots %r" % sorted({k.split(";")[0] for k in thr}))
    # time: [start, start+1s) and [start+1s, end) split the samples
    first = sum(parse(folded("--event", "exec", "--to", "1s", rec)).values())
    rest = sum(parse(folded("--event", "exec", "--from", "1s", rec)).values())
    if first + rest != sum(base.values()) or not first or not rest:
        fail("--to 1s (%d) + --from 1s (%d) != all (%d)" % (first, rest, sum(base.values())))
    late = folded("--event", "exec", "--from", "2099-01-01T00:00:00Z", rec)
    if late:
        fail("--from in the future still selects samples")
    ann = folded("--event", "exec", "--annotate", rec)
    check_format("--annotate", ann)
    frames = [f for line in ann.splitlines() for f in line.rpartition(" ")[0].split(";")]
    if not any(f.endswith("_[j]") for f in frames) or not any(f.endswith("_[i]") for f in frames) \
            or not any(f.endswith("_[0]") for f in frames):
        fail("--annotate: JIT, inlined and interpreted suffixes expected")
    stripped = collections.Counter()
    for stack, count in parse(ann).items():
        stripped[";".join(re.sub(r"_\[[ji0k]\]$", "", f) for f in stack.split(";"))] += count
    if dict(stripped) != dict(base):
        fail("--annotate without its suffixes differs from plain output")


def test_alloc_weights():
    """alloc weighs by bytes: the total is the sum of the events' weight."""
    rec = os.path.join(REC, "cpu-jdk25.jfr")
    a = sum(parse(folded("--event", "alloc", rec)).values())
    b = sum(parse(folded("--event", "jdk.ObjectAllocationSample", "--weight", "weight", rec)).values())
    c = sum(parse(folded("--event", "alloc", "--weight", "count", rec)).values())
    if a != b or c != summary_count("cpu-jdk25.jfr", EVENTS["alloc"]):
        fail("alloc weights: %d vs %d, count %d" % (a, b, c))


def test_usage():
    for args in (["--event"], ["--from", "yesterday", os.path.join(REC, "cpu-jdk25.jfr")],
                 ["--include", "(", os.path.join(REC, "cpu-jdk25.jfr")], []):
        res = subprocess.run([JFRTOOL, "folded"] + args, capture_output=True)
        if res.returncode != 1:
            fail("folded %s: exit %d, expected 1" % (" ".join(args), res.returncode))
    res = subprocess.run([JFRTOOL, "folded", os.path.join(DATA, "README.md")], capture_output=True)
    if res.returncode != 2:
        fail("folded on a non-recording: exit %d, expected 2" % res.returncode)


for t in (test_goldens, test_kinds, test_containers, test_concat, test_unfinished, test_default_event, test_filters,
          test_alloc_weights, test_usage):
    t()
print("%d failure(s)" % len(failures))
sys.exit(1 if failures else 0)
