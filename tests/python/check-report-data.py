#!/usr/bin/env python3
"""jfr.report_data() and Recording.report_data() (doc/python.md, "The
report's data") give what `jfrtool report` embeds in its page: the data
line's chunks, bytes, origin, overview, settings, every series' columns
and texts, and as many lost lines, on every single test recording (the
page's origin is the same first chunk's start there), a cut recording
and a recording from bytes. Both are one library call
(jfr_report_data_build), so this checks the binding's declarations and
conversions, against the tool's rendering of the same data."""

import glob
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

jfr = jfrtest.setup()

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = jfrtest.testdata()
failures = []


def check(what, ok, detail=""):
    if not ok:
        print("FAIL: %s%s" % (what, " (%s)" % detail if detail else ""))
        failures.append(what)


def page_data(path):
    """The REPORT object of the page `jfrtool report` writes for `path`."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.html")
        subprocess.run([JFRTOOL, "report", "--jobs", "1", "-o", out, path],
                       capture_output=True)
        with open(out, encoding="utf-8") as f:
            for line in f:
                if line.startswith("const REPORT = "):
                    return json.loads(line[len("const REPORT = "):].rstrip().rstrip(";"))
    raise AssertionError("no data line for " + path)


def same_number(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-11, abs_tol=1e-9)


def compare(name, got, page):
    s = got["summary"]
    check(name + ": chunks", s["chunks"] == page["chunks"], (s["chunks"], page["chunks"]))
    check(name + ": bytes", s["bytes"] == page["bytes"])
    check(name + ": origin", s["origin_nanos"] // 1000000 == page["origin"])
    check(name + ": overview", [list(kv) for kv in got["overview"].items()] == page["info"],
          (got["overview"], page["info"]))
    check(name + ": settings",
          [list(kv) for kv in got["settings"].items()] == page["settings"])
    check(name + ": lost", len(got["lost"]) == len(page["lost"]))
    check(name + ": series names", list(got["series"]) == list(page["series"]))
    for sname, series in got["series"].items():
        want = page["series"][sname]
        check("%s %s: text" % (name, sname), series["text"] == want["text"])
        for col, values in series["columns"].items():
            ok = len(values) == len(want[col]) and all(
                same_number(a, b) for a, b in zip(values, want[col]))
            check("%s %s.%s" % (name, sname, col), ok)


files = sorted(glob.glob(os.path.join(DATA, "recordings", "*.jfr")) +
               glob.glob(os.path.join(DATA, "report", "*.jfr")))
points = 0
for path in files:
    name = os.path.basename(path)
    page = page_data(path)
    with jfr.open(path) as rec:
        got = rec.report_data()
    compare(name, got, page)
    points += sum(len(s["text"]) for s in got["series"].values())
check("some series points", points > 100, points)

# a cut recording: what was read, and what was lost with its location
with open(os.path.join(DATA, "recordings", "multi-jdk25.jfr"), "rb") as f:
    cut = f.read()[:500000]
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "cut.jfr")
    with open(path, "wb") as f:
        f.write(cut)
    page = page_data(path)
    got = jfr.report_data(path)
    compare("cut", got, page)
    check("cut: lost", len(got["lost"]) > 0)
    check("cut: lost located", all(x["chunk"] >= 0 and x["offset"] > 0 and
                                   "chunk " not in x["message"] for x in got["lost"]),
          got["lost"])
    from_bytes = jfr.report_data([jfr.open(cut)])
    check("bytes: same series", from_bytes["series"] == got["series"])

if failures:
    sys.exit(1)
print("ok: report_data equals the page's data line on %d recordings and a cut one"
      % len(files))
