#!/usr/bin/env python3
"""Recording.view() and Recording.sql() (doc/python.md, "Views and SQL"):
every view with SQL gives the rows of `jfrtool view --json` (the
definition, `--generic`, where a hand-made path exists too) with its
labels and units, on two test recordings; sql() gives the rows of
`jfrtool sql --json`; jfr.view and jfr.sql read several recordings and
bytes as one; a name that is no view, a view without SQL, a view over a
type the recording lacks and a wrong query raise. Skipped without an
interpreter whose sqlite3 module can load the jfrsql extension."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks, same_value as same  # noqa: E402


jfr, _sql = jfrtest.setup_sql()

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = jfrtest.testdata()
CHECKS = Checks()
failures = CHECKS.failures
check = CHECKS.that


def tool_json(*args):
    p = subprocess.run([JFRTOOL, *args], capture_output=True, text=True,
                       env=dict(os.environ, LC_ALL="C", TZ="UTC"))
    return json.loads(p.stdout)


views = jfr.sql(os.path.join(DATA, "recordings", "cpu-jdk25.jfr"),
                "SELECT name, fast_path FROM jfr_views WHERE query IS NOT NULL")
check("views with SQL", len(views) >= 70, len(views))
compared = 0
for name in ("cpu-jdk25.jfr", "leak-jdk17.jfr"):
    path = os.path.join(DATA, "recordings", name)
    rec = jfr.open(path)
    for v in views:
        args = ["view", "--json"] + (["--generic"] if v["fast_path"] else []) + [v["name"], path]
        want = tool_json(*args)
        try:
            got = rec.view(v["name"])
        except jfr.Error as e:
            check("%s %s: the view finds no type or field" % (name, v["name"]),
                  want.get("declared") is False or "missingField" in want, str(e))
            continue
        check("%s %s: title" % (name, v["name"]), got.title == want["title"])
        check("%s %s: labels and units" % (name, v["name"]),
              [(c["label"], c["unit"]) for c in got.columns] ==
              [(c["label"], c["unit"]) for c in want["columns"]])
        fmts = {c["label"]: c["format"] for c in got.columns}
        ok = len(got) == len(want["rows"]) and all(
            same(w[k], g[k], fmts[k]) for w, g in zip(want["rows"], got) for k in w)
        check("%s %s: rows" % (name, v["name"]), ok,
              "%r / %r" % (list(got)[:1], want["rows"][:1]))
        compared += 1
    rec.close()
check("views compared", compared >= 100, compared)

# sql(): the rows of jfrtool sql --json, several recordings and bytes as one
cpu25 = os.path.join(DATA, "recordings", "cpu-jdk25.jfr")
cpu17 = os.path.join(DATA, "recordings", "cpu-jdk17.jfr")
query = ('SELECT "stackTrace.topFrame" AS method, count(*) AS samples FROM ExecutionSample '
         "GROUP BY method ORDER BY samples DESC, method LIMIT 10")
want = tool_json("sql", "--json", query, cpu25, cpu17)["rows"]
check("sql() of two recordings", jfr.sql([cpu25, cpu17], query) == want)
with open(cpu25, "rb") as f:
    data = f.read()
check("sql() of bytes", jfr.sql(data, query) == tool_json("sql", "--json", query, cpu25)["rows"])
check("sql() with parameters",
      jfr.open(cpu25).sql("SELECT count(*) AS n FROM ExecutionSample WHERE "
                          "\"sampledThread.javaName\" = ?", ("main",))[0]["n"] >= 0)
check("view() of two recordings",
      list(jfr.view([cpu25, cpu17], "hot-methods")) ==
      [dict(r) for r in jfr.sql([cpu25, cpu17], 'SELECT * FROM "view:hot-methods"')])

# errors
for what, call, exc in (
        ("no such view", lambda: jfr.open(cpu25).view("no-such-view"), KeyError),
        ("a view without SQL", lambda: jfr.open(cpu25).view("cpu-time-statistics"), ValueError),
        ("a type the recording lacks", lambda: jfr.open(cpu17).view("cpu-time-hot-methods"),
         jfr.Error),
        ("a wrong query", lambda: jfr.open(cpu25).sql("SELECT nope FROM ExecutionSample"),
         jfr.Error)):
    try:
        call()
        check(what + " raises", False)
    except exc as e:
        check(what + " says why", str(e) != "", repr(e))

print("%d views compared, %d failures" % (compared, len(failures)))
sys.exit(1 if failures else 0)
