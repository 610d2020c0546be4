"""The SQL side of the package: recordings as the tables of the jfrsql
SQLite extension (doc/sql.md), loaded into Python's own sqlite3 module,
the rules that run on them (doc/report.md, "Rules") and the views of
`jfrtool view` as SQL views (doc/sql.md, "Views").

Where the extension comes from, first match wins:

1. the environment variable JFRSQL_EXT (a path to jfrsql.so, with or
   without its suffix);
2. the build tree: ../../sql/.libs/jfrsql.so next to this package;
3. the pkglibdir configured at install time (jfr/_installed.py).
"""

import json
import os
import sqlite3
import tempfile


def extension_path():
    """The jfrsql extension to load, or None when none is found."""
    env = os.environ.get("JFRSQL_EXT")
    candidates = []
    if env:
        candidates += [env, env + ".so"]
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(here, "..", "..", "sql", ".libs", "jfrsql.so"))
    try:
        from . import _installed  # written by make

        candidates.append(os.path.join(getattr(_installed, "PKGLIBDIR", ""), "jfrsql.so"))
    except ImportError:
        pass
    for path in candidates:
        if os.path.isfile(path):
            return path
    return None


def connect():
    """A new in-memory connection with the extension loaded."""
    path = extension_path()
    if path is None:
        raise RuntimeError("jfr: the jfrsql SQLite extension was not found (built when "
                           "configure finds SQLite); set JFRSQL_EXT to its path")
    conn = sqlite3.connect(":memory:")
    if not hasattr(conn, "enable_load_extension"):
        conn.close()
        raise RuntimeError("jfr: this Python's sqlite3 module cannot load extensions "
                           "(Debian's /usr/bin/python3 can; pyenv's default builds "
                           "cannot)")
    conn.enable_load_extension(True)
    try:
        conn.load_extension(path)
    finally:
        conn.enable_load_extension(False)
    return conn


class Attached:
    """A connection with `paths` attached (jfr_attach; with `lazy`,
    jfr_attach_lazy: no table of an event type until make_tables names
    it); bytes sources are written to temporary files first, removed at
    close()."""

    def __init__(self, sources, lazy=False):
        self._tmp = []
        paths = []
        for src in sources:
            if isinstance(src, (bytes, bytearray, memoryview)):
                f = tempfile.NamedTemporaryFile(prefix="jfr-", suffix=".jfr", delete=False)
                with f:
                    f.write(src)
                self._tmp.append(f.name)
                paths.append(f.name)
            else:
                paths.append(os.fsdecode(src))
        self.conn = connect()
        try:
            self.conn.execute("SELECT %s(%s)" % ("jfr_attach_lazy" if lazy else "jfr_attach",
                                                 ", ".join("?" * len(paths))),
                              paths).fetchone()
        except sqlite3.Error:
            self.close()
            raise

    def make_tables(self, *texts):
        """Make the tables of the event types that `texts` (SQL, type
        names) name, on a lazy connection."""
        text = " ".join(t for t in texts if t)
        if text:
            self.conn.execute("SELECT jfr_make_tables(?)", (text,)).fetchone()

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None
        for name in self._tmp:
            try:
                os.remove(name)
            except OSError:
                pass
        self._tmp = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


FINDING_COLUMNS = ("id", "rule", "severity", "title", "evidence", "value", "threshold",
                   "at", "subject", "link", "source")


def findings(sources, rule_texts):
    """Every rule of jfr_rules (the built-in ones, then each (text, name)
    of rule_texts) over `sources` read as one recording: the rows of
    jfr_findings as dicts, in order. sqlite3.Error says what is wrong."""
    with Attached(sources) as db:
        for text, name in rule_texts:
            db.conn.execute("SELECT jfr_load_rules(?, ?)", (text, name)).fetchone()
        db.conn.execute("SELECT jfr_check()").fetchone()
        rows = db.conn.execute("SELECT %s FROM jfr_findings ORDER BY rowid" %
                               ", ".join(FINDING_COLUMNS)).fetchall()
    return [{("at_nanos" if k == "at" else k): v for k, v in zip(FINDING_COLUMNS, row)}
            for row in rows]


def query(sources, sql, params=()):
    """The rows of `sql` (one statement) over `sources` read as one
    recording: (column names, rows as tuples)."""
    with Attached(sources) as db:
        cur = db.conn.execute(sql, params)
        names = [d[0] for d in cur.description] if cur.description else []
        return names, cur.fetchall()


def type_view(db, name):
    """The view of event type `name` as `jfrtool view TYPE` shows it, from
    the extension's jfr_type_view(): (its name, title and form as a dict,
    its columns as dicts, rows as tuples). KeyError: no such event type."""
    found = db.conn.execute("SELECT jfr_type_view(?)", (name,)).fetchone()[0]
    if found is None:
        raise KeyError(name)
    info = json.loads(found)
    db.make_tables(info["values_sql"])
    rows = db.conn.execute(info["values_sql"]).fetchall()
    return dict(info, form=0), info["columns"], rows


def view(sources, name):
    """View `name` of `jfrtool view` over `sources`, a view of the list or
    an event type: (its jfr_views row as a dict, its columns as dicts of
    jfr_view_columns, rows as tuples). A name that is neither raises
    KeyError; a view without SQL, ValueError."""
    with Attached(sources, lazy=True) as db:
        cur = db.conn.execute("SELECT * FROM jfr_views WHERE name = ?", (name,))
        found = cur.fetchone()
        if found is None:
            return type_view(db, name)
        info = dict(zip([d[0] for d in cur.description], found))
        if info["query"] is None:
            raise ValueError("jfr: view %s is computed by jfrtool's own code (%s), not "
                             "by SQL" % (name, info["fast_path"]))
        cur = db.conn.execute("SELECT * FROM jfr_view_columns WHERE view = ? "
                              "ORDER BY position", (name,))
        cols = [dict(zip([d[0] for d in cur.description], r)) for r in cur.fetchall()]
        db.make_tables(info["types"], info["query"])
        rows = db.conn.execute('SELECT * FROM "view:%s"' % name.replace('"', '""')).fetchall()
    return info, cols, rows


def view_text(sources, name):
    """View `name` (or an event type's view) over `sources` as `jfrtool
    view` writes it, from the extension's jfr_view_text(): a dict with the
    view's name, title, form, the JDK's state ("rows", "missing-type",
    "no-events", "missing-field") and what is missing, its columns
    (label, key, unit, right) and its rows as lists of texts. KeyError: no
    such view or event type; ValueError: a view without SQL."""
    with Attached(sources, lazy=True) as db:
        listed = db.conn.execute("SELECT query IS NULL, fast_path FROM jfr_views "
                                 "WHERE name = ?", (name,)).fetchone()
        if listed and listed[0]:
            raise ValueError("jfr: view %s is computed by jfrtool's own code (%s), not "
                             "by SQL" % (name, listed[1]))
        found = db.conn.execute("SELECT jfr_view_text(?)", (name,)).fetchone()[0]
    if found is None:
        raise KeyError(name)
    return json.loads(found)
