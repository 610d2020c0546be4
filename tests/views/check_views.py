#!/usr/bin/env python3
"""Checks of `jfrtool view` beyond the byte-for-byte JDK comparison
(check-golden.sh):

ties      without --jdk-order, equal rows are ordered by name: the rows are
          the --jdk-order rows re-sorted so, and against the JDK's outputs
          (testdata/jdk) the tables differ only in the order inside runs of
          equal rows (and, at the top-25 cut, in which tied rows are shown).
json      --json parses, its rows are the text rows (same keys, counts and
          percentages, same order) and add up to the totals.
parts     files the JDK gets wrong are checked against the sum of their
          parts: concat-17-25.jfr (cat cpu-jdk17.jfr cpu-jdk25.jfr; JDK 25
          shows only the first recording) must give, row by row, the sum of
          the views of the two files; a file concatenated with itself doubles
          every count and keeps every percentage.
unfinished the unfinished-* recordings (JDK 25's `jfr view` never returns on
          them): hot-methods and allocation rows must equal the top frames
          counted in JDK 17's `jfr print` of the same file; views of
          many tables (all-views, all-events, jdk.GC*) warn of the
          unclosed chunk once.
empty     JDK 17 writes some events with a stack trace of no frames (the
          Notification Thread's jdk.ThreadStart, jdk.Shutdown), on which
          JDK 25's `jfr view` stops with an exception (so no JDK output
          to compare): thread-start must still show each such thread,
          with an empty Stack Trace cell, as `jfrtool print --json` shows
          its stack (no frames).
corpus    every view on the public corpus (../shared/corpus/public), if
          present: no crash, JSON rows that add up; JDK 11/17 files must
          show their execution samples.

Environment: JFRTOOL, JFR_TESTDATA, JFR_SHARED (as set by `make check`).
Exit status 0 pass, 1 fail, 77 skip (corpus absent).
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ["JFRTOOL"]
TESTDATA = os.environ["JFR_TESTDATA"]
REC = os.path.join(TESTDATA, "recordings")
JDK = os.path.join(TESTDATA, "jdk")
ENV = dict(os.environ, TZ="UTC", LC_ALL="C")

ROW_VIEWS = ["hot-methods", "cpu-time-hot-methods", "native-methods",
             "allocation-by-class", "allocation-by-site"]
VIEWS = ROW_VIEWS + ["cpu-time-statistics"]
CHECKS = Checks()
failures = CHECKS.failures
fail = CHECKS.fail


def run(*args, check=True):
    p = subprocess.run([JFRTOOL, "view", *args], env=ENV, capture_output=True)
    if p.returncode < 0 or p.returncode > 2:
        fail("view %s: crashed or bad exit status %d: %s"
             % (" ".join(args), p.returncode, p.stderr.decode()[-300:]))
    elif check and p.returncode != 0:
        fail("view %s: exit status %d: %s"
             % (" ".join(args), p.returncode, p.stderr.decode()[-300:]))
    return p


def view_json(view, *files):
    p = run("--json", view, *files)
    try:
        return json.loads(p.stdout.decode("utf-8"))
    except ValueError as e:
        fail("view --json %s %s: not JSON (%s)" % (view, " ".join(files), e))
        return None


def text_rows(out, ncols):
    """Rows of a text table: [key, number columns...]; None if no table."""
    lines = out.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("---"):
            break
    else:
        return None
    rows = []
    for line in lines[i + 1:]:
        if not line.strip():
            break
        parts = line.rsplit(None, ncols - 1)
        rows.append([parts[0].rstrip()] + parts[1:])
    return rows


def count(text):
    return int(text.replace(",", ""))


def check_json(files, label):
    for view in ROW_VIEWS:
        j = view_json(view, *files)
        if j is None:
            continue
        if not j["declared"]:
            if j["rows"]:
                fail("%s %s: rows for an undeclared type" % (view, label))
            continue
        rows = j["rows"]
        if "totalWeight" in j:  # weighted views: rows carry weights only
            if sum(r["weight"] for r in rows) != j["totalWeight"]:
                fail("%s %s: weights do not add up" % (view, label))
        elif sum(r["samples"] for r in rows) != j["events"]:
            fail("%s %s: samples of the rows do not add up to events" % (view, label))
        if j["groups"] != len(rows):
            fail("%s %s: groups %d != rows %d" % (view, label, j["groups"], len(rows)))
        keys = [list(r.keys()) for r in rows]
        if any(k != keys[0] for k in keys):
            fail("%s %s: rows with different keys" % (view, label))
        # the text table at a width that truncates nothing
        out = run("--width", "2000", view, *files).stdout.decode("utf-8")
        has_samples = view in ("hot-methods", "cpu-time-hot-methods", "native-methods")
        has_percent = view != "native-methods"
        ncols = 1 + has_samples + has_percent
        trows = text_rows(out, ncols)
        if j["events"] == 0:
            if "No events found for" not in out:
                fail("%s %s: no events but no 'No events found'" % (view, label))
            continue
        if trows is None or len(trows) != j["tableRows"]:
            fail("%s %s: text shows %s rows, JSON says %d"
                 % (view, label, trows and len(trows), j["tableRows"]))
            continue
        key = "objectType" if view == "allocation-by-class" else "method"
        for t, r in zip(trows, rows):
            want = [r[key]]
            if has_samples:
                want.append("{:,}".format(r["samples"]))
            if has_percent:
                want.append("%.2f%%" % r["percent"])
            # non-ASCII is '?' per UTF-16 unit in the C locale's text,
            # UTF-8 in JSON
            want[0] = ascii_key(want[0])
            if t != want:
                fail("%s %s: text row %s != JSON row %s" % (view, label, t, want))
                break
    j = view_json("cpu-time-statistics", *files)
    if j and j["declared"]:
        c = j["cpuTime"]
        if j["successfulSamples"] + j["failedSamples"] != j["totalSamples"]:
            fail("cpu-time-statistics %s: successful + failed != total" % label)
        if c["allSampled"] != c["samples"] + c["lost"]:
            fail("cpu-time-statistics %s: allSampled != samples + lost" % label)
        if j["lostSamples"] not in (None, c["lost"]):
            fail("cpu-time-statistics %s: lost differs" % label)
        out = run("cpu-time-statistics", *files).stdout.decode()
        m = re.search(r"^  Lost samples +([0-9,]+) +([0-9.]+)%", out, re.M)
        if c["samples"] + c["lost"] and (not m or count(m.group(1)) != c["lost"]
                                         or float(m.group(2)) != c["percent"]["lost"]):
            fail("cpu-time-statistics %s: honest 'Lost samples' line %s" % (label, m and m.group(0)))


def events(j):
    return j["events"] if j["declared"] else 0


def jdk_files():
    """(recording, prefix of its JDK outputs) for the files the JDK reads
    right (check-golden.sh)."""
    out = []
    for f in sorted(os.listdir(REC)):
        if not f.endswith(".jfr") or f.startswith(("concat-", "unfinished-")):
            continue
        g = "cpu-jdk17.jfr" if f == "cpu-jdk17-gzip.jfr" else f
        out.append((os.path.join(REC, f), os.path.join(JDK, g)))
    return out


def table_rows(lines):
    for i, line in enumerate(lines):
        if line.startswith("---"):
            rows = []
            for line in lines[i + 1:]:
                if not line.strip():
                    break
                rows.append(line)
            return lines[:i + 1], rows
    return lines, []


def check_ties():
    for path, prefix in jdk_files():
        name = os.path.basename(path)
        for view in ROW_VIEWS:
            by_name = view_json(view, path)
            by_jdk = view_json("--jdk-order", view, path)
            if not by_name or not by_jdk or not by_name["declared"]:
                continue
            value = "weight" if "totalWeight" in by_name else "samples"
            key = "objectType" if view == "allocation-by-class" else "method"
            want = sorted(by_jdk["rows"], key=lambda r: (-r[value], r[key].encode()))
            if want != by_name["rows"]:
                fail("%s %s: rows are not the JDK's re-sorted by name" % (view, name))
            for w in ("", "160"):
                golden = prefix + ".view-%s%s.txt" % (view, ".w" + w if w else "")
                with open(golden, encoding="utf-8", errors="replace") as f:
                    glines = f.read().split("\n")
                args = ["--width", w] if w else []
                ours = run(*args, view, path).stdout.decode("utf-8", "replace").split("\n")
                ghead, grows = table_rows(glines)
                ohead, orows = table_rows(ours)
                ncols = 3 if view in ("hot-methods", "cpu-time-hot-methods") else 2
                if ghead != ohead[:len(ghead)] or len(grows) != len(orows):
                    fail("%s %s %s: layout differs from %s" % (view, name, w, golden))
                    continue
                runs = {}
                for which, rows in (("jdk", grows), ("ours", orows)):
                    for r in rows:
                        runs.setdefault(tuple(r.rsplit(None, ncols - 1)[1:]), {}) \
                            .setdefault(which, []).append(r)
                last = tuple(grows[-1].rsplit(None, ncols - 1)[1:]) if grows else None
                for v, both in runs.items():
                    a, b = sorted(both.get("jdk", [])), sorted(both.get("ours", []))
                    if (a != b if v != last else len(a) != len(b)):
                        fail("%s %s %s: rows with values %s differ from the JDK's: %s / %s"
                             % (view, name, w, v, a[:3], b[:3]))


def rows_by_key(j, field):
    key = "objectType" if j["view"] == "allocation-by-class" else "method"
    return {r[key]: r[field] for r in j["rows"]} if j["declared"] else {}


def add(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


def check_parts():
    concat = os.path.join(REC, "concat-17-25.jfr")
    p17 = os.path.join(REC, "cpu-jdk17.jfr")
    p25 = os.path.join(REC, "cpu-jdk25.jfr")
    # what the JDK got wrong, kept as evidence: its concat views are the
    # JDK 17 part alone
    for view in VIEWS:
        with open(os.path.join(JDK, "concat-17-25.jfr.view-%s.txt" % view)) as a, \
             open(os.path.join(JDK, "cpu-jdk17.jfr.view-%s.txt" % view)) as b:
            if a.read() != b.read():
                fail("the JDK's concat view %s is no longer just the first part" % view)
    for view in ROW_VIEWS:
        jc = view_json(view, concat)
        j17 = view_json(view, p17)
        j25 = view_json(view, p25)
        if None in (jc, j17, j25):
            continue
        for field in ("weight",) if "allocation" in view else ("samples",):
            want = add(rows_by_key(j17, field), rows_by_key(j25, field))
            got = rows_by_key(jc, field)
            if got != want:
                fail("%s concat-17-25.jfr: %s is not the sum of the parts" % (view, field))
        if events(jc) != events(j17) + events(j25):
            fail("%s concat-17-25.jfr: events %d != %d + %d"
                 % (view, events(jc), events(j17), events(j25)))
        # one file with both recordings = the two files given together
        a = run(view, concat).stdout
        b = run(view, p17, p25).stdout
        if a != b:
            fail("%s: concat-17-25.jfr differs from 'cpu-jdk17.jfr cpu-jdk25.jfr'" % view)
    # the JDK 17 part has no CPU-time samples: the CPU-time views of the
    # concatenation are exactly the JDK 25 part's, byte for byte
    for view in ("cpu-time-hot-methods", "cpu-time-statistics"):
        a = run(view, concat).stdout
        b = run(view, p25).stdout
        if a != b:
            fail("%s: concat-17-25.jfr differs from cpu-jdk25.jfr alone" % view)
    # a recording concatenated with itself: counts double, shares stay
    with tempfile.TemporaryDirectory() as tmp:
        twice = os.path.join(tmp, "twice.jfr")
        with open(twice, "wb") as out:
            for _ in range(2):
                with open(os.path.join(REC, "multi-jdk25.jfr"), "rb") as f:
                    shutil.copyfileobj(f, out)
        for view in ROW_VIEWS:
            j1 = view_json(view, os.path.join(REC, "multi-jdk25.jfr"))
            j2 = view_json(view, twice)
            if not j1 or not j2:
                continue
            r1 = {r.get("method", r.get("objectType")): r for r in j1["rows"]}
            r2 = {r.get("method", r.get("objectType")): r for r in j2["rows"]}
            field = "weight" if "totalWeight" in j1 else "samples"
            if set(r1) != set(r2) or any(
                    r2[k][field] != 2 * r1[k][field]
                    or r2[k].get("percent") != r1[k].get("percent") for k in r1):
                fail("%s: multi-jdk25.jfr twice does not double the counts" % view)


def top_frames_from_print(path, event):
    """Top-frame method -> count from `jfr print` text."""
    counts = {}
    with gzip.open(path, "rt", encoding="utf-8", errors="replace") as f:
        lines = iter(f)
        for line in lines:
            if line.startswith(event + " {"):
                top = "N/A"
                for line in lines:
                    if line.startswith("}"):
                        break
                    if line.strip() == "stackTrace = [":
                        top = re.sub(r" line: \d+$", "", next(lines).strip())
                counts[top] = counts.get(top, 0) + 1
    return counts


HIDDEN = re.compile(r"\$\$Lambda|LambdaForm\$|Invokers\$Holder|\$\$StringConcat|"
                    r"DirectMethodHandle\$Holder")


def ascii_key(text):
    """Non-ASCII as '?' per UTF-16 unit: JDK 17's print wrote a character
    beyond U+FFFF as two undecodable halves."""
    return "".join(c if ord(c) < 128 else "??" if ord(c) > 0xFFFF else "?"
                   for c in text)


def check_said_once(path):
    """Every view, and a view of many types, meets the chunk the JVM did
    not close in each of its tables: the warning must be given once."""
    for args in (["all-views"], ["jdk.GC*"], ["all-events"]):
        p = run(*args, path)
        lines = p.stderr.decode("utf-8", "replace").splitlines()
        if len(lines) != 1 or "was not closed" not in lines[0]:
            fail("view %s %s: the warning not given once: %d lines, %r"
                 % (args[0], os.path.basename(path), len(lines), lines[:2]))


def check_unfinished():
    for name in ("unfinished-jdk17.jfr", "unfinished-jdk25.jfr"):
        check_said_once(os.path.join(REC, name))
        printed = os.path.join(JDK, name + ".print17.txt.gz")
        if not os.path.exists(printed):
            fail("missing " + printed)
            continue
        for view, event in (("hot-methods", "jdk.ExecutionSample"),
                            ("native-methods", "jdk.NativeMethodSample")):
            want = top_frames_from_print(printed, event)
            j = view_json(view, os.path.join(REC, name))
            if j is None:
                continue
            want = {ascii_key(m): n for m, n in want.items()}
            got = {ascii_key(r["method"]): r["samples"] for r in j["rows"]}
            # `jfr print` leaves out hidden frames (lambda forms, hidden
            # classes), the views do not: an event whose top frame is hidden
            # is counted under its caller in `want`.
            hidden = {m: n for m, n in got.items() if HIDDEN.search(m)}
            shown = {m: n for m, n in got.items() if m not in hidden}
            moved = sum(want.get(m, 0) - n for m, n in shown.items()) + \
                sum(n for m, n in want.items() if m not in got)
            if (sum(got.values()) != sum(want.values())
                    or any(n > want.get(m, 0) for m, n in shown.items())
                    or moved != sum(hidden.values())):
                diff = {k: (got.get(k), want.get(k)) for k in set(got) | set(want)
                        if got.get(k) != want.get(k)}
                fail("%s %s: rows differ from JDK 17's print: %s"
                     % (view, name, list(diff.items())[:5]))


def check_empty_stacks():
    empty = 0
    for name in sorted(os.listdir(REC)):
        if not name.endswith("-jdk17.jfr"):
            continue
        path = os.path.join(REC, name)
        p = subprocess.run([JFRTOOL, "print", "--json", "--events", "jdk.ThreadStart",
                            path], env=ENV, capture_output=True)
        if p.returncode != 0:
            fail("print --json %s: exit status %d" % (name, p.returncode))
            continue
        events = json.loads(p.stdout)["recording"]["events"]
        threads = [e["values"]["thread"]["javaName"] for e in events
                   if e["values"].get("stackTrace") is not None
                   and not e["values"]["stackTrace"]["frames"]]
        j = view_json("--jdk-order", "thread-start", path)
        if j is None:
            continue
        for t in threads:
            empty += 1
            cells = [r["Stack Trace"] for r in j["rows"] if r["Thread"] == t]
            if cells != [""]:
                fail("thread-start %s: thread %r started with no frames, rows %r"
                     % (name, t, cells))
    if empty == 0:
        fail("thread-start: no JDK 17 recording has a thread started with no frames")
    print("empty: %d threads started with no frames" % empty)


def check_corpus():
    corpus = os.path.join(os.environ.get("JFR_SHARED", ""), "corpus", "public")
    manifest = os.path.join(corpus, "MANIFEST.tsv")
    if not os.path.exists(manifest):
        print("SKIP corpus: %s absent" % corpus)
        return False
    with open(manifest) as f:
        entries = [line.rstrip("\n").split("\t") for line in f][1:]
    ran = 0
    for e in entries:
        name, version, producer = e[0], e[4], e[6]
        path = os.path.join(corpus, name)
        if not os.path.exists(path) or version.startswith("0.9"):
            continue
        for view in VIEWS:
            p = run(view, path, check=False)
            ran += 1
            if p.returncode != 0:
                continue  # unreadable input: exit 2 with a message is fine
            if view in ROW_VIEWS:
                j = view_json(view, path)
                if j and j["declared"]:
                    field, total = (("weight", "totalWeight") if "totalWeight" in j
                                    else ("samples", "events"))
                    if sum(r[field] for r in j["rows"]) != j[total]:
                        fail("corpus %s %s: rows do not add up" % (name, view))
        old_jdk = re.search(r"JDK (11|17)\b|OpenJDK (11|17)\b|JDK 17 \(by", producer)
        if old_jdk and "async-profiler" not in producer:
            j = view_json("hot-methods", path)
            summary = subprocess.run([JFRTOOL, "summary", path], env=ENV,
                                     capture_output=True).stdout.decode()
            m = re.search(r"^ jdk\.ExecutionSample +(\d+)", summary, re.M)
            if j and m and j["events"] != int(m.group(1)):
                fail("corpus %s: hot-methods has %d events, summary %s"
                     % (name, j["events"], m.group(1)))
            if j and m and int(m.group(1)) > 0 and not j["rows"]:
                fail("corpus %s: no hot-methods rows" % name)
    print("corpus: %d view runs" % ran)
    return True


def main():
    what = sys.argv[1:] or ["ties", "json", "parts", "unfinished", "empty", "corpus"]
    skipped = False
    if "ties" in what:
        check_ties()
    if "json" in what:
        for f in sorted(os.listdir(REC)):
            if f.endswith(".jfr"):
                check_json([os.path.join(REC, f)], f)
    if "parts" in what:
        check_parts()
    if "unfinished" in what:
        check_unfinished()
    if "empty" in what:
        check_empty_stacks()
    if "corpus" in what:
        skipped = not check_corpus()
    if failures:
        print("%d failures" % len(failures))
        return 1
    return 77 if skipped and what == ["corpus"] else 0


if __name__ == "__main__":
    sys.exit(main())
