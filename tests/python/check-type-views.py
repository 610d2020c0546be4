#!/usr/bin/env python3
"""Recording.view(TYPE) (doc/python.md, "Views and SQL"): the view of an
event type, built in sql/ (jfr_type_view), gives the title, labels, units
and rows of `jfrtool view --json TYPE`, for every event type with events of
a JDK 25 and a JDK 17 test recording (whose labels differ), by full and
short name; jfr_type_view_sql() is the query `jfrtool view --verbose TYPE`
runs. Skipped without an interpreter whose sqlite3 module can load the
jfrsql extension."""

import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402


jfr, _sql = jfrtest.setup_sql()

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = jfrtest.testdata()
ENV = dict(os.environ, LC_ALL="C", TZ="UTC")
CHECKS = Checks()
failures = CHECKS.failures
check = CHECKS.that


def tool(*args):
    return subprocess.run([JFRTOOL, *args], capture_output=True, text=True, env=ENV).stdout


def same(a, b, fmt):
    """jfrtool's JSON value `a` and Python's `b`."""
    if fmt == "bool" and a is not None and b is not None:
        return bool(a) == bool(b)
    # an @Unsigned value above 2^63: SQL reads it unsigned, jfrtool view signed
    if isinstance(b, float) and isinstance(a, int) and a < 0 and b >= 2.0**63:
        return math.isclose(b, a + 2**64, rel_tol=1e-15)
    if isinstance(a, int) and isinstance(b, int) and a < 0 and b >= 2**63:
        return b == a + 2**64
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-12)
    return a == b


compared = 0
for name in ("cpu-jdk25.jfr", "leak-jdk17.jfr"):
    path = os.path.join(DATA, "recordings", name)
    rec = jfr.open(path)
    types = [r["name"] for r in rec.sql("SELECT name FROM jfr_event_types ORDER BY name")]
    for t in types:
        if not rec.sql('SELECT 1 AS x FROM "%s" LIMIT 1' % t.replace('"', '""')):
            continue
        want = json.loads(tool("view", "--json", t, path))
        got = rec.view(t)
        check("%s %s: title" % (name, t), got.title == want["title"],
              "%r / %r" % (got.title, want["title"]))
        check("%s %s: labels and units" % (name, t),
              [(c["label"], c["unit"]) for c in got.columns] ==
              [(c["label"], c["unit"]) for c in want["columns"]])
        fmts = {c["label"]: c["format"] for c in got.columns}
        ok = len(got) == len(want["rows"]) and all(
            same(w[k], g[k], fmts[k]) for w, g in zip(want["rows"], got) for k in w)
        check("%s %s: rows" % (name, t), ok, "%r / %r" % (list(got)[:1], want["rows"][:1]))
        compared += 1
    rec.close()
check("types compared", compared >= 100, compared)

# the short name, and the query jfrtool runs
cpu25 = os.path.join(DATA, "recordings", "cpu-jdk25.jfr")
rec = jfr.open(cpu25)
check("a type by its short name",
      list(rec.view("GCPhasePause")) == list(rec.view("jdk.GCPhasePause")))
query = rec.sql("SELECT jfr_type_view_sql('jdk.GCPhasePause') AS q")[0]["q"]
check("jfr_type_view_sql is the query jfrtool view runs",
      query in tool("view", "--verbose", "jdk.GCPhasePause", cpu25), query)
check("no such type: NULL",
      rec.sql("SELECT jfr_type_view_sql('jdk.NoSuchEvent') AS q")[0]["q"] is None)
try:
    rec.view("jdk.NoSuchEvent")
    check("no such type raises KeyError", False)
except KeyError:
    pass

print("%d types compared, %d failures" % (compared, len(failures)))
sys.exit(1 if failures else 0)
