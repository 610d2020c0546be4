#!/usr/bin/env python3
"""make check: `jfrtool flame` and `jfrtool diff`.

SVG: well-formed XML (xml.dom.minidom), one <g> per frame with a <title> and a
<rect>, widths adding up (a frame is at least as wide as its children),
colours by frame type checked against `folded --annotate`, a golden at a
fixed --title (testdata/expected/leak-jdk25.jfr.flame-exec.svg; rewrite with
`make check UPDATE_GOLDEN=1`), and exactly the HTML page's boxes at least
0.1 px wide at the page's places (the SVG's walk leaves narrower boxes out
with everything under them). HTML: the embedded data ("const FLAME = ...")
is a consistent pre-order tree whose total is the folded total (plus lost
CPU-time samples), a box merging a method's frames of several kinds has
the weights by kind and the kind that folded --annotate gives, and the
page passes tests/browser/test_flame_html.py in a
headless Chromium when chromium and chromedriver are installed (skipped with
a message otherwise). Diff: BASE normalised to NEW's total, node values.
Units: a lock profile's title total, tooltips and page unit are time, an
allocation profile's title is a size, a diff's title has both totals.

Needs JFRTOOL and JFR_TESTDATA (Makefile.am sets them). Exit 0 pass, 1 fail.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.dom.minidom

JFRTOOL = os.environ["JFRTOOL"]
DATA = os.environ["JFR_TESTDATA"]
REC = os.path.join(DATA, "recordings")
EXPECTED = os.path.join(DATA, "expected")
HERE = os.path.dirname(os.path.abspath(__file__))
BROWSER_TEST = os.path.join(HERE, "..", "browser", "test_flame_html.py")
sys.path.insert(0, os.path.join(HERE, "..", "browser"))
from palette import K_CLASS, hue_class  # noqa: E402  (the SVG's data-k -> the palette's colour)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
SHARED = os.environ.get("JFR_SHARED", os.path.join(DATA, "..", "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus", "public")

CHECKS = Checks()
failures = CHECKS.failures
fail = CHECKS.fail


def run(cmd, *args):
    res = subprocess.run([JFRTOOL, cmd] + list(args), capture_output=True)
    if res.returncode != 0:
        fail("%s %s: exit %d: %s" % (cmd, " ".join(args), res.returncode, res.stderr.decode()[:300]))
    return res.stdout.decode("utf-8")


def folded_total(*args):
    return sum(int(l.rpartition(" ")[2]) for l in run("folded", *args).splitlines())


def load_flame(html):
    for line in html.splitlines():
        if line.startswith("const FLAME = "):
            return json.loads(line[len("const FLAME = "):].rstrip().rstrip(";"))
    fail("no FLAME data line in the page")
    return {"names": [], "n": [], "k": [], "d": [], "v": []}


def children(flame):
    """Per node: its children's indexes (the data is in pre-order)."""
    d = flame["d"]
    kids = [[] for _ in d]
    stack = []
    for i, depth in enumerate(d):
        del stack[depth:]
        if depth:
            if len(stack) != depth:
                fail("node %d at depth %d has no parent" % (i, depth))
                return kids
            kids[stack[-1]].append(i)
        stack.append(i)
    return kids


def check_tree(what, flame, key="v"):
    v = flame[key]
    kids = children(flame)
    for i, ks in enumerate(kids):
        s = sum(v[k] for k in ks)
        # scaled diff values are printed to 0.001 each
        if s > v[i] * (1 + 1e-9) + 0.0005 * (len(ks) + 1):
            fail("%s: node %d (%s) is narrower than its children (%s < %s)" % (
                what, i, flame["names"][flame["n"][i]], v[i], s))
            return
        names = [(flame["names"][flame["n"][k]], flame["k"][k]) for k in ks]
        if len(set(names)) != len(names):
            fail("%s: node %d has two children with one name and kind" % (what, i))
            return


# ---------------------------------------------------------------------------------- SVG

def svg_frames(text, what):
    try:
        doc = xml.dom.minidom.parseString(text.encode("utf-8"))
    except Exception as e:  # any parser error means invalid XML
        fail("%s: not well-formed XML: %s" % (what, e))
        return []
    frames = []
    group = [g for g in doc.getElementsByTagName("g") if g.getAttribute("id") == "frames"]
    if len(group) != 1:
        fail("%s: no <g id=frames>" % what)
        return []
    for g in group[0].getElementsByTagName("g"):
        titles, rects = g.getElementsByTagName("title"), g.getElementsByTagName("rect")
        if len(titles) != 1 or len(rects) != 1:
            fail("%s: a frame without exactly one <title> and <rect>" % what)
            return []
        fill = re.match(r"rgb\((\d+),(\d+),(\d+)\)$", rects[0].getAttribute("fill"))
        frames.append({"name": g.getAttribute("data-name"), "x": float(g.getAttribute("data-x")),
                       "w": float(g.getAttribute("data-w")), "d": int(g.getAttribute("data-d")),
                       "k": int(g.getAttribute("data-k") or -1),
                       "title": titles[0].firstChild.data if titles[0].firstChild else "",
                       "px": float(rects[0].getAttribute("width")),
                       "rgb": tuple(int(c) for c in fill.groups()) if fill else None})
    return frames


KIND_CLASS = {"j": "green", "i": "aqua", "0": "light green", "": "red"}
LEGEND_CLASS = {"JIT compiled": "green", "inlined": "aqua", "interpreted": "light green",
                "native": "red", "C++ (JVM)": "yellow", "kernel": "orange", "synthetic": "grey"}


def test_svg():
    rec = os.path.join(REC, "io-jdk25.jfr")
    text = run("flame", "--format", "svg", "--event", "cpu", "--title", "io <cpu> & \"more\"", rec)
    frames = svg_frames(text, "io-jdk25 cpu svg")
    if not frames:
        fail("svg: no frames")
        return
    root = frames[0]
    total = folded_total("--event", "cpu", rec)
    lost = [f for f in frames if f["name"] == "[lost samples]"]
    if root["name"] != "all" or not lost or root["w"] != total + lost[0]["w"]:
        fail("svg: root %r w=%s, expected all = %d samples + lost %s" % (
            root["name"], root["w"], total, lost and lost[0]["w"]))
    if lost and lost[0]["w"] != 100:  # 100 lost samples: testdata/jdk/io-jdk25.jfr.view-cpu-time-statistics.txt
        fail("svg: [lost samples] = %s, expected 100" % lost[0]["w"])
    if any(hue_class(f["rgb"]) != "grey" for f in frames if f["name"].startswith("[")) or \
            hue_class(root["rgb"]) != "grey":
        fail("svg: synthetic frames and the root must be grey")
    if not all(f["title"].startswith(f["name"]) for f in frames):
        fail("svg: a <title> does not start with its frame's name")
    # frame kinds: names that fold to one kind everywhere must have its colour
    kinds = collections.defaultdict(set)
    for line in run("folded", "--event", "cpu", "--annotate", rec).splitlines():
        for fr in line.rpartition(" ")[0].split(";"):
            m = re.match(r"(.*?)(?:_\[([ji0k])\])?$", fr)
            kinds[m.group(1)].add(m.group(2) or "")
    checked = bad = 0
    for f in frames[1:]:
        ks = kinds.get(f["name"].replace(" ", "_"))
        if not f["name"].startswith("[") and ks and len(ks) == 1 and next(iter(ks)) in KIND_CLASS:
            checked += 1
            if hue_class(f["rgb"]) != KIND_CLASS[next(iter(ks))]:
                bad += 1
                if bad < 3:
                    fail("svg: %s is %s, expected %s" % (f["name"], hue_class(f["rgb"]),
                                                        KIND_CLASS[next(iter(ks))]))
    seen = {KIND_CLASS[next(iter(kinds[f["name"]]))] for f in frames[1:]
            if len(kinds.get(f["name"], ())) == 1 and next(iter(kinds[f["name"]])) in KIND_CLASS}
    if checked < 50 or not {"green", "aqua", "light green", "red"} <= seen:
        fail("svg: only %d frames / colours %s checked" % (checked, sorted(seen)))
    if "io &lt;cpu&gt; &amp; &quot;more&quot;" not in text:
        fail("svg: title not escaped")


def svg_legend(text):
    """The legend's colour of each label."""
    found = re.findall(r'<rect [^>]*fill="rgb\((\d+),(\d+),(\d+)\)"/><text [^>]*'
                       r'class="legend">([^<]*)</text>', text)
    return {m[3]: tuple(int(c) for c in m[:3]) for m in found}


def check_palette(text, what, need):
    """Every box has its kind's colour (the Java palette of FlameGraph and
    async-profiler), the legend names each colour, and the kinds in `need`
    are drawn."""
    legend = svg_legend(text)
    for label, cls in LEGEND_CLASS.items():
        if label not in legend or hue_class(legend[label]) != cls:
            fail("%s: legend %r is %s, expected %s" % (
                what, label, legend.get(label) and hue_class(legend[label]), cls))
    frames = svg_frames(text, what)
    bad = [(f["name"], f["k"], hue_class(f["rgb"])) for f in frames
           if f["k"] in K_CLASS and hue_class(f["rgb"]) != K_CLASS[f["k"]]]
    if bad:
        fail("%s: %d boxes not in their kind's colour, e.g. %s" % (what, len(bad), bad[:3]))
    drawn = {f["k"] for f in frames}
    if not need <= drawn:
        fail("%s: kinds %s not drawn (only %s)" % (what, sorted(need - drawn), sorted(drawn)))


def test_svg_palette():
    """Green JIT, aqua inlined, light green interpreted, yellow C++ (JVM),
    red native, orange kernel (issue 26): in a JDK recording, and in an
    async-profiler one (C++ and kernel frames) when the corpus is there."""
    rec = os.path.join(REC, "cpu-jdk25.jfr")
    check_palette(run("flame", "--format", "svg", "--event", "exec", rec),
                  "svg palette (cpu-jdk25 exec)", {0, 1, 2})
    # diff --folded: FlameGraph's suffixes, and "::" for C++ without one
    with tempfile.NamedTemporaryFile("w", suffix=".folded", delete=False) as f:
        f.write("a_[j];JVM::run;k_[k] 3\na_[j];b_[i];c_[0] 1\na_[j];n 2\n")
    try:
        svg = run("diff", "--folded", "--format", "svg", f.name, f.name)
    finally:
        os.unlink(f.name)
    kinds = {g["name"]: g["k"] for g in svg_frames(svg, "diff --folded svg")}
    want = {"a": 0, "b": 1, "c": 2, "JVM::run": 4, "k": 8, "n": 3}
    if any(kinds.get(n) != k for n, k in want.items()):
        fail("diff --folded: frame kinds %s, expected %s" % (kinds, want))
    ap = os.path.join(CORPUS, "apquery-multi.jfr")
    if not os.path.isfile(ap):
        print("SKIP: svg palette of C++ and kernel frames: %s not found (set JFR_SHARED)" % ap)
        return
    check_palette(run("flame", "--format", "svg", "--event", "exec", ap),
                  "svg palette (apquery-multi exec)", {0, 1, 2, 3, 4, 8})


def test_svg_widths():
    rec = os.path.join(REC, "cpu-jdk25.jfr")
    frames = svg_frames(run("flame", "--format", "svg", "--event", "exec", rec), "cpu-jdk25 exec")
    by_depth_end = {}
    for f in frames:
        # children lie inside their parent: x ranges nest
        parent = by_depth_end.get(f["d"] - 1)
        if f["d"] and parent and not (parent[0] <= f["x"] and f["x"] + f["w"] <= parent[1] + 1e-6):
            fail("svg: %s lies outside its parent" % f["name"])
            break
        by_depth_end[f["d"]] = (f["x"], f["x"] + f["w"])
    if frames and frames[0]["w"] != folded_total("--event", "exec", rec):
        fail("svg: exec root %s != folded total" % frames[0]["w"])
    if frames and abs(frames[0]["px"] - 1180) > 0.01:
        fail("svg: root is %s px wide" % frames[0]["px"])


def test_svg_boxes():
    """The SVG draws exactly the page's boxes at least 0.1 px wide, at the
    page's places: an allocation graph in bytes has many narrower ones,
    which the SVG writer's walk leaves out with everything under them."""
    rec = os.path.join(REC, "io-jdk25.jfr")
    for args in (["--event", "alloc"], ["--event", "alloc", "--reverse"]):
        flame = load_flame(run("flame", "--format", "html", *args, rec))
        frames = svg_frames(run("flame", "--format", "svg", *args, rec), "svg boxes")
        v, d = flame["v"], flame["d"]
        scale = (1200.0 - 2 * 10.0) / v[0] if v and v[0] else 0
        next_x, want = [0.0] * (max(d) + 2 if d else 1), []
        for i, depth in enumerate(d):
            x = next_x[depth]
            next_x[depth] += v[i]
            next_x[depth + 1] = x
            if v[i] * scale >= 0.1:
                want.append((depth, x, float(v[i]), flame["names"][flame["n"][i]]))
        got = [(f["d"], f["x"], f["w"], f["name"]) for f in frames]
        narrow = len(d) - len(want)
        if got != want or narrow == 0:
            fail("svg %s: %d boxes drawn, the page has %d at least 0.1 px wide (%d "
                 "narrower); first difference %s" % (args, len(got), len(want), narrow,
                 next(((a, b) for a, b in zip(got, want) if a != b), None)))


def test_svg_golden():
    rec = os.path.join(REC, "leak-jdk25.jfr")
    text = run("flame", "--format", "svg", "--event", "exec", "--title", "leak-jdk25 exec", rec)
    path = os.path.join(EXPECTED, "leak-jdk25.jfr.flame-exec.svg")
    if UPDATE:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    with open(path, encoding="utf-8") as f:
        if f.read() != text:
            fail("svg differs from %s (make check UPDATE_GOLDEN=1 rewrites it)" % path)


# ---------------------------------------------------------------------------------- HTML

def test_html():
    rec = os.path.join(REC, "io-jdk25.jfr")
    html = run("flame", "--event", "cpu", "--title", "T </script> & @@TITLE@@", rec)
    if "</script> &" in html.split("<body>")[1].split("<script>")[0]:
        fail("html: title not escaped")
    flame = load_flame(html)
    check_tree("html", flame)
    total = folded_total("--event", "cpu", rec)
    if flame["v"][0] != total + 100 or flame["unit"] != "samples" or flame["mode"] != "normal":
        fail("html: root %s (%s, %s), expected %d" % (flame["v"][0], flame["unit"], flame["mode"],
                                                      total + 100))
    # --weight period: ns, the lost samples weigh the mean period
    flame = load_flame(run("flame", "--event", "cpu", "--weight", "period", rec))
    names = [flame["names"][i] for i in flame["n"]]
    lost = flame["v"][names.index("[lost samples]")]
    period = folded_total("--event", "cpu", "--weight", "period", rec)
    if flame["unit"] != "ns" or flame["v"][0] != period + lost or lost != 100 * (period // 591):
        fail("html --weight period: root %s, lost %s, period sum %d" % (flame["v"][0], lost, period))
    # --threads and --reverse
    flame = load_flame(run("flame", "--event", "exec", "--threads", "--reverse", rec))
    check_tree("html --reverse", flame)
    depth1 = [flame["names"][flame["n"][i]] for i, d in enumerate(flame["d"]) if d == 1]
    if not depth1 or not all(n.startswith("[thread ") for n in depth1):
        fail("html --threads: depth-1 frames %r" % depth1[:3])


# folded --annotate's suffixes: JIT, inlined, interpreted (the page's kinds
# 0, 1, 2); the others (kernel, none) stand for kinds the page tells apart
# but folded does not, so boxes with them are not checked
SUFFIX_KIND = {"_[j]": 0, "_[i]": 1, "_[0]": 2, "_[k]": None}


def annotated_boxes(*args):
    """Per path of names from the root: its weight by frame kind, worked
    out from folded --annotate."""
    boxes = {}
    for line in run("folded", "--annotate", *args).splitlines():
        stack, _, weight = line.rpartition(" ")
        path = []
        for frame in stack.split(";"):
            kind = None
            for suffix, k in SUFFIX_KIND.items():
                if frame.endswith(suffix):
                    frame, kind = frame[:-len(suffix)], k
            path.append(frame)
            boxes.setdefault(tuple(path), collections.Counter())[kind] += int(weight)
    return boxes


def test_html_kinds():
    """A box that merges a method's frames of several kinds lists its
    weights by kind ("x") and takes the kind of most weight ("k")."""
    mixed_seen = 0
    for name, event in (("cpu-jdk25.jfr", "exec"), ("cpu-jdk25.jfr", "cpu"),
                        ("cpu-jdk17.jfr", "exec"), ("leak-jdk25.jfr", "exec")):
        rec = os.path.join(REC, name)
        what = "html kinds (%s, %s)" % (name, event)
        boxes = annotated_boxes("--event", event, rec)
        flame = load_flame(run("flame", "--event", event, rec))
        x = flame["x"]
        mixes = {x[i]: x[i + 1:i + 4] for i in range(0, len(x), 4)}
        path = []
        for i, depth in enumerate(flame["d"]):
            if depth == 0:
                continue
            del path[depth - 1:]
            path.append(flame["names"][flame["n"][i]].replace(" ", "_"))
            by = boxes.get(tuple(path))
            if by is None and path == ["[lost_samples]"]:
                continue  # the page's box for CPU-time samples lost, not in folded
            if by is None:
                fail("%s: node %d (%s) is not in folded --annotate" % (what, i, ";".join(path)))
                return
            if None in by:
                continue
            if len(by) == 1:
                if i in mixes or flame["k"][i] != next(iter(by)):
                    fail("%s: node %d of one kind %s: k %s, x %s" % (
                        what, i, dict(by), flame["k"][i], mixes.get(i)))
                continue
            mixed_seen += 1
            want = [by[0], by[1], by[2]]
            top = max(want)
            if mixes.get(i) != want:
                fail("%s: node %d (%s): x %s, expected %s" % (what, i, path[-1], mixes.get(i), want))
            elif want.count(top) == 1 and flame["k"][i] != want.index(top):
                fail("%s: node %d: kind %s, expected %d" % (what, i, flame["k"][i], want.index(top)))
    print("html kinds: %d boxes of several kinds checked" % mixed_seen)
    if mixed_seen < 10:
        fail("html kinds: only %d boxes of several kinds checked" % mixed_seen)


def test_browser():
    """A flame page and a diff page in headless Chromium."""
    rec = os.path.join(REC, "cpu-jdk25.jfr")
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "flame.html")
        for args in (["flame", "--event", "cpu"], ["diff", "--base-event", "exec", "--event", "cpu"]):
            run(*(args + ["-o", page, rec]))
            res = subprocess.run([sys.executable, BROWSER_TEST, page], capture_output=True, text=True)
            print(res.stdout, end="")
            if res.returncode == 77:
                print("SKIP: browser test (chromium or chromedriver not installed)")
                return
            if res.returncode != 0:
                fail("browser test of %s failed: %s" % (args[0], (res.stdout + res.stderr)[-500:]))


# ---------------------------------------------------------------------------------- diff

def test_diff():
    rec = os.path.join(REC, "cpu-jdk25.jfr")
    same = load_flame(run("diff", "--event", "exec", rec, rec))
    if same["mode"] != "diff" or same["v"] != same["b"]:
        fail("diff of a recording with itself: base differs from new")
    # exec vs cpu of one recording: union tree, NEW's values as in flame, BASE scaled
    d = load_flame(run("diff", "--base-event", "exec", "--event", "cpu", rec))
    check_tree("diff new", d, "v")
    check_tree("diff base", d, "b")
    # diff normalises lambda names by default: so do the flames it is checked against
    flame_cpu = load_flame(run("flame", "--normalize", "--event", "cpu", rec))
    if abs(d["v"][0] - flame_cpu["v"][0]) > 1e-9 or abs(d["b"][0] - d["v"][0]) > 1e-6:
        fail("diff: totals new %s base %s, flame cpu %s" % (d["v"][0], d["b"][0], flame_cpu["v"][0]))
    # every node's path: NEW value as in `flame --event cpu`, BASE as `flame --event exec` scaled
    def paths(flame, key):
        out, stack = {}, []
        for i, depth in enumerate(flame["d"]):
            del stack[depth:]
            stack.append(flame["names"][flame["n"][i]])  # kinds are merged per method
            out[tuple(stack)] = flame[key][i]
        return out
    new_p, base_p = paths(d, "v"), paths(d, "b")
    cpu_p = paths(flame_cpu, "v")
    exec_flame = load_flame(run("flame", "--normalize", "--event", "exec", rec))
    exec_p = paths(exec_flame, "v")
    scale = flame_cpu["v"][0] / exec_flame["v"][0]
    bad = [p for p in new_p if new_p[p] != cpu_p.get(p, 0)]
    bad += [p for p in base_p if abs(base_p[p] - exec_p.get(p, 0) * scale) > 0.001]
    if set(new_p) != set(cpu_p) | set(exec_p):
        fail("diff: the tree is not the union of both trees")
    if bad:
        fail("diff: %d nodes with wrong values, e.g. %r" % (len(bad), bad[0][-1]))
    if not any(v > b for v, b in zip(d["v"], d["b"])) or not any(v < b for v, b in zip(d["v"], d["b"])):
        fail("diff exec vs cpu: expected frames that grew and frames that shrank")
    text = run("diff", "--format", "svg", "--event", "exec", os.path.join(REC, "cpu-jdk17.jfr"), rec)
    frames = svg_frames(text, "diff svg")
    if not frames or not any(f["rgb"][0] > f["rgb"][2] for f in frames) or \
            not any(f["rgb"][2] > f["rgb"][0] for f in frames) or "delta" not in frames[1]["title"]:
        fail("diff svg: expected red and blue frames with deltas in their titles")
    res = subprocess.run([JFRTOOL, "diff", rec], capture_output=True)
    if res.returncode != 1:
        fail("diff with one file and no --base-event: exit %d" % res.returncode)


def test_units():
    """A lock profile is in time: the title's total, every tooltip and the
    page's unit; an allocation profile in bytes; diff titles both sides."""
    rec = os.path.join(REC, "io-jdk25.jfr")
    total_ns = folded_total("--event", "lock", rec)
    if total_ns <= 0:
        fail("folded --event lock io-jdk25.jfr: no lock time to check units with")
        return
    want = "%.1f s" % (total_ns / 1e9)
    svg = run("flame", "--event", "lock", "--format", "svg", rec)
    title = re.search(r'class="title">([^<]*)<', svg)
    if not title or title.group(1) != "lock: io-jdk25.jfr (%s)" % want:
        fail("flame --event lock: title %r, want the total %s" % (title and title.group(1), want))
    tips = re.findall(r"<title>[^<]*\(([^,]*),", svg)
    if not tips or not all(re.fullmatch(r"[0-9]+\.[0-9]{3} s", t) for t in tips):
        fail("flame --event lock: tooltips not in seconds: %r" % tips[:3])
    page = load_flame(run("flame", "--event", "lock", "--format", "html", rec))
    if page.get("unit") != "ns" or want not in page.get("title", ""):
        fail("flame --event lock html: unit %r, title %r" % (page.get("unit"), page.get("title")))
    svg = run("flame", "--event", "alloc", "--format", "svg", rec)
    if not re.search(r'class="title">alloc: io-jdk25.jfr \([0-9.]+ [kMG]?B\)<', svg):
        fail("flame --event alloc: title without a size: %r" % re.findall(r'class="title">[^<]*', svg))
    svg = run("diff", "--event", "lock", "--format", "svg", rec, rec)
    title = re.search(r'class="title">([^<]*)<', svg)
    if not title or title.group(1).count("(%s)" % want) != 2:
        fail("diff --event lock: title %r, want both totals %s" % (title and title.group(1), want))
    if not re.search(r"<title>[^<]*; base [0-9]+\.[0-9]{3} s, delta", svg):
        fail("diff --event lock: tooltips not in seconds")


for t in (test_svg, test_svg_palette, test_svg_widths, test_svg_boxes, test_svg_golden, test_html, test_html_kinds, test_diff,
          test_units, test_browser):
    t()
print("%d failure(s)" % len(failures))
for f in failures:         # again at the end, where a log's tail shows them
    print("FAIL:", f[:300])
sys.exit(1 if failures else 0)
