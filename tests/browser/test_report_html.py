#!/usr/bin/env python3
"""Browser test for `jfrtool report` pages (jfrtool/report.html filled with data).

  test_report_html.py [--jfrtool PATH] [--testdata DIR] [--screenshots DIR]

For every recording in testdata/recordings/*.jfr and testdata/report/*.jfr
(the seeded and the quiet one) it writes the report and
loads it in a real headless Chromium (ChromeDriver's WebDriver HTTP
protocol, standard library only, one browser for all pages), then checks:

  - the page becomes ready without JavaScript errors;
  - each timeline drew as many points as the recording has events of its
    type (`jfrtool summary` counts), the allocation rate one per bucket;
  - on recordings with samples, dragging the mouse over the CPU timeline
    selects a range of whole buckets and the flame graph's total becomes
    the sum of `jfrtool folded --event KIND --from A --to B` for that range;
  - the seeded recording (seeded-jdk25.jfr, tests/workloads/wl/SeededWorkload.java)
    names its seeded problems (lock contention, allocation rate, the
    growing static collection) and the quiet one (quiet-jdk25.jfr) has
    no warning;
  - a damaged copy (cut in the middle) still gives a page that says what
    was lost at the top.

Prints TAP-like lines and "N passed, N failed"; exit 0 when all pass, 1
otherwise, 77 when chromium/chromedriver are not installed.
"""
import base64
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from palette import K_CLASS, hue_class  # noqa: E402
from webdriver import require_browser, require_jfrtool, run_checks, tool_arguments, Tap  # noqa: E402

OVERALL_TIMEOUT = 240   # the browser part; the pages are written before
# timeline -> the event type whose events it draws
TIMELINE_EVENTS = {"cpu": "jdk.CPULoad", "heap": "jdk.GCHeapSummary", "gc": "jdk.GarbageCollection",
                   "pause": "jdk.GCPhasePause",
                   "threads": "jdk.JavaThreadStatistics", "safepoints": "jdk.SafepointBegin",
                   "cpulost": "jdk.CPUTimeSamplesLost"}


def load_report(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("const REPORT = "):
                return json.loads(line[len("const REPORT = "):].rstrip().rstrip(";"))
    raise SystemExit("%s: no 'const REPORT = ...;' line" % path)


def summary_counts(jfrtool, rec):
    out = subprocess.run([jfrtool, "summary", rec], capture_output=True, text=True).stdout
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s*(jdk\.\S+)\s+(\d+)\s+\d+\s*$", out, re.M)}


def folded_total(jfrtool, rec, kind, from_ms=None, to_ms=None, thread=None):
    cmd = [jfrtool, "folded", "--event", kind]
    if from_ms is not None:
        cmd += ["--from", "%dms" % from_ms, "--to", "%dms" % to_ms]
    if thread is not None:
        cmd += ["--thread", thread]
    out = subprocess.run(cmd + [rec], capture_output=True, text=True).stdout
    return sum(int(line.rsplit(" ", 1)[1]) for line in out.splitlines() if line.strip())


def make_page(jfrtool, rec, out):
    p = subprocess.run([jfrtool, "report", rec, "-o", out], capture_output=True, text=True)
    return p.returncode, p.stderr


def open_page(wd, page, t, name):
    t0 = time.time()
    wd.call("POST", "/url", {"url": "file://" + os.path.abspath(page)}, timeout=45)
    ready = wd.wait_for("return document.body && document.body.dataset.ready === '1';")
    ms = (time.time() - t0) * 1000
    t.check(bool(ready), "%s: page ready" % name, "%.0f ms" % ms)
    return bool(ready), ms


def drag(wd, css, x0_frac, x1_frac):
    r = wd.js("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
              "window.scrollTo(0, window.scrollY + r.top - 200);"
              "const q = document.querySelector(arguments[0]).getBoundingClientRect();"
              "return {x: q.left, y: q.top, w: q.width, h: q.height};", css)
    y = int(r["y"] + r["h"] / 2)
    xa, xb = int(r["x"] + r["w"] * x0_frac), int(r["x"] + r["w"] * x1_frac)
    wd.actions({"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"}, "actions": [
        {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": xa, "y": y},
        {"type": "pointerDown", "button": 0},
        {"type": "pointerMove", "duration": 50, "origin": "viewport", "x": (xa + xb) // 2, "y": y},
        {"type": "pointerMove", "duration": 50, "origin": "viewport", "x": xb, "y": y},
        {"type": "pointerUp", "button": 0}]})


# the colour at the left edge of each flame box, with the box's kind
BOX_COLOURS_JS = """
const c = document.getElementById('flame'), g = c.getContext('2d'), dpr = c.width / c.getBoundingClientRect().width;
return window.reportFlameBoxes().slice(0, 3000).map((b) => {
  const d = g.getImageData(Math.floor((b.x + 1) * dpr), Math.floor((b.y + 3) * dpr), 1, 1).data;
  return [b.kind, b.name, [d[0], d[1], d[2]]];
});
"""

# In a narrow hot-methods column, where each method name wraps: the text
# before each line break (the name breaks after '.', '$', '/', '(' or ','
# only, never inside a word)
WRAPS_JS = """
const wrap = document.getElementById('hot-wrap'), old = wrap.style.width;
wrap.style.width = '170px';
const out = [];
for (const td of document.querySelectorAll('#hot td:first-child')) {
  const text = td.textContent, r = document.createRange();
  let top = null, pos = 0;
  const walk = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    for (let i = 0; i < n.data.length; i++, pos++) {
      r.setStart(n, i); r.setEnd(n, i + 1);
      const rect = r.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2) out.push([text, pos]);
      top = rect.top;
    }
  }
}
wrap.style.width = old;
return out;
"""


def check_text(wd, t, name, data):
    """Boxes in their kind's colour; counts agree with their number;
    method names wrap only between their parts."""
    boxes = wd.js(BOX_COLOURS_JS)
    bad = [(n, k, rgb) for k, n, rgb in boxes if k in K_CLASS and hue_class(rgb) != K_CLASS[k]]
    t.check(boxes and not bad, "%s: every flame box in its kind's colour (%s)"
            % (name, sorted({b[0] for b in boxes})), "%d wrong, e.g. %s" % (len(bad), bad[:3]))
    body = wd.js("return document.body.innerText;")
    t.check(not re.search(r"(?<![\d,.])1 (samples|events|points)\b", body),
            "%s: no '1 samples', '1 events' or '1 points'" % name,
            repr(re.findall(r".{0,30}(?<![\d,.])1 (?:samples|events|points)\b", body)[:3]))
    wraps = wd.js(WRAPS_JS)
    inside = [(text, p) for text, p in wraps if text[p - 1] not in ".$/(," and not text[p - 1].isspace()
              and not text[p].isspace()]
    t.check(not inside, "%s: method names wrap between their parts (%d wraps)" % (name, len(wraps)),
            "; ".join("%s|%s" % (x[:p], x[p:]) for x, p in inside[:3]))


def check_page(wd, t, args, rec, page, data, counts):
    name = os.path.basename(rec)
    ok, ms = open_page(wd, page, t, name)
    if not ok:
        return ms
    errs = wd.js("return window.__errors || [];") + wd.console_errors()
    t.check(not errs, "%s: no JavaScript or console errors" % name, json.dumps(errs)[:300])
    st = wd.js("return window.reportState;")
    bad = []
    for tl, ev in TIMELINE_EVENTS.items():
        want = counts.get(ev, 0)
        if st["points"].get(tl, 0) != want:
            bad.append("%s: %s drawn, %d %s" % (tl, st["points"].get(tl), want, ev))
    if st["points"].get("alloc") != data["nbuckets"]:
        bad.append("alloc: %s drawn, %d buckets" % (st["points"].get("alloc"), data["nbuckets"]))
    t.check(not bad, "%s: every timeline draws the recording's points" % name, "; ".join(bad))
    if data["profiles"]:
        drag(wd, "#tl-cpu canvas", 0.2, 0.6)
        sel = wd.js("return window.reportState.selection;")
        fl = wd.js("return window.reportState.flame;")
        if t.check(sel is not None, "%s: dragging on the CPU timeline selects a range" % name):
            want = folded_total(args.jfrtool, rec, fl["kind"], sel["fromMs"], sel["toMs"])
            t.check(fl["total"] == want, "%s: flame total for %d-%d ms equals folded --event %s --from/--to"
                    % (name, sel["fromMs"], sel["toMs"], fl["kind"]), "page %s, folded %s" % (fl["total"], want))
            whole = sum(data["profiles"][0]["cw"])
            drawn = wd.js("return window.reportState.flame.total;")
            wd.key("\uE00C")  # Escape clears the selection
            t.check(wd.js("return window.reportState.selection;") is None and
                    wd.js("return window.reportState.flame.total;") == whole,
                    "%s: Escape clears the range (total back to %d)" % (name, whole), "was %s" % drawn)
        check_text(wd, t, name, data)
    return ms


def write_pages(args, t, tmp):
    """The report of every test recording, by recording."""
    recs = sorted(glob.glob(os.path.join(args.testdata, "recordings", "*.jfr")) +
                  glob.glob(os.path.join(args.testdata, "report", "*.jfr")))
    pages = {}
    for rec in recs:
        out = os.path.join(tmp, os.path.basename(rec) + ".html")
        t0 = time.time()
        rc, err = make_page(args.jfrtool, rec, out)
        t.check(rc == 0 and os.path.isfile(out), "%s: jfrtool report writes the page" % os.path.basename(rec),
                "rc %d %s %.0f ms" % (rc, err.strip()[:200], (time.time() - t0) * 1000))
        if rc == 0:
            pages[rec] = out
    return pages


def run(args, t, wd, pages, tmp):
    recs = list(pages)
    for rec, page in pages.items():
        data = load_report(page)
        check_page(wd, t, args, rec, page, data, summary_counts(args.jfrtool, rec))
        base = os.path.basename(rec)
        ids = [f["id"] for f in data["findings"]]
        warnings = [f["title"] for f in data["findings"] if f["severity"] == "warning"]
        shown = wd.js("return Array.from(document.querySelectorAll('#findings-list li[data-id]'))"
                      ".map((e) => e.dataset.id);")
        t.check(shown == ids, "%s: the findings list shows the findings" % base, "%s vs %s" % (shown, ids))
        dangling = wd.js("return Array.from(document.querySelectorAll('#findings-list a'))"
                         ".map((a) => a.getAttribute('href')).filter((h) => !document.querySelector(h));")
        t.check(not dangling, "%s: every finding links to a part of the page" % base, json.dumps(dangling))
        if base.startswith("seeded-"):
            titles = " | ".join(f["title"] for f in data["findings"])
            t.check("lock-contention" in ids, "seeded: lock contention found", titles)
            t.check("alloc-rate" in ids, "seeded: allocation rate found", titles)
            t.check(any(f["id"].startswith("leak-") and "Seeded" in f["title"] and "REGISTRY" in f["title"]
                        for f in data["findings"]),
                    "seeded: the growing static collection is a leak candidate with its field", titles)
            # hovering a CPU-load point shows its values
            r = wd.js("const c = document.querySelector('#tl-cpu canvas');"
                      "c.scrollIntoView({block: 'center'}); const b = c.getBoundingClientRect();"
                      "return {x: b.left, y: b.top, w: b.width, h: b.height};")
            d = load_report(pages[rec])["series"]["cpu"]
            t_ms = sorted(d["t"])[len(d["t"]) // 2]
            x = r["x"] + r["w"] * t_ms / max(data["duration"], data["bucketMs"])
            wd.mouse(x, r["y"] + r["h"] / 2)
            tip = wd.wait_for("const e = document.getElementById('tooltip');"
                              "return getComputedStyle(e).display !== 'none' && e.textContent;")
            t.check(bool(tip) and "CPU load" in tip and "JVM user" in tip and "%" in tip,
                    "seeded: hovering a CPU-load point shows its values", repr(tip)[:160])
            # keyboard: + zooms the shared axis, 0 shows the whole recording again
            wd.js("document.querySelector('#tl-cpu canvas').focus();")
            v0 = wd.js("return window.reportState.view;")
            wd.key("+")
            v1 = wd.wait_for("const v = window.reportState.view; return v[1] - v[0] < arguments[0] && v;",
                             v0[1] - v0[0])
            wd.key("0")
            v2 = wd.js("return window.reportState.view;")
            t.check(bool(v1) and v2 == v0, "seeded: + zooms the time axis and 0 restores it",
                    "%s -> %s -> %s" % (v0, v1, v2))
            # one thread: the lock profile of contended-0 (via the thread selector)
            wd.js("document.getElementById('profile-lock').click();")
            th = wd.js("const s = document.getElementById('thread');"
                       "const o = Array.from(s.options).find((o) => o.text.startsWith('contended-0 '));"
                       "if (!o) return null; s.value = o.value; s.dispatchEvent(new Event('change'));"
                       "return o.text;")
            fl = wd.js("return window.reportState.flame;")
            if t.check(th is not None, "seeded: the lock profile has thread contended-0"):
                want = folded_total(args.jfrtool, rec, "lock", thread="^contended-0$")
                t.check(fl["kind"] == "lock" and fl["total"] == want and want > 0,
                        "seeded: lock total of thread contended-0 equals folded --thread",
                        "page %s %s, folded %s" % (fl["kind"], fl["total"], want))
            wd.js("document.getElementById('profile-exec').click();")
            if args.screenshots:
                shot(wd, os.path.join(args.screenshots, "report-seeded.png"))
        if base.startswith("quiet-"):
            t.check(not warnings, "quiet: nothing alarming", " | ".join(warnings))
            if args.screenshots:
                shot(wd, os.path.join(args.screenshots, "report-quiet.png"))
    # a damaged recording: cut in the middle of its only chunk
    src = next((r for r in recs if os.path.basename(r) == "cpu-jdk25.jfr"), recs[0] if recs else None)
    if src:
        cut = os.path.join(tmp, "cut.jfr")
        with open(src, "rb") as f:
            b = f.read()
        with open(cut, "wb") as f:
            f.write(b[: len(b) * 2 // 3])
        out = os.path.join(tmp, "cut.html")
        rc, err = make_page(args.jfrtool, cut, out)
        t.check(os.path.isfile(out), "cut recording: a page is written", "rc %d %s" % (rc, err.strip()[:200]))
        if os.path.isfile(out):
            ok, _ = open_page(wd, out, t, "cut.jfr")
            if ok:
                lost = wd.js("return document.getElementById('lost').textContent;")
                t.check("could not be read" in lost and len(lost) > 40, "cut recording: the top says what was lost",
                        lost[:160])
                errs = wd.js("return window.__errors || [];")
                t.check(not errs, "cut recording: no JavaScript errors", json.dumps(errs)[:300])


def shot(wd, path):
    """The page from its findings down through the profiles, in a tall
    window, at 70 % so that the PNG stays small."""
    wd.call("POST", "/window/rect", {"width": 1100, "height": 1250})
    wd.js("document.body.style.zoom = '0.7'; window.dispatchEvent(new Event('resize'));"
          "window.scrollTo(0, document.getElementById('findings-sec').getBoundingClientRect().top * 0.7"
          " + window.scrollY - 4);")
    time.sleep(0.4)
    with open(path, "wb") as f:
        f.write(base64.b64decode(wd.call("GET", "/screenshot")))
    wd.js("document.body.style.zoom = ''; window.dispatchEvent(new Event('resize'));")
    wd.call("POST", "/window/rect", {"width": 1280, "height": 900})
    print("# screenshot written to %s" % path)


def main():
    ap = tool_arguments(__doc__)
    ap.add_argument("--screenshots", default=None, help="write report-seeded.png and report-quiet.png here")
    args = ap.parse_args()
    chromium, driver = require_browser()
    require_jfrtool(args.jfrtool)
    t = Tap()
    tmp = tempfile.mkdtemp(prefix="report-test-")
    try:    # the pages are written before the browser's time limit starts
        pages = write_pages(args, t, tmp)
        run_checks(t, chromium, driver, OVERALL_TIMEOUT, lambda wd: run(args, t, wd, pages, tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
