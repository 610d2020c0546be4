#!/usr/bin/env python3
"""make check: the views as SQL (doc/sql.md, "Views"). jfr_views lists
every view of `jfrtool view --help` in its order and jfr_view_columns their
columns; on every test recording, SELECT * FROM "view:NAME" gives the rows
of `jfrtool view --json NAME` (the definition, `--generic`, for the views
that also have a hand-made path) for each view with SQL, through Python's
sqlite3 and the jfrsql extension when it loads; a few views and a view
over a type the recording lacks through jfrtool sql; and the sqlite3 shell
when it is there. Our view cpu-time-by-thread against the samples per
thread counted from `jfrtool print --json`.

Skipped (77) when jfrtool was built without SQLite.
Environment (set by make check): JFRTOOL, JFR_TESTDATA, JFRSQL_EXT.
"""
import glob
import json
import math
import os
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import checks  # noqa: E402
from checks import Checks  # noqa: E402

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = os.environ.get("JFR_TESTDATA", "testdata")
EXT = os.environ.get("JFRSQL_EXT", "")
CHECKS = Checks()
failures = CHECKS.failures
check = CHECKS.check


def run(*args):
    p = subprocess.run([JFRTOOL, *args], capture_output=True,
                       env=dict(os.environ, LC_ALL="C", TZ="UTC"))
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def same_value(a, b, fmt):
    """Whether jfrtool view's `a` and SQL's `b` are the same value."""
    return checks.same_value(a, b, fmt, abs_tol=1e-12)


def json_docs(text):
    """The JSON objects of all-views --json, one after the other."""
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        doc, i = dec.raw_decode(text, i)
        out.append(doc)


def view_rows(doc, labels):
    return [[row.get(label) for label in labels] for row in doc["rows"]]


def compare(rec, name, doc, got, cols):
    labels = [c[0] for c in cols]
    if doc.get("declared") is False or "missingField" in doc:
        check(isinstance(got, Exception), f"{rec}: {name}: the view finds no type or field, "
              f"SQL gave {got!r:.80}")
        return
    if isinstance(got, Exception):
        check(False, f"{rec}: {name}: SQL failed: {got}")
        return
    want = view_rows(doc, labels)
    ok = len(want) == len(got) and all(
        same_value(a, b, c[1]) for w, g in zip(want, got) for a, b, c in zip(w, g, cols))
    check(ok, f"{rec}: {name}: SQL rows {got[:2]!r:.200} differ from jfrtool view's "
          f"{want[:2]!r:.200} ({len(got)}/{len(want)} rows)")


def check_cpu_time_by_thread():
    """Our view cpu-time-by-thread against samples counted per thread from
    `jfrtool print --json` (the event decoder, not SQL)."""
    for name in ("cpu-jdk25.jfr", "io-jdk25.jfr", "concat-17-25.jfr"):
        rec = os.path.join(DATA, "recordings", name)
        rc, out, err = run("print", "--json", "--events", "jdk.CPUTimeSample", rec)
        counts = {}
        for ev in json.loads(out)["recording"]["events"]:
            t = ev["values"].get("eventThread") or {}
            key = (t.get("javaName") or t.get("osName") or "N/A", t.get("javaThreadId"),
                   t.get("osThreadId"))
            counts[key] = counts.get(key, 0) + 1
        total = sum(counts.values())
        want = sorted(((k[0], n) for k, n in counts.items()), key=lambda r: (-r[1], r[0]))[:25]
        rc, out, err = run("view", "--json", "cpu-time-by-thread", rec)
        rows = json.loads(out)["rows"]
        got = [(r["Thread"], r["Samples"]) for r in rows]
        check(total > 0 and got == want, f"{name}: cpu-time-by-thread {got[:3]} / {want[:3]}")
        check(all(math.isclose(r["Percent"], 100.0 * r["Samples"] / total, rel_tol=1e-12)
                  for r in rows), f"{name}: cpu-time-by-thread shares")


def main():
    rc, out, err = run("sql", "--json",
                       "SELECT name, query IS NOT NULL AS q, fast_path, jdk FROM jfr_views",
                       os.path.join(DATA, "recordings", "cpu-jdk25.jfr"))
    if rc != 0 and "sql" in err and "unknown" in err:
        print("SKIP: jfrtool was built without SQLite")
        return 77
    check(rc == 0, f"jfr_views: exit {rc}: {err}")
    listed = [r["name"] for r in json.loads(out)["rows"]]
    rc, helptext, _ = run("view", "--help")
    helped = [line.split()[0] for line in helptext.split("\nViews:\n", 1)[1].splitlines()
              if line.startswith("  ")]
    check(listed == helped, f"jfr_views and view --help list other views: {listed[:5]} {helped[:5]}")
    with_sql = [r["name"] for r in json.loads(out)["rows"] if r["q"]]
    twins = [r["name"] for r in json.loads(out)["rows"] if r["q"] and r["fast_path"]]
    ours = [r["name"] for r in json.loads(out)["rows"] if not r["jdk"]]
    check(len(with_sql) >= 70, f"only {len(with_sql)} views with SQL")

    # jfrtool sql: a view, its columns and units, a view over a missing type
    rec = os.path.join(DATA, "recordings", "cpu-jdk25.jfr")
    rc, out, err = run("sql", "--json", 'SELECT * FROM "view:gc-pauses"', rec)
    rc2, vout, _ = run("view", "--json", "gc-pauses", rec)
    check(rc == 0 and json.loads(out)["rows"] == json.loads(vout)["rows"],
          f"jfrtool sql view:gc-pauses differs from view --json gc-pauses: {out:.200}")
    rc, out, err = run("sql", "--csv", "SELECT label, unit FROM jfr_view_columns "
                       "WHERE view = 'gc-pauses' ORDER BY position LIMIT 2", rec)
    check(out.replace("\r", "") == "label,unit\nTotal Pause Time,ns\nNumber of Pauses,\n",
          f"jfr_view_columns of gc-pauses: {out!r}")
    rc, out, err = run("sql", 'SELECT * FROM "view:cpu-time-hot-methods"',
                       os.path.join(DATA, "recordings", "cpu-jdk17.jfr"))
    check(rc == 1 and "no such table: CPUTimeSample" in err,
          f"a view over a type the recording lacks: exit {rc}, {err!r}")

    check_cpu_time_by_thread()

    if not EXT or not os.path.exists(EXT + ".so"):
        print("SKIP (part): the jfrsql extension was not built")
        return finish()
    import sqlite3
    if not hasattr(sqlite3.connect(":memory:"), "enable_load_extension"):
        # as check-python-extension.sh: another python3 may load it
        other = "/usr/bin/python3"
        if os.path.exists(other) and not os.environ.get("JFR_VIEWS_OTHER_PYTHON"):
            os.environ["JFR_VIEWS_OTHER_PYTHON"] = "1"
            os.execv(other, [other, *sys.argv])
        print("SKIP (part): no python3 whose sqlite3 can load extensions")
        return finish()
    recs = sorted(glob.glob(os.path.join(DATA, "recordings", "*.jfr")))
    for rec in recs:
        conn = sqlite3.connect(":memory:")
        conn.enable_load_extension(True)
        conn.load_extension(EXT)
        conn.execute("SELECT jfr_attach(?)", (rec,))
        cols = {}
        for view, label, fmt in conn.execute(
                "SELECT view, label, format FROM jfr_view_columns ORDER BY view, position"):
            cols.setdefault(view, []).append((label, fmt))
        rc, out, err = run("view", "--json", "all-views", rec)
        docs = {d["view"]: d for d in json_docs(out)}
        for name in twins:
            rc, out, err = run("view", "--json", "--generic", name, rec)
            docs[name] = json.loads(out)
        for name in with_sql:
            try:
                got = [list(r) for r in conn.execute(f'SELECT * FROM "view:{name}"')]
            except sqlite3.Error as e:
                got = e
            if name not in docs and name in ours:
                docs[name] = json.loads(run("view", "--json", name, rec)[1])
            if name not in docs:
                check(False, f"{rec}: {name}: not in all-views --json")
                continue
            compare(os.path.basename(rec), name, docs[name], got, cols[name])
        conn.close()
    if shutil.which("sqlite3"):
        p = subprocess.run(["sqlite3", "-batch", "-csv", ":memory:", f".load {EXT}",
                            f"SELECT jfr_attach('{recs[0]}') > 0;",
                            'SELECT count(*) FROM jfr_views;',
                            'SELECT Method FROM "view:hot-methods" LIMIT 1;'],
                           capture_output=True, text=True)
        rc, out, _ = run("sql", "--csv", 'SELECT Method FROM "view:hot-methods" LIMIT 1',
                         recs[0])
        want = f"1\n{len(listed)}\n" + out.replace("\r", "").split("\n", 1)[1]
        check(p.stdout == want, f"the sqlite3 shell: {p.stdout!r} {p.stderr!r}, want {want!r}")
    return finish()


def finish():
    print(f"{CHECKS.count} checks, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
