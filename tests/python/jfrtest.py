"""Shared by tests/python: the interpreter with cffi, skips, recordings.

setup() re-runs the test under $JFR_PYTHON (configure's Python, the one
that imports cffi) when the interpreter on PATH cannot import cffi, and
skips (exit 77, saying why) without cffi, without a shared libjfr (a
--disable-shared build) and in sanitizer builds, where an instrumented
libjfr.so cannot be loaded into an uninstrumented interpreter.
"""

import glob
import os
import subprocess
import sys

SKIP = 77


def skip(why):
    print("SKIP: %s" % why)
    sys.exit(SKIP)


def fail(why):
    print("FAIL: %s" % why)
    sys.exit(1)


def _missing(dask):
    import importlib.util

    mods = ["cffi"] + (["distributed"] if dask else [])
    return [m for m in mods if importlib.util.find_spec(m) is None]


def setup(dask=False):
    missing = _missing(dask)
    if missing:
        alt = os.environ.get("JFR_PYTHON", "")
        if alt and alt != ":" and not os.environ.get("JFR_TEST_REEXEC"):
            os.environ["JFR_TEST_REEXEC"] = "1"
            try:
                os.execvp(alt, [alt] + sys.argv)
            except OSError:
                pass
        if "cffi" in missing:
            skip("python3-cffi is not installed (configure's Python: %s)" % (alt or "none"))
        skip("python3-distributed (Dask) is not installed (configure's Python: %s)"
             % (alt or "none"))
    if os.environ.get("JFR_SANITIZERS", "").strip():
        skip("sanitizer build: libjfr.so cannot be loaded into an uninstrumented Python")
    lib = os.environ.get("JFR_LIBRARY")
    if lib and not os.path.exists(lib):
        skip("no shared libjfr (%s): built with --disable-shared?" % lib)
    try:
        import jfr
    except (ImportError, OSError) as e:
        skip("the jfr package cannot load libjfr: %s" % e)
    return jfr


def setup_sql():
    """setup() for the tests of jfr's SQL (views, sql(), findings): the
    package and its jfr._sql module, or a skip saying why not. The
    interpreter on PATH may have cffi but a sqlite3 that cannot load
    extensions (pyenv's default builds): configure's Python ($JFR_PYTHON)
    then runs the test instead."""
    import sqlite3
    if not hasattr(sqlite3.connect(":memory:"), "enable_load_extension"):
        alt = os.environ.get("JFR_PYTHON", "")
        if alt and alt != ":" and not os.environ.get("JFR_TEST_REEXEC_SQL"):
            os.environ["JFR_TEST_REEXEC_SQL"] = "1"
            os.execvp(alt, [alt] + sys.argv)
        skip("no python3 whose sqlite3 module can load extensions")
    jfr = setup()
    from jfr import _sql
    ext = _sql.extension_path()
    if ext is None:
        skip("the jfrsql extension was not built (no SQLite, or --disable-shared)")
    if subprocess.run(["nm", "-D", "--undefined-only", ext], capture_output=True,
                      text=True).stdout.find("__asan_") >= 0:
        skip("the jfrsql extension is built with sanitizers")
    return jfr, _sql


def jfrtool():
    tool = os.environ.get("JFRTOOL")
    if not tool or not os.path.exists(tool):
        skip("jfrtool is not built")
    return tool


def run(*args, check=True):
    p = subprocess.run([jfrtool()] + [str(a) for a in args], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        fail("jfrtool %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode,
                                          p.stderr.decode(errors="replace")))
    return p


def testdata():
    d = os.environ.get("JFR_TESTDATA")
    if not d:
        d = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "testdata")
    return d


def recordings(shared=True):
    """testdata/recordings/*.jfr (and the compressed ones), then
    ../shared/recordings/*.jfr when that directory exists."""
    files = sorted(glob.glob(os.path.join(testdata(), "recordings", "*.jfr*")))
    files = [f for f in files if not f.endswith(".jfc")]
    if shared:
        sh = os.environ.get("JFR_SHARED") or os.path.join(testdata(), "..", "..", "shared")
        extra = sorted(glob.glob(os.path.join(sh, "recordings", "*.jfr")))
        if extra:
            files += extra
        else:
            print("note: no %s/recordings: shared recordings not compared" % sh)
    return files


def parse_folded(text):
    out = {}
    for line in text.decode("utf-8", "surrogateescape").splitlines():
        stack, _, w = line.rpartition(" ")
        out[stack] = out.get(stack, 0) + int(w)
    return out
