#!/usr/bin/env python3
"""jfr.view_text() (doc/python.md, "Views and SQL"): a view's cells as
`jfrtool view` writes them, through the extension's jfr_view_text()
(sql/'s jfrsql_view_table). On cpu-jdk25.jfr and cpu-jdk17.jfr, every view
with SQL against the committed JDK 25 outputs where they exist
(testdata/jdk/R.view-V.txt: a form's "Label: text" lines, the JDK's
"Can't find event type", "Can't find field" and "No events found"
messages), and every table's rows against `jfrtool view --width 2000`
(each cell's text, in order, on its row's line). Unknown names raise
KeyError, views without SQL ValueError. Skipped without an interpreter
whose sqlite3 module can load the jfrsql extension."""

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
CHECKS = Checks()
failures = CHECKS.failures
check = CHECKS.that


def tool_text(*args):
    return subprocess.run([JFRTOOL, *args], capture_output=True, text=True,
                          env=dict(os.environ, LC_ALL="C.UTF-8", TZ="UTC")).stdout


def check_jdk(name, t, jdk):
    """The facts and a form's cells against the JDK's output `jdk`."""
    if t["state"] == "missing-type":
        check("%s: missing type" % name,
              "Can't find event type named '%s'." % t["missing"] in jdk, t["missing"])
    elif t["state"] == "missing-field":
        field = t["missing"].split(".", 1)[-1]
        check("%s: missing field" % name, "Can't find field named '%s' " % field in jdk,
              t["missing"])
    elif t["state"] == "no-events" or not t["rows"]:
        check("%s: no events" % name, "No events found for" in jdk)
    elif t["form"]:
        for c, text in zip(t["columns"], t["rows"][0]):
            line = "%s: %s" % (c["label"], text.replace("\n", " ").replace("\t", " "))
            if len(line) <= 79:
                check("%s: %s" % (name, c["label"]), "\n" + line + "\n" in jdk, line)
    return 1


def check_tool(name, t, out):
    """A table's rows against jfrtool's lines, cell by cell in order."""
    lines = out.split("\n")
    start = next((i for i, l in enumerate(lines) if l.startswith("---")), None)
    check("%s: a table" % name, start is not None)
    if start is None:
        return 0
    rows = [l for l in lines[start + 1:] if l.strip()]
    for i, row in enumerate(t["rows"][:len(rows)]):
        at = 0
        for text in row:
            first = text.split("\n", 1)[0]
            found = rows[i].find(first, at)
            check("%s: row %d cell %r" % (name, i, first), found >= 0, rows[i])
            if found >= 0:
                at = found + len(first)
    return 1


views = jfr.sql(os.path.join(DATA, "recordings", "cpu-jdk25.jfr"),
                "SELECT name, fast_path FROM jfr_views WHERE query IS NOT NULL")
compared = 0
for rec_name in ("cpu-jdk25.jfr", "cpu-jdk17.jfr"):
    path = os.path.join(DATA, "recordings", rec_name)
    rec = jfr.open(path)
    for v in views:
        t = rec.view_text(v["name"])
        golden = os.path.join(DATA, "jdk", "%s.view-%s.txt" % (rec_name, v["name"]))
        if os.path.exists(golden):
            with open(golden, encoding="utf-8") as f:
                compared += check_jdk(v["name"], t, f.read())
        if t["state"] == "rows" and t["rows"] and not t["form"]:
            args = ["view", "--width", "2000"] + (["--generic"] if v["fast_path"] else [])
            compared += check_tool(v["name"], t, tool_text(*args, v["name"], path))
check("views compared", compared >= 100, compared)

rec = jfr.open(os.path.join(DATA, "recordings", "cpu-jdk25.jfr"))
t = rec.view_text("jdk.GCPhasePause")
check("an event type's view", t["state"] == "rows" and len(t["rows"]) > 0)
for bad, exc in (("no-such-view", KeyError), ("recording", ValueError)):
    try:
        rec.view_text(bad)
        check("%s raises" % bad, False)
    except exc:
        pass

if failures:
    sys.exit(1)
print("ok: %d views' texts" % compared)
