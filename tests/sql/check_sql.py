#!/usr/bin/env python3
"""make check: jfrtool sql (doc/sql.md) against the commands it must agree
with: top frames by count equal `jfrtool view hot-methods` and
`cpu-time-hot-methods`, counts per type equal `jfrtool summary`, --json has
numbers as numbers, --csv parses with Python's csv module and holds the same
rows, the aggregates compute what Python computes, and damaged input gives
the warnings and exit status of the other commands, never a crash. On the
shared public corpus, when it is there: the counts, the hot-methods rows,
and every cell of every table of every file.

Skipped (77) when jfrtool was built without SQLite.
Environment (set by make check): JFRTOOL, JFR_TESTDATA, JFR_SHARED,
JFRMAKE; TMPDIR for scratch.
"""
import csv
import io
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.join(DATA, "recordings")
CHECKS = Checks()
failures = CHECKS.failures
check = CHECKS.check


def run(*args, stdin=None):
    p = subprocess.run([JFRTOOL, *args], capture_output=True, stdin=stdin)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def sql_json(query, *files):
    rc, out, err = run("sql", "--json", query, *files)
    if rc != 0:
        raise RuntimeError(f"jfrtool sql --json {query!r} {files}: exit {rc}: {err}")
    return json.loads(out)


def top_frames_equal_view(rec, view, table, folder=REC):
    """The view's rows (method, samples) are the GROUP BY's first rows: by
    the top frame's identity (a bridge method and its target, two classes
    of one name, are rows of their own, as in the JDK's views)."""
    path = os.path.join(folder, rec)
    rc, out, err = run("view", "--json", view, path)
    if rc != 0:
        check(False, f"{view} {rec}: exit {rc}: {err}")
        return
    v = json.loads(out)
    if not v.get("declared") or not v.get("events"):
        return
    want = [(r["method"], r["samples"]) for r in v["rows"]]
    got = sql_json(
        'SELECT coalesce(first("stackTrace.topFrame"), \'N/A\') AS method, '
        'count(*) AS samples, "stackTrace.topFrame.identity" AS i '
        f"FROM {table} GROUP BY i ORDER BY samples DESC, method, i LIMIT {len(want)}",
        path)["rows"]
    got = [(r["method"], r["samples"]) for r in got]
    check(got == want, f"{rec}: sql top frames of {table} differ from view {view}:\n"
          f"  view: {want[:5]}...\n  sql:  {got[:5]}...")
    total = sql_json(f"SELECT count(*) AS n FROM {table}", path)["rows"][0]["n"]
    check(total == v["events"], f"{rec}: {table} has {total} rows, {view} {v['events']} events")


def summary_counts(path):
    rc, out, _ = run("summary", path)
    counts, on = {}, False
    for line in out.splitlines():
        if line.startswith("====="):
            on = True
            continue
        f = line.split()
        if on and len(f) == 3 and f[1].isdigit():
            # a table is all the types of one name (JFR 1.0's
            # com.oracle.jdk.X is table jdk.X; a producer may declare
            # several; SQL's names ignore case)
            name = f[0][11:] if f[0].startswith("com.oracle.jdk.") else f[0]
            counts[name.lower()] = counts.get(name.lower(), 0) + int(f[1])
    return counts


def counts_equal_summary(rec, folder=REC):
    path = os.path.join(folder, rec)
    want = summary_counts(path)
    tables = {r["name"] for r in sql_json(
        "SELECT name FROM sqlite_schema WHERE type = 'table'", path)["rows"]}
    check(len(tables) > 10 or folder != REC, f"{rec}: only {len(tables)} tables")
    query = " UNION ALL ".join(
        f"SELECT '{t}' AS type, count(*) AS n FROM \"{t}\"" for t in sorted(tables))
    got = {r["type"]: r["n"] for r in sql_json(query, path)["rows"]}
    for t in sorted(tables):
        check(got[t] == want.get(t.lower(), 0),
              f"{rec}: {t} has {got[t]} rows, summary says {want.get(t.lower(), 0)}")
    lower = {t.lower() for t in tables}
    missing = [t for t in want if t not in lower and want[t] and
               t not in ("jdk.metadata", "jdk.checkpoint")]
    check(not missing, f"{rec}: types of the summary with no table: {missing}")


def json_and_csv():
    path = os.path.join(REC, "cpu-jdk25.jfr")
    q = ('SELECT startTime, "sampledThread.javaName" AS thread, "stackTrace.topFrame" AS top, '
         '"stackTrace.frames" AS frames, chunk, file FROM ExecutionSample')
    j = sql_json(q, path)
    rows = j["rows"]
    check(len(rows) == 172, f"ExecutionSample: {len(rows)} rows, want 172")
    check(all(isinstance(r["startTime"], int) and r["startTime"] > 1.7e18 for r in rows),
          "startTime is not an integer of ns since the epoch")
    check(all(r["frames"].split("\n")[0] == r["top"] for r in rows if r["top"]),
          "the first line of stackTrace.frames is not stackTrace.topFrame")
    rc, out, err = run("sql", "--csv", q, path)
    check(rc == 0 and err == "", f"--csv: exit {rc}: {err}")
    check(out.endswith("\r\n"), "--csv lines do not end in CRLF")
    recs = list(csv.reader(io.StringIO(out, newline="")))
    check(recs[0] == j["columns"], f"--csv header {recs[0]} != {j['columns']}")
    as_text = [["" if r[c] is None else str(r[c]) for c in j["columns"]] for r in rows]
    check(recs[1:] == as_text, "--csv rows differ from --json rows")
    # a duration and a float: numbers, not text
    g = sql_json('SELECT duration, "jvmUser" FROM GCPhaseParallel, CPULoad LIMIT 1', path)
    r = g["rows"][0]
    check(isinstance(r["duration"], int) and isinstance(r["jvmUser"], float),
          f"duration/jvmUser types: {r}")


def percentile(values, p):
    v = sorted(values)
    pos = p / 100 * (len(v) - 1)
    lo = int(pos)
    return v[lo] + ((v[lo + 1] - v[lo]) * (pos - lo) if lo + 1 < len(v) else 0)


def aggregates():
    path = os.path.join(REC, "cpu-jdk25.jfr")
    rows = sql_json('SELECT duration AS d, name AS n FROM GCPhaseParallel', path)["rows"]
    d = [r["d"] for r in rows]
    names = list(dict.fromkeys(r["n"] for r in rows))
    got = sql_json("SELECT median(duration) AS med, percentile(duration, 90) AS p90, "
                   "percentile(duration, 99.9) AS p999, stdev(duration) AS sd, "
                   "first(duration) AS f, last(duration) AS l, list_distinct(name) AS names, "
                   "list_distinct(name, '|') AS names2 FROM GCPhaseParallel", path)["rows"][0]
    check(math.isclose(got["med"], statistics.median(d)), f"median {got['med']}")
    check(math.isclose(got["p90"], percentile(d, 90)), f"p90 {got['p90']}")
    check(math.isclose(got["p999"], percentile(d, 99.9)), f"p99.9 {got['p999']}")
    check(math.isclose(got["sd"], statistics.stdev(d)), f"stdev {got['sd']}")
    check(got["f"] == d[0] and got["l"] == d[-1], f"first/last {got['f']} {got['l']}")
    check(got["names"] == ", ".join(names), f"list_distinct {got['names']!r}")
    check(got["names2"] == "|".join(names), f"list_distinct sep {got['names2']!r}")
    rc, _, err = run("sql", "SELECT percentile(duration, 101) FROM GCPhaseParallel", path)
    check(rc == 1 and "percentile" in err, f"percentile 101: exit {rc}: {err}")
    # the JDK's FIRST and LAST keep a null value; first() and last() skip it
    got = sql_json("SELECT first(column2) AS f, last(column2) AS l, jdk_first(column2) AS jf, "
                   "jdk_last(column2) AS jl, jdk_first(column3) AS yf, "
                   "jdk_last(column3) AS yl FROM (SELECT * FROM (VALUES (1, NULL, NULL), "
                   "(2, 5, 7), (3, 6, 8), (4, NULL, 9)) ORDER BY column1)", path)["rows"][0]
    want = {"f": 5, "l": 6, "jf": None, "jl": None, "yf": None, "yl": 9}
    check(got == want, f"jdk_first/jdk_last over NULLs: {got}, want {want}")


def damaged():
    src = os.path.join(REC, "cpu-jdk25.jfr")
    data = open(src, "rb").read()
    tmp = tempfile.mkdtemp(prefix="jfr-sql.")
    try:
        for n in (30000, 200000, len(data) - 100):
            cut = os.path.join(tmp, f"cut-{n}.jfr")
            with open(cut, "wb") as f:
                f.write(data[:n])
            src_rc, _, src_err = run("summary", cut)
            rc, out, err = run("sql", "SELECT count(*) AS n FROM ExecutionSample", cut)
            check(rc == src_rc, f"cut at {n}: sql exit {rc}, summary {src_rc}")
            check(err.replace("jfrtool: sql: ", "jfrtool: summary: ") == src_err,
                  f"cut at {n}: sql warns\n{err}summary warns\n{src_err}")
            if rc == 0:
                n_sql = sql_json("SELECT count(*) AS n FROM ExecutionSample", cut)["rows"][0]["n"]
                want = summary_counts(cut).get("jdk.executionsample", 0)
                check(n_sql == want, f"cut at {n}: {n_sql} rows, summary {want}")
        rc, _, err = run("sql", "SELECT 1", os.path.join(tmp, "absent.jfr"))
        check(rc == 2 and err.startswith("jfrtool: "), f"absent file: exit {rc}: {err}")
        rc, _, err = run("sql", "SELEC 1", src)
        check(rc == 1 and err.startswith("jfrtool: sql: "), f"SQL error: exit {rc}: {err}")
        if os.path.exists("/dev/full"):
            with open("/dev/full", "w") as full:
                p = subprocess.run([JFRTOOL, "sql", "SELECT 1", src], stdout=full,
                                   stderr=subprocess.PIPE)
            check(p.returncode == 2 and b"write error" in p.stderr,
                  f"output to /dev/full: exit {p.returncode}: {p.stderr!r}")
        # every column of every table of every damaged file: warnings, no crash
        files = [os.path.join(tmp, f) for f in sorted(os.listdir(tmp))]
        corrupt = os.path.join(DATA, "corrupt")
        files += [os.path.join(corrupt, f) for f in sorted(os.listdir(corrupt))
                  if f.endswith(".jfr")]
        select_everything(files)
    finally:
        shutil.rmtree(tmp)


def select_everything(files):
    """Every column of every table of each file: exit 0-2, no SQL error."""
    if True:
        for f in files:
            rc, out, _ = run("sql", "--json", "SELECT name FROM sqlite_schema "
                             "WHERE type = 'table'", f)
            check(0 <= rc <= 2, f"{f}: listing tables exited with {rc}")
            if rc != 0 or not out:
                continue
            tables = [r["name"] for r in json.loads(out)["rows"]]
            q = "; ".join(f'SELECT * FROM "{t}"' for t in tables) or "SELECT 1"
            rc, _, err = run("sql", "--csv", q, f)
            # warnings name the file; an SQL error would not
            check(0 <= rc <= 2 and all(f in line for line in err.splitlines()),
                  f"{f}: SELECT * over every table exited with {rc}: {err[-300:]}")


def synthetic():
    """The robustness tests' synthetic recordings (tests/robust/jfrmake):
    every cell of every table; counts; names that differ only by case."""
    jfrmake = os.environ.get("JFRMAKE", "")
    if not os.access(jfrmake, os.X_OK):
        print("note: no JFRMAKE: synthetic recordings skipped")
        return
    tmp = tempfile.mkdtemp(prefix="jfr-sql.")
    try:
        names = subprocess.run([jfrmake, "--list"], capture_output=True, text=True,
                               check=True).stdout.split()
        for n in names:
            subprocess.run([jfrmake, n, os.path.join(tmp, n + ".jfr")], check=True)
        select_everything([os.path.join(tmp, n + ".jfr") for n in names])
        for n in ("mini", "mini-2chunks", "odd-names"):
            counts_equal_summary(n + ".jfr", tmp)
        # test.Odd and test.odd are one table; "Value" is "value" to SQL,
        # so only the first has a column; the field "chunk" is the file's
        odd = os.path.join(tmp, "odd-names.jfr")
        j = sql_json('SELECT * FROM "test.Odd" ORDER BY startTime', odd)
        check(j["columns"] == ["startTime", "value", "chunk", 'a"b', "file", "offset", "endTime"],
              f"odd-names columns: {j['columns']}")
        check([(r["value"], r["chunk"]) for r in j["rows"]] == [(0, 7), (1, 7)],
              f"odd-names rows: {j['rows']}")
        rc, _, err = run("sql", "SELECT * FROM Odd", odd)
        check(rc == 1 and "no such table: Odd" in err, f"ambiguous short name: {rc} {err}")
    finally:
        shutil.rmtree(tmp)


def deprecated_callers(folder):
    """deprecated-methods-for-removal's second column is the JDK's
    SET(stackTrace.topFrame.method.type): the calling classes, each once.
    Its JDK 25 output (testdata/jdk/corpus, views.tsv mode `sql`) prints
    them one a line, a line longer than the column as the class's simple
    name, the lines sorted: the same lines made from the view's cells."""
    name = "otelbridge-recording"
    ref = os.path.join(DATA, "jdk", "corpus", f"{name}.view-deprecated-methods-for-removal.txt")
    with open(ref, encoding="utf-8") as f:
        lines = f.read().splitlines()
    dash = next(i for i, line in enumerate(lines) if line.startswith("---"))
    width = len(lines[dash].split(" ")[0])
    want, cur = [], None
    for line in lines[dash + 1:]:
        if not line.strip():
            continue
        if line[:width].strip():
            cur = []
            want.append(cur)
        cur.append(line[width + 1:].rstrip())
    rows = sql_json('SELECT * FROM "view:deprecated-methods-for-removal"',
                    os.path.join(folder, name + ".jfr"))["rows"]
    got = [sorted(c if len(c) <= width else c[c.rfind(".") + 1:]
                  for c in r["Called from Class"].split("\n")) for r in rows]
    check(got == want, f"{name}: deprecated-methods-for-removal callers {got} != JDK's {want}")


def corpus():
    """The shared public corpus (third-party producers, old JDKs, damaged
    files), when it is there: counts equal the summary's, the views' rows
    equal the GROUP BY's, every cell of every table reads without a crash."""
    shared = os.environ.get("JFR_SHARED", os.path.join(DATA, "..", "..", "shared"))
    folder = os.path.join(shared, "corpus", "public")
    if not os.path.isfile(os.path.join(folder, "MANIFEST.tsv")):
        print(f"note: no corpus at {folder}: corpus checks skipped")
        return
    files = sorted(f for f in os.listdir(folder) if ".jfr" in f)
    for f in files:
        rc, _, _ = run("summary", os.path.join(folder, f))
        if rc != 0:
            continue
        counts_equal_summary(f, folder)
        top_frames_equal_view(f, "hot-methods", '"jdk.ExecutionSample"', folder)
    select_everything([os.path.join(folder, f) for f in files])
    deprecated_callers(folder)


def event_types_table():
    """jfr_event_types names the event types of the JDK's `jfr metadata`
    (testdata/jdk), and every setting's id is one of them."""
    meta = os.path.join(DATA, "jdk", "cpu-jdk25.jfr.metadata.txt")
    want, name, label = {}, None, None
    with open(meta, encoding="utf-8") as f:
        for line in f:
            if line.startswith("@Name("):
                name, label = line[7:-3], None
            elif line.startswith("@Label(") and name:
                label = line[8:-3]
            elif line.startswith("class ") and "extends jdk.jfr.Event" in line and name:
                want[name] = label
    rows = sql_json("SELECT id, name, label FROM jfr_event_types",
                    os.path.join(REC, "cpu-jdk25.jfr"))["rows"]
    got = {r["name"]: r["label"] for r in rows}
    check(got == want, f"jfr_event_types: {len(got)} types, the JDK's metadata "
          f"{len(want)}; differing: {sorted(set(got.items()) ^ set(want.items()))[:5]}")
    check(len({r["id"] for r in rows}) == len(rows), "jfr_event_types: an id twice")
    unnamed = sql_json("SELECT count(*) AS n FROM ActiveSetting AS s LEFT JOIN "
                       "jfr_event_types AS t ON t.id = s.id WHERE t.id IS NULL",
                       os.path.join(REC, "cpu-jdk25.jfr"))["rows"][0]["n"]
    check(unnamed == 0, f"{unnamed} settings name no event type")
    throttled = sql_json("SELECT t.name FROM ActiveSetting AS s JOIN jfr_event_types "
                         "AS t ON t.id = s.id WHERE s.name = 'throttle' ORDER BY 1",
                         os.path.join(REC, "cpu-jdk25.jfr"))["rows"]
    check("jdk.CPUTimeSample" in [r["name"] for r in throttled],
          f"throttle settings are for {throttled}, not jdk.CPUTimeSample")


def end_times():
    """endTime is startTime + duration where the type has a duration
    (within the nanosecond that converting ticks once or twice may round
    away), startTime where it has none (JDK 25's ActiveSetting), and the
    tables' order is its order within each chunk (JFR_ITER_BY_END_TIME)."""
    for rec, table in (("cpu-jdk25.jfr", "GarbageCollection"), ("cpu-jdk17.jfr", "ThreadPark"),
                       ("multi-jdk25.jfr", '"jdk.ExecutionSample"'),
                       ("cpu-jdk17.jfr", "ActiveSetting")):
        path = os.path.join(REC, rec)
        cols = [r["name"] for r in sql_json(f"SELECT name FROM pragma_table_info('{table.strip(chr(34))}')",
                                            path)["rows"]]
        dur = "duration" if "duration" in cols else "0"
        rows = sql_json(f"SELECT chunk AS c, startTime + {dur} AS want, endTime AS e FROM {table}",
                        path)["rows"]
        check(rows, f"{rec} {table}: no rows")
        bad = [r for r in rows if abs(r["e"] - r["want"]) > 1]
        check(not bad, f"{rec} {table}: endTime is not startTime + {dur}: {bad[:3]}")
        back = [(a, b) for a, b in zip(rows, rows[1:]) if a["c"] == b["c"] and b["e"] < a["e"]]
        check(not back, f"{rec} {table}: rows not in endTime order: {back[:2]}")
    path = os.path.join(REC, "cpu-jdk25.jfr")
    cols = [r["name"] for r in sql_json("SELECT name FROM pragma_table_info('ActiveSetting')",
                                        path)["rows"]]
    check("duration" not in cols and "endTime" in cols,
          f"cpu-jdk25.jfr ActiveSetting columns: {cols}")
    rows = sql_json("SELECT count(*) AS n FROM ActiveSetting WHERE endTime <> startTime", path)
    check(rows["rows"][0]["n"] == 0, "cpu-jdk25.jfr ActiveSetting: endTime is not startTime")


def main():
    rc, _, _ = run("sql", "--help")
    if rc != 0:
        print("SKIP: jfrtool was built without SQLite (no `jfrtool sql`)")
        return 77
    top_frames_equal_view("cpu-jdk25.jfr", "cpu-time-hot-methods", "CPUTimeSample")
    top_frames_equal_view("cpu-jdk25.jfr", "hot-methods", "ExecutionSample")
    top_frames_equal_view("multi-jdk25.jfr", "hot-methods", '"jdk.ExecutionSample"')
    top_frames_equal_view("cpu-jdk17.jfr", "hot-methods", "ExecutionSample")
    for rec in ("cpu-jdk25.jfr", "multi-jdk25.jfr", "concat-17-25.jfr", "cpu-jdk17.jfr",
                "cpu-jdk25.jfr.gz", "io-jdk25.jfr", "unfinished-jdk25.jfr"):
        counts_equal_summary(rec)
    json_and_csv()
    event_types_table()
    aggregates()
    end_times()
    damaged()
    synthetic()
    corpus()
    if failures:
        print(f"FAIL: {len(failures)} of {CHECKS.count} checks")
        return 1
    print(f"PASS: {CHECKS.count} checks of jfrtool sql")
    return 0


if __name__ == "__main__":
    sys.exit(main())
