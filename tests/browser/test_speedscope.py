#!/usr/bin/env python3
"""Our speedscope files in speedscope's own viewer, and speedscope's .jfr import.

  test_speedscope.py [--jfrtool PATH] [--testdata DIR] [--speedscope DIR]

speedscope (the npm registry's `speedscope` package, a test dependency that
tools/deps-debian.sh --tests installs into ~/.cache/jfrtool-tests/speedscope;
--speedscope or $SPEEDSCOPE_DIR name another node_modules/speedscope) is
served from 127.0.0.1 by this script and opened in headless Chromium
(ChromeDriver, standard library only) with #profileURL=. For each test
recording below:

  - `jfrtool folded --format speedscope --event exec` (and `flame --format
    speedscope --event wall`) loads without an import error, shows one
    profile per thread (named "NAME tid=N", as `folded --threads` names
    them) and each profile's total (what speedscope's own Export writes)
    equals that thread's total in `folded --threads`;
  - speedscope's own .jfr import (its WebAssembly parser) of the same file:
    it has no threads (two profiles, "Without native calls" and "With
    native calls", all threads merged), so the comparison is of sums: its
    first total equals our exec total over all threads and its second our
    wall total (exec + native). A recording its parser cannot read is
    reported as such (a "#" line), not failed: that is speedscope's limit.

Prints TAP-like lines and "N passed, N failed"; exit 77 when chromium,
chromedriver or the speedscope package is missing.
"""
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from webdriver import require_browser, require_jfrtool, run_in_tmp, tool_arguments, Tap  # noqa: E402

OVERALL_TIMEOUT = 240
RECORDINGS = ["report/seeded-jdk25.jfr", "recordings/cpu-jdk17.jfr", "recordings/io-jdk25.jfr",
              "recordings/cpu-jdk25.jfr"]


def speedscope_dir(arg):
    cands = [arg, os.environ.get("SPEEDSCOPE_DIR"),
             os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
                          "jfrtool-tests", "speedscope", "node_modules", "speedscope")]
    for c in cands:
        if c and os.path.isfile(os.path.join(c, "dist", "release", "index.html")):
            return c
    return None


def thread_totals(jfrtool, rec, kind):
    """folded --threads: the total of every thread root, "NAME tid=N" -> weight."""
    out = subprocess.run([jfrtool, "folded", "--threads", "--event", kind, rec], capture_output=True,
                         text=True).stdout
    totals = {}
    for line in out.splitlines():
        stack, w = line.rsplit(" ", 1)
        root = stack.split(";", 1)[0]  # "[thread_NAME_tid=N]": spaces made '_'
        name = root[len("[thread_"):-1] if root.startswith("[thread_") else root
        totals[name] = totals.get(name, 0) + int(w)
    return totals


def folded_names(totals):
    """Profile names as folded writes them (spaces made '_')."""
    return {k.replace(" ", "_"): v for k, v in totals.items()}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def load(wd, base, name):
    """Open speedscope on /NAME; speedscope's Export of what it shows, or the error it shows."""
    wd.call("POST", "/url", {"url": "%s/release/index.html?%s#profileURL=/%s" % (base, name, name)}, timeout=45)
    state = wd.wait_for("const t = document.body.innerText;"
                        "return t.includes('Something went wrong') ? 'error' : t.includes('Export') ? 'ok' : null;")
    logs = [e.get("message", "") for e in (wd.call("POST", "/se/log", {"type": "browser"}) or [])]
    if state != "ok":
        return None, [m for m in logs if "Failed" in m or "rror" in m] or [state]
    # Export hands a Blob to URL.createObjectURL: keep it and read it
    wd.js("window.__blobs = []; const o = URL.createObjectURL;"
          "URL.createObjectURL = (b) => { window.__blobs.push(b); return o.call(URL, b); };"
          "const b = Array.from(document.querySelectorAll('div')).filter((e) => e.children.length <= 2"
          " && e.textContent.trim().endsWith('Export')).pop(); b.click();"
          "window.__blobs[0].text().then((t) => { window.__exported = t; });")
    text = wd.wait_for("return window.__exported;")
    errs = [m for m in logs if " SEVERE " in m or "Failed" in m]
    return (json.loads(text) if text else None), errs


def totals_of(exported):
    return {p["name"]: p["endValue"] - p["startValue"] for p in exported["profiles"]}


def check(wd, t, args, base, root, rec):
    name = os.path.basename(rec)
    for cmd, kind in (("folded", "exec"), ("flame", "wall")):
        ours = os.path.join(root, "%s-%s.json" % (name, kind))
        p = subprocess.run([args.jfrtool, cmd, "--format", "speedscope", "--event", kind, "-o", ours, rec],
                           capture_output=True, text=True)
        if p.returncode != 0:
            t.check("no " in p.stderr and "samples selected" in p.stderr, "%s: %s --event %s" % (name, cmd, kind),
                    p.stderr[:200])
            continue
        exported, errs = load(wd, base, os.path.basename(ours))
        if not t.check(exported is not None and not errs, "%s: speedscope loads %s --format speedscope --event %s"
                       % (name, cmd, kind), repr(errs)[:300]):
            continue
        want = thread_totals(args.jfrtool, rec, kind)
        got = folded_names(totals_of(exported))
        t.check(got == want, "%s: a profile per thread, totals as folded --threads --event %s (%d threads)"
                % (name, kind, len(want)), "speedscope %s, folded %s" % (got, want))
    # speedscope's own import of the recording
    shutil.copy(rec, os.path.join(root, name))
    exported, errs = load(wd, base, name)
    if exported is None:
        print("# %s: speedscope's own .jfr import fails: %s" % (name, "; ".join(errs)[:300]))
        return
    got = totals_of(exported)
    exec_total = sum(thread_totals(args.jfrtool, rec, "exec").values())
    wall_total = sum(thread_totals(args.jfrtool, rec, "wall").values())
    t.check(got.get("Without native calls") == exec_total and got.get("With native calls") == wall_total,
            "%s: speedscope's .jfr import totals equal our exec and wall totals (%d, %d)"
            % (name, exec_total, wall_total), "speedscope %s" % got)


def run(args, t, wd, tmp, holder):
    ss = speedscope_dir(args.speedscope)
    root = os.path.join(tmp, "www")
    os.makedirs(root)
    os.symlink(os.path.join(ss, "dist", "release"), os.path.join(root, "release"))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    holder.append(srv)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d" % srv.server_address[1]
    with open(os.path.join(ss, "package.json")) as f:
        print("# speedscope %s from %s" % (json.load(f).get("version"), ss))
    for rec in RECORDINGS:
        check(wd, t, args, base, root, os.path.join(args.testdata, rec))


def main():
    ap = tool_arguments(__doc__)
    ap.add_argument("--speedscope", default=None, help="the node_modules/speedscope directory")
    args = ap.parse_args()
    chromium, driver = require_browser()
    if not speedscope_dir(args.speedscope):
        print("SKIP: the speedscope npm package is not installed (tools/deps-debian.sh --tests puts it in"
              " ~/.cache/jfrtool-tests/speedscope; or set SPEEDSCOPE_DIR)")
        sys.exit(77)
    require_jfrtool(args.jfrtool)
    t = Tap()
    servers = []
    try:
        run_in_tmp(t, chromium, driver, OVERALL_TIMEOUT, "speedscope-test-",
                   lambda wd, tmp: run(args, t, wd, tmp, servers))
    finally:
        for srv in servers:
            srv.shutdown()


if __name__ == "__main__":
    main()
