#!/usr/bin/env python3
"""Browser test for a jfrtool flame-graph page (jfrtool/flame.html filled with data).

  test_flame_html.py PAGE.html [--expect-frame NAME] [--search REGEX] [--screenshot PNG]

Drives a real headless Chromium through ChromeDriver's WebDriver HTTP
protocol (standard library only). Prints one TAP-like line per check and a
final "N passed, N failed" line; exit 0 when all pass, 1 otherwise, 77 when
chromium/chromedriver are not installed. The whole run is bounded by
180 s; tests/browser/webdriver.py is the harness.
"""
import argparse
import base64
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from palette import K_CLASS, hue_class  # noqa: E402
from webdriver import require_browser, run_checks, Tap  # noqa: E402

OVERALL_TIMEOUT = 180


# ---------------------------------------------------------------- flame data (independent of the page)

def load_flame(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("const FLAME = "):
                text = line[len("const FLAME = "):].rstrip().rstrip(";")
                return json.loads(text)      # "<\/" is a valid JSON escape for "/"
    raise SystemExit("%s: no 'const FLAME = ...;' line (placeholder not filled?)" % path)


def subtree_ends(depths):
    n = len(depths)
    end = [n] * n
    stack = []
    for i, d in enumerate(depths):
        while len(stack) > d:
            end[stack.pop()] = i
        stack.append(i)
    return end


def expected_matches(flame, regex):
    """Count every matching frame (root excluded); sum values of outermost matches only."""
    rx = re.compile(regex)
    hit = [bool(rx.search(s)) for s in flame["names"]]
    end = subtree_ends(flame["d"])
    count, value, cover = 0, 0, 0
    for i, (ni, k) in enumerate(zip(flame["n"], flame["k"])):
        if k == 6 or not hit[ni]:
            continue
        count += 1
        if i >= cover:
            value += flame["v"][i]
            cover = end[i]
    return count, value


def default_frame(flame):
    """The heaviest frame at depth 2 (else depth 1) that is not a synthetic frame."""
    for want in (2, 1):
        best = None
        for i, d in enumerate(flame["d"]):
            if d == want and flame["k"][i] not in (5, 6) and (best is None or flame["v"][i] > flame["v"][best]):
                best = i
        if best is not None:
            return flame["names"][flame["n"][best]]
    return flame["names"][flame["n"][0]]


def fmt_int(x):
    return "{:,}".format(int(round(x)))


# ---------------------------------------------------------------- checks

NONBLANK_JS = """
const c = document.getElementById('canvas');
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
let painted = 0, colours = new Set();
for (let i = 0; i < d.length; i += 4 * 7) {
  if (d[i + 3] > 0) { painted++; if (colours.size < 64) colours.add(d[i] << 16 | d[i + 1] << 8 | d[i + 2]); }
}
return {painted: painted, colours: colours.size, w: c.width, h: c.height};
"""
# Resolve once the page has drawn at least `arguments[0]` times.
DRAWN_JS = "return window.flameState && window.flameState.drawCount >= arguments[0];"

# the colour drawn at the left edge of each node's box that is at least 4 px
# wide (the name is written from x + 3), by node, as [r, g, b]
BOX_COLOURS_JS = """
const c = document.getElementById('canvas'), g = c.getContext('2d'), dpr = c.width / c.getBoundingClientRect().width;
const out = {};
for (let i = 0; i < window.flameState.nodeCount; i++) {
  const r = window.flameRect(i);
  if (!r || r.w < 4) continue;
  const d = g.getImageData(Math.floor((r.x + 1) * dpr), Math.floor((r.y + 3) * dpr), 1, 1).data;
  out[i] = [d[0], d[1], d[2]];
}
return out;
"""

# whether the search box and the buttons are on screen and not covered
CONTROLS_JS = """
return ['search', 'clear', 'reset', 'toggle'].every((id) => {
  const e = document.getElementById(id), r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight &&
    document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === e;
});
"""

def check_palette(t, wd, flame):
    """Each box is drawn in its kind's colour (diff pages: by delta)."""
    colours = wd.js(BOX_COLOURS_JS)
    seen, bad = set(), []
    for i, rgb in colours.items():
        k = flame["k"][int(i)]
        if k in K_CLASS:
            seen.add(k)
            if hue_class(rgb) != K_CLASS[k]:
                bad.append((flame["names"][flame["n"][int(i)]], k, rgb))
    t.check(colours and not bad, "every box in its kind's colour (%s)" % sorted(seen),
            "%d wrong, e.g. %s" % (len(bad), bad[:3]))


def run(page, args, t, wd):
    flame = load_flame(page)
    frame = args.expect_frame or default_frame(flame)
    regex = args.search if args.search is not None else re.escape(frame.rsplit(".", 1)[-1])
    t0 = time.time()
    wd.call("POST", "/url", {"url": "file://" + os.path.abspath(page)}, timeout=45)
    ready = wd.wait_for("return document.body && document.body.dataset.ready === '1';")
    t.check(ready, "page ready (body[data-ready=1])")
    if not ready:
        return
    st = wd.js("return window.flameState;")
    print("# nodes %d, total %s; load+ready %.0f ms (wall, incl. navigation); in page: init %.1f ms, first draw %.1f ms"
          % (st["nodeCount"], st["total"], (time.time() - t0) * 1000, st["initMs"], st["firstDrawMs"]), flush=True)
    t.check(st["nodeCount"] == len(flame["n"]) and st["total"] == flame["v"][0],
            "flameState nodeCount/total match the embedded data", "%s/%s" % (st["nodeCount"], st["total"]))
    px = wd.js(NONBLANK_JS)
    t.check(px["painted"] > 50 and px["colours"] >= 2, "canvas drew something", json.dumps(px))

    # (b) real mouse click on the frame, expect zoom to it at full width
    pos = wd.js("return window.flameFind(arguments[0]);", frame)
    if t.check(pos is not None, "frame %r visible" % frame):
        wd.mouse(pos["x"], pos["y"], click=True)
        st = wd.js("return window.flameState;")
        zname = flame["names"][flame["n"][st["zoomedNode"]]]
        t.check(st["zoomedNode"] == pos["node"] and zname == frame, "click zooms to %r" % frame,
                "zoomedNode=%s (%s)" % (st["zoomedNode"], zname))
        r = wd.js("return window.flameRect(arguments[0]);", pos["node"])
        t.check(r is not None and r["x"] == 0 and abs(r["w"] - r["canvasWidth"]) < 0.5,
                "zoomed frame spans the full width", json.dumps(r))
        path = wd.js("return [window.flameState.zoomPath,"
                     " document.getElementById('zoompath').textContent];")
        t.check(path[0] and path[0][-1] == frame and frame in path[1] and "% of total" in path[1],
                "zoom path names the zoomed frame and its share", repr(path[1][-160:]))
        wd.key("\uE00C")              # Escape
        t.check(wd.js("return window.flameState.zoomedNode;") == 0, "Escape resets zoom")

    # Ctrl+F goes to the page's search box
    wd.actions({"type": "key", "id": "kbd", "actions": [
        {"type": "keyDown", "value": "\uE009"}, {"type": "keyDown", "value": "f"},
        {"type": "keyUp", "value": "f"}, {"type": "keyUp", "value": "\uE009"}]})
    t.check(wd.js("return document.activeElement && document.activeElement.id;") == "search",
            "Ctrl+F focuses the search box")

    # (c) search
    exp_count, exp_value = expected_matches(flame, regex)
    el = wd.element("#search")
    wd.call("POST", "/element/%s/value" % el, {"text": regex})
    st = wd.js("return window.flameState;")
    t.check(st["matchedCount"] == exp_count and st["matchedValue"] == exp_value,
            "search %r matches %d frames, value %d" % (regex, exp_count, exp_value),
            "page: %s frames, value %s" % (st["matchedCount"], st["matchedValue"]))
    text = wd.js("return document.getElementById('matched').textContent;")
    total = flame["v"][0]
    want = "Matched: %s %s (%.2f%%)" % (fmt_int(exp_value), flame.get("unit", "samples"),
                                        100.0 * exp_value / total if total else 0)
    t.check(text == want, "#matched status text", repr(text) + (" want " + repr(want) if text != want else ""))
    if args.screenshot:
        wd.wait_for(DRAWN_JS, st["drawCount"] + 1)
        wd.js("window.scrollTo(0, 0);")
        png = base64.b64decode(wd.call("GET", "/screenshot"))
        with open(args.screenshot, "wb") as f:
            f.write(png)
        print("# screenshot (search highlighted) written to %s" % args.screenshot)
    drawn = wd.js("return window.flameState.drawCount;")
    wd.call("POST", "/element/%s/click" % wd.element("#clear"))
    wd.wait_for(DRAWN_JS, drawn + 1)      # the page redraws on the next frame, not at once
    st = wd.js("return window.flameState;")
    t.check(st["matchedCount"] == 0 and st["matchedValue"] == 0, "clear search")

    # (d) orientation toggle: the page opens as a flame graph (root at the
    # bottom, as FlameGraph and async-profiler draw it and flame --help
    # says); the toggle moves the root to the top row and back, the root
    # row comes into view below the header, and the search box and buttons
    # stay in view and usable whatever the layout
    if flame.get("mode") != "diff":
        check_palette(t, wd, flame)
    root_js = ("const r = window.flameRect(0), c = document.getElementById('canvas')"
               ".getBoundingClientRect(), h = document.getElementById('header')"
               ".getBoundingClientRect(); return [c.top + r.y, innerHeight, h.bottom];")
    before = wd.js("return [window.flameState.orientation, window.flameRect(0)];")
    t.check(before[0] == "flame" and before[1]["y"] > 0 or flame["d"] == [0],
            "the page opens as a flame graph, root at the bottom", json.dumps(before))
    for step in (1, 2):
        wd.call("POST", "/element/%s/click" % wd.element("#toggle"))
        after = wd.js("return [window.flameState.orientation, window.flameRect(0)];")
        t.check(before[0] != after[0] and after[1]["y"] != before[1]["y"],
                "toggle orientation (%d)" % step,
                "%s -> %s, root y %s -> %s" % (before[0], after[0], before[1]["y"], after[1]["y"]))
        drawn = wd.wait_for(DRAWN_JS, wd.js("return window.flameState.drawCount;"))
        root_y = wd.js(root_js)
        t.check(root_y[2] <= root_y[0] < root_y[1],
                "the %s layout shows its root row on screen, below the header" % after[0],
                "root row at %s of %s px, header to %s" % tuple(root_y))
        t.check(wd.js(CONTROLS_JS), "search box and buttons in view (%s)" % after[0])
        before = after
    px = wd.js(NONBLANK_JS)
    t.check(drawn and px["painted"] > 50, "canvas redrawn after toggle", json.dumps(px))

    # (e) hover shows the tooltip with the frame's name
    pos = wd.js("return window.flameFind(arguments[0]);", frame)
    if t.check(pos is not None, "frame %r visible after toggle" % frame):
        wd.mouse(pos["x"], pos["y"])
        tip = wd.wait_for("const e = document.getElementById('tooltip');"
                          "return getComputedStyle(e).display !== 'none' && e.textContent;")
        t.check(bool(tip) and frame in tip and "%" in tip, "tooltip shown on hover",
                repr(tip[:120]) if tip else "hidden")
        if args.screenshot:
            hover_png = os.path.splitext(args.screenshot)[0] + "-hover.png"
            with open(hover_png, "wb") as f:
                f.write(base64.b64decode(wd.call("GET", "/screenshot")))
            print("# screenshot (flame orientation, tooltip) written to %s" % hover_png)
        if flame.get("mode") == "diff":
            t.check(bool(tip) and "base:" in tip and "new:" in tip and "delta:" in tip,
                    "diff tooltip shows base, new and delta")
        wd.mouse(pos["x"], pos["y"], click=True)
        wd.call("POST", "/element/%s/click" % wd.element("#reset"))
        t.check(wd.js("return window.flameState.zoomedNode;") == 0, "#reset button resets zoom")
    # a method run JIT-compiled and inlined (say) is one box; the tooltip splits it
    mixed = wd.js("return window.flameMixed();")
    if flame.get("mode") != "diff" and mixed:
        name = max(mixed, key=lambda i: flame["v"][i])
        pos = wd.js("return window.flameFind(arguments[0]);", flame["names"][flame["n"][name]])
        if pos is not None and pos["node"] in mixed:
            wd.mouse(pos["x"], pos["y"])
            tip = wd.wait_for("const e = document.getElementById('tooltip');"
                              "return getComputedStyle(e).display !== 'none' && e.textContent;")
            t.check(bool(tip) and re.search(r"(JIT compiled|inlined|interpreted) \d+\.\d\d%.*, ", tip),
                    "a merged method's tooltip splits it by kind", repr(tip[:160]) if tip else "hidden")
    errs = wd.js("return window.__errors || [];")
    t.check(not errs, "no JavaScript errors", json.dumps(errs)[:300])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("page")
    ap.add_argument("--expect-frame", default=None, help="frame to click (default: heaviest at depth 2)")
    ap.add_argument("--search", default=None, help="regex to type (default: derived from the frame)")
    ap.add_argument("--screenshot", default=None, help="write a PNG of the page (search highlighted)")
    args = ap.parse_args()

    chromium, driver = require_browser()
    if not os.path.isfile(args.page):
        print("%s: no such file" % args.page, file=sys.stderr)
        sys.exit(2)

    t = Tap()
    run_checks(t, chromium, driver, OVERALL_TIMEOUT, lambda wd: run(args.page, args, t, wd))


if __name__ == "__main__":
    main()
