#!/usr/bin/env python3
"""`view EVENT-TYPE` against JDK 25's `jfr view EVENT-TYPE`, every event type
of every test recording and of the public corpus: each type's table (labels,
formats of @Timestamp, @Timespan, @DataAmount, @Frequency, @MemoryAddress,
@Percentage, @Unsigned, char and boolean fields, layout) must be the JDK's
byte for byte, unless tests/views/known-type-differences.txt lists it with
its reason. Made by tests/views/regen-jdk-types.sh:

  testdata/jdk/R.view-all-events.txt.gz  the JDK's `view all-events` of the
      JDK 25 recordings, compared section by section with ours;
  testdata/jdk/R.view-types.txt.gz  of the JDK 17 recordings (where the JDK's
      all-events stops with an exception): `jfr view TYPE` per type with
      events, compared with `jfrtool view TYPE`;
  testdata/jdk/corpus/view-all-events.sha1  the SHA-1 of each section of the
      JDK's all-events of each corpus file (read from $JFR_SHARED, skipped
      when absent).

A listed difference that has become equal is reported, so that the list
shrinks. Exit status 0 pass, 1 fail, 77 skip (no SQLite).
"""
import fnmatch
import gzip
import hashlib
import os
import re
import subprocess
import sys

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
SHARED = os.environ.get("JFR_SHARED", "")
HERE = os.path.dirname(os.path.abspath(__file__))
# the JDK's outputs were written under a UTF-8 locale (non-ASCII text as is)
ENV = dict(os.environ, TZ="UTC", LC_ALL="C.UTF-8")


def sections(text):
    """A view all-events output cut into its types' sections."""
    return re.split(r"\n\n(?=\n)", text)


def title(section):
    return next((l.strip() for l in section.split("\n") if l.strip()), "")


def load_known():
    known = []
    with open(os.path.join(HERE, "known-type-differences.txt")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                pattern, rest = line.split(None, 1)
                what, reason = rest.split(" -- ", 1)
                known.append((pattern, what.strip(), reason))
    return known


class Check:
    def __init__(self):
        self.known = load_known()
        self.used = set()
        self.fails = 0

    def is_known(self, rec, what):
        for i, (pattern, k, _) in enumerate(self.known):
            if fnmatch.fnmatch(rec, pattern) and what == k:
                self.used.add(i)
                return True
        return False

    def compare(self, rec, what, equal):
        """One type's table: 'equal', 'known' or a failure."""
        what = what or "(empty)"
        if equal:
            return "equal"
        if self.is_known(rec, what):
            return "known"
        self.fails += 1
        print(f"FAIL: {rec}: {what!r} differs from the JDK's")
        return "fail"


def run(*args):
    p = subprocess.run([JFRTOOL, *args], env=ENV, capture_output=True)
    return p.stdout.decode("utf-8", "surrogateescape")


def find(rec):
    for sub in ("recordings", "views", "kinds", "report"):
        p = os.path.join(TESTDATA, sub, rec)
        if os.path.exists(p):
            return p
    return None


def all_events(check, rec, path, want_sections):
    got = sections(run("view", "all-events", path))
    counts = {"equal": 0, "known": 0, "fail": 0}
    check.compare(rec, "type count", len(got) == len(want_sections))
    for w, g in zip(want_sections, got):
        counts[check.compare(rec, title(w), w == g)] += 1
    return counts


def by_type(check, rec, path, text):
    counts = {"equal": 0, "known": 0, "fail": 0}
    for part in text.split("=== ")[1:]:
        name, want = part.split("\n", 1)
        got = run("view", name, path)
        counts[check.compare(rec, name, got == want)] += 1
    return counts


def corpus(check, folder, digests):
    by_file = {}
    for line in digests:
        name, index, sha, ttl = (line.rstrip("\n").split(" ", 3) + [""])[:4]
        by_file.setdefault(name, []).append((int(index), sha, ttl))
    results = {}
    for name, want in sorted(by_file.items()):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        got = sections(run("view", "all-events", path))
        counts = {"equal": 0, "known": 0, "fail": 0}
        if check.compare(name, "type count", len(got) == len(want)) == "fail":
            print(f"  {name}: {len(got)} types, the JDK {len(want)}")
        for (index, sha, ttl), g in zip(want, got):
            digest = hashlib.sha1(g.encode("utf-8", "surrogateescape")).hexdigest()
            counts[check.compare(name, ttl, digest == sha)] += 1
        results[name] = counts
    return results


def main():
    if subprocess.run([JFRTOOL, "sql", "--help"], capture_output=True).returncode != 0:
        print("SKIP: jfrtool built without SQLite")
        return 77
    check = Check()
    jdk = os.path.join(TESTDATA, "jdk")
    results = {}
    for f in sorted(os.listdir(jdk)):
        m = re.match(r"(.*\.jfr)\.view-(all-events|types)\.txt\.gz$", f)
        if not m:
            continue
        rec, kind = m.groups()
        path = find(rec)
        if path is None:
            print(f"FAIL: {rec}: no such test recording")
            check.fails += 1
            continue
        with gzip.open(os.path.join(jdk, f), "rt", encoding="utf-8",
                       errors="surrogateescape") as z:
            text = z.read()
        results[rec] = (all_events(check, rec, path, sections(text)) if kind == "all-events"
                        else by_type(check, rec, path, text))
    folder = os.path.join(SHARED, "corpus", "public") if SHARED else ""
    # the sanitizer pass (JFR_TEST_QUICK) checks the test recordings only
    have_corpus = (folder and not os.environ.get("JFR_TEST_QUICK") and
                   os.path.isfile(os.path.join(folder, "MANIFEST.tsv")))
    if have_corpus:
        with open(os.path.join(jdk, "corpus", "view-all-events.sha1"), encoding="utf-8") as f:
            results.update(corpus(check, folder, f.readlines()))
    else:
        print("note: no corpus ($JFR_SHARED/corpus/public): its types are not checked")
    for i, (pattern, what, _) in enumerate(check.known):
        if i not in check.used and have_corpus:
            print(f"note: {pattern} {what!r} differs nowhere now; drop it from "
                  "known-type-differences.txt")
    total = {"equal": 0, "known": 0, "fail": 0}
    for rec, c in sorted(results.items()):
        print(f"{rec}: {c['equal']} types equal to jfr view TYPE, {c['known']} known "
              f"differences, {c['fail']} failed")
        for k in total:
            total[k] += c[k]
    print(f"all: {total['equal']} equal, {total['known']} known differences, "
          f"{total['fail']} failed")
    return 1 if check.fails else 0


if __name__ == "__main__":
    sys.exit(main())
