#!/usr/bin/env python3
"""The differential test of every view against JDK 25's `jfr view`.

For each committed JDK output testdata/jdk/R.view-V.txt (made by
tests/views/regen-jdk-views.sh with TZ=UTC LC_ALL=C), runs
`jfrtool view --jdk-order V R` under the same settings and compares:

  equal      byte for byte;
  order      the same lines in another order. Rule (doc/views.md, "Where
             the generic views differ"): where the JDK orders rows by a
             HashMap (rows with equal sort keys, GROUP BY without ORDER
             BY), jfrtool orders them by their values; the rows are the same.
             Only for views that group: a view whose query (--verbose) has
             no GROUP BY lists events, which the JDK sorts stably in its
             stream's order, so their order must be the JDK's too;
  known      listed in tests/views/known-differences.txt with its reason
             (view, file or '*', reason); a listed pair that has become
             equal is reported so that the list can shrink;
  FAIL       anything else.

R is a file of testdata/recordings, testdata/views, multi-jdk25-reversed.jfr
(multi-jdk25.jfr's chunks in reverse order, made here: time runs backwards
from chunk to chunk, as in concatenated recordings and dumps) or, when $JFR_SHARED is present, of
$JFR_SHARED/recordings or $JFR_SHARED/corpus/public (read there, never copied); without it those are
skipped with a message. Prints, for each file, how many views are equal.
With --json-csv it also checks, for every view, that --json parses and
has the table's rows and that --csv parses with Python's csv module.
Exit status 0 pass, 1 fail.
"""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
SHARED = os.environ.get("JFR_SHARED", "")
HERE = os.path.dirname(os.path.abspath(__file__))
ENV = dict(os.environ, TZ="UTC", LC_ALL="C")


def jdk_part(text):
    """The JDK's part of a CPU-time view: before the honest CPU-time lines."""
    i = text.find("\n\nAll sampled CPU time (JEP 509)")
    return text if i < 0 else text[: i + 1]


def load_known():
    known = {}
    with open(os.path.join(HERE, "known-differences.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            view, rec, reason = line.split(None, 2)
            known[(view, rec)] = reason
    return known


REVERSED = "multi-jdk25-reversed.jfr"


def reversed_chunks(src, dst):
    """`src` with its chunks in reverse order (a chunk's size is the
    big-endian 64-bit number 8 bytes into its header)."""
    with open(src, "rb") as f:
        data = f.read()
    parts, at = [], 0
    while at < len(data):
        size = int.from_bytes(data[at + 8:at + 16], "big")
        if data[at:at + 4] != b"FLR\0" or size < 68 or at + size > len(data):
            raise ValueError(f"{src}: no chunk at offset {at}")
        parts.append(data[at:at + size])
        at += size
    with open(dst, "wb") as f:
        f.write(b"".join(reversed(parts)))


def recording(name, scratch=None):
    if name == REVERSED and scratch:
        path = os.path.join(scratch, name)
        if not os.path.exists(path):
            reversed_chunks(os.path.join(TESTDATA, "recordings", "multi-jdk25.jfr"), path)
        return path
    for sub in ("recordings", "views", "gc"):
        p = os.path.join(TESTDATA, sub, name)
        if os.path.exists(p):
            return p
    if SHARED:
        for sub in ("recordings", os.path.join("corpus", "public")):
            p = os.path.join(SHARED, sub, name)
            if os.path.exists(p):
                return p
    return None


# The recordings of tests/views/regen-jdk-views.sh. concat-17-25.jfr (the
# JDK reads only its first recording) and cpu-jdk17-gzip.jfr (it reads no
# gzip) are checked against what the JDK should print by check-golden.sh.
# jmc-9u0.jfr and jmc-wls-medrec-jdk9.jfr are JFR 1.0 (JDK 9) files of the
# public corpus ($JFR_SHARED/corpus/public); mini-jfr10.jfr is a synthetic
# JFR 1.0 file with execution samples (tests/robust/jfrmake mini-jfr10).
# identity-jdk17.jfr and identity-jdk25.jfr (testdata/views) hold things of
# one name that are not one thing: threads, classes, class loaders, methods.
# gc-*-jdk25.jfr (testdata/gc) are one recording per collector: ZGC,
# Parallel, Serial, Shenandoah.
RECORDINGS = {"gc-zgc-jdk25.jfr", "gc-parallel-jdk25.jfr", "gc-serial-jdk25.jfr",
              "gc-shenandoah-jdk25.jfr",
              "cpu-jdk17.jfr", "cpu-jdk25.jfr", "io-jdk25.jfr", "leak-jdk17.jfr",
              "leak-jdk25.jfr", "multi-jdk25.jfr", "io-mixed-jdk17.jfr", "io-mixed-jdk25.jfr",
              "jmc-9u0.jfr", "jmc-wls-medrec-jdk9.jfr", "mini-jfr10.jfr",
              "identity-jdk17.jfr", "identity-jdk25.jfr", REVERSED}


def groups(view, path):
    """Whether the view's query groups rows (GROUP BY), or the view is
    made by hand (no query: it counts or merges, as the JDK's HashMap)."""
    p = subprocess.run([JFRTOOL, "view", "--verbose", view, path], env=ENV,
                       capture_output=True, text=True, errors="replace")
    lines = p.stdout.lstrip("\n").split("\n\n", 1)[0]
    return "GROUP BY" in lines or lines.startswith("(")


def main():
    json_csv = "--json-csv" in sys.argv
    known = load_known()
    jdkdir = os.path.join(TESTDATA, "jdk")
    goldens = sorted(f for f in os.listdir(jdkdir)
                     if ".view-" in f and f.endswith(".txt") and ".w160." not in f
                     and ".view-all-events" not in f)
    scratch = tempfile.mkdtemp(prefix="check-all-views.")
    try:
        return compare_all(goldens, known, json_csv, scratch)
    finally:
        shutil.rmtree(scratch)


def compare_all(goldens, known, json_csv, scratch):
    stats = {}
    fails = 0
    skipped = set()
    used_known = set()
    for g in goldens:
        rec, view = g[:-4].split(".view-", 1)
        if rec not in RECORDINGS:
            continue
        path = recording(rec, scratch)
        if path is None:
            skipped.add(rec)
            continue
        s = stats.setdefault(rec, {"equal": 0, "order": 0, "known": 0, "fail": 0})
        with open(os.path.join(TESTDATA, "jdk", g)) as f:
            want = f.read()
        p = subprocess.run([JFRTOOL, "view", "--jdk-order", view, path], env=ENV,
                           capture_output=True, text=True, errors="replace")
        got = jdk_part(p.stdout)
        k = known.get((view, rec)) or known.get((view, "*"))
        if got == want:
            s["equal"] += 1
            if k and (view, rec) in known:
                print(f"note: {view} {rec} is equal now; drop it from known-differences.txt")
        elif sorted(got.splitlines()) == sorted(want.splitlines()) and groups(view, path):
            s["order"] += 1
        elif k:
            s["known"] += 1
            used_known.add((view, rec))
        else:
            s["fail"] += 1
            fails += 1
            print(f"FAIL: view {view} {rec} (exit {p.returncode}) differs from {g}:")
            import difflib
            for line in list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                                  "jdk", "jfrtool", lineterm="", n=0))[:12]:
                print("   ", line)
        if json_csv and p.returncode == 0 and not view.startswith(("jdk.", "Garbage")):
            fails += check_formats(view, path, got)
    for rec in sorted(skipped):
        print(f"skip: {rec} (not in testdata/recordings, and no $JFR_SHARED/recordings)")
    total = {"equal": 0, "order": 0, "known": 0, "fail": 0}
    for rec, s in sorted(stats.items()):
        n = sum(s.values())
        print(f"{rec}: {s['equal']} of {n} views equal byte for byte, {s['order']} same rows "
              f"in another order, {s['known']} known differences, {s['fail']} failed")
        for key in total:
            total[key] += s[key]
    print(f"all: {total['equal']} equal, {total['order']} other order, "
          f"{total['known']} known differences, {total['fail']} failed")
    return 1 if fails else 0


def table_rows(text):
    """Data lines of a table printed by jfrtool (after the dashes), or None."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line and set(line) <= {"-", " "} and i > 0 and lines[i - 1].strip():
            return [l for l in lines[i + 1:] if l.strip()]
    return None


def check_formats(view, path, text):
    bad = 0
    pj = subprocess.run([JFRTOOL, "view", "--json", view, path], env=ENV,
                        capture_output=True, text=True, errors="replace")
    try:
        doc = json.loads(pj.stdout)
    except ValueError as e:
        print(f"FAIL: view --json {view} {path}: does not parse: {e}")
        return 1
    rows = table_rows(text)
    if rows is not None and "rows" in doc and not doc.get("form"):
        # a row of the table may take several lines (multi-line cells); the
        # hand-made views list every row and say how many the table shows
        shown = doc.get("tableRows", len(doc["rows"]))
        if shown > len(rows):
            print(f"FAIL: view --json {view} {path}: {shown} rows, "
                  f"table has {len(rows)} lines")
            bad += 1
        elif len(doc["rows"]) == 0 and len(rows) > 0:
            print(f"FAIL: view --json {view} {path}: no rows")
            bad += 1
    pc = subprocess.run([JFRTOOL, "view", "--csv", view, path], env=ENV,
                        capture_output=True, text=True, errors="replace")
    try:
        recs = list(csv.reader(io.StringIO(pc.stdout, newline="")))
    except csv.Error as e:
        print(f"FAIL: view --csv {view} {path}: does not parse: {e}")
        return bad + 1
    if "rows" in doc and doc.get("rows") and len(recs) != len(doc["rows"]) + 1:
        print(f"FAIL: view --csv {view} {path}: {len(recs) - 1} rows, JSON {len(doc['rows'])}")
        bad += 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
