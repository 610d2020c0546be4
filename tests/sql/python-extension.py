#!/usr/bin/env python3
"""The jfrsql extension loaded by Python's sqlite3 module: the rows of a
GROUP BY equal those of `jfrtool sql`, and the aggregates are there.
Run by check-python-extension.sh (which finds a suitable python3)."""
import json
import os
import sqlite3
import subprocess
import sys

rec = os.path.join(os.environ["JFR_TESTDATA"], "recordings", "cpu-jdk25.jfr")
conn = sqlite3.connect(":memory:")
conn.enable_load_extension(True)
conn.load_extension(os.environ["JFRSQL_EXT"])
conn.enable_load_extension(False)
conn.execute("CREATE VIRTUAL TABLE CPUTimeSample USING jfr(?, 'jdk.CPUTimeSample')"
             .replace("?", "'" + rec.replace("'", "''") + "'"))
query = ("SELECT coalesce(\"stackTrace.topFrame\", 'N/A') AS method, count(*) AS samples "
         "FROM CPUTimeSample GROUP BY method ORDER BY samples DESC, method")
got = [list(r) for r in conn.execute(query)]
out = subprocess.run([os.environ["JFRTOOL"], "sql", "--json", query, rec],
                     capture_output=True, check=True).stdout
want = [[r["method"], r["samples"]] for r in json.loads(out)["rows"]]
fail = 0
if not got or got != want:
    print(f"FAIL: Python and jfrtool sql differ: {got[:3]} / {want[:3]}")
    fail = 1
n, p50, sd = conn.execute("SELECT count(*), median(startTime), stdev(startTime) "
                          "FROM CPUTimeSample").fetchone()
if n != sum(r[1] for r in want) or p50 is None or sd is None:
    print(f"FAIL: count/median/stdev: {n} {p50} {sd}")
    fail = 1
# jfr_attach: every type of the file, with the rows jfrtool sql gives
conn2 = sqlite3.connect(":memory:")
conn2.enable_load_extension(True)
conn2.load_extension(os.environ["JFRSQL_EXT"])
ntables = conn2.execute("SELECT jfr_attach(?)", (rec,)).fetchone()[0]
got2 = [list(r) for r in conn2.execute(query)]
if ntables < 100 or got2 != want:
    print(f"FAIL: jfr_attach: {ntables} tables, rows {got2[:3]}")
    fail = 1
# jfr_attach_lazy: no table of an event type until jfr_make_tables names
# it (by short or full name, in any case), then the same rows; a second
# call makes nothing; jfr_view_text makes the tables its view reads
lazy = sqlite3.connect(":memory:")
lazy.enable_load_extension(True)
lazy.load_extension(os.environ["JFRSQL_EXT"])
lazy.execute("SELECT jfr_attach_lazy(?)", (rec,)).fetchone()


def schema(c):
    return {r[0] for r in c.execute("SELECT name FROM sqlite_schema")}


before = schema(lazy)
made = lazy.execute("SELECT jfr_make_tables(?)", (query.lower(),)).fetchone()[0]
again = lazy.execute("SELECT jfr_make_tables(?)", (query,)).fetchone()[0]
got3 = [list(r) for r in lazy.execute(query)]
if before or made != 1 or again != 0 or schema(lazy) != {"jdk.CPUTimeSample",
                                                         "CPUTimeSample"} or got3 != want:
    print(f"FAIL: jfr_attach_lazy: {sorted(before)} {made} {again} {sorted(schema(lazy))}")
    fail = 1
text = lazy.execute("SELECT jfr_view_text('gc-pauses')").fetchone()[0]
full = conn2.execute("SELECT jfr_view_text('gc-pauses')").fetchone()[0]
if text != full or "jdk.GCPhasePause" not in schema(lazy) or "jdk.GCHeapSummary" in schema(lazy):
    print(f"FAIL: jfr_view_text on a lazy connection: {text[:80]} / {full[:80]}")
    fail = 1
# on the connection the extension is loaded into, double quotes make names
# only: a mistyped column is an error, not a constant string on every row
try:
    rows = conn.execute('SELECT "eventThread.javaNam", count(*) FROM CPUTimeSample '
                        "GROUP BY 1").fetchall()
    print(f"FAIL: a mistyped quoted column gave rows: {rows}")
    fail = 1
except sqlite3.OperationalError as e:
    if "no such column: eventThread.javaNam" not in str(e):
        print(f"FAIL: a mistyped quoted column: {e}")
        fail = 1
if not fail:
    print(f"PASS: Python's sqlite3 loads jfrsql: {len(got)} rows as jfrtool sql gives them")
sys.exit(fail)
