#!/usr/bin/env python3
"""Write a sample flame-graph page from jfrtool/flame.html, filled the way
jfrtool fills it, so the page can be tested without the C side.

  make-sample-data.py [-o OUT.html] [--big [N]] [--diff] [--title T] [--template PATH]

Default: a small hand-made tree. --big: a synthetic tree with N (default
100000) distinct stacks. --diff: diff mode ("b" = base values, normalised to
the same total as "v").

Filling rules (the C tool must do the same):
  * the single line that is exactly "/*@@FLAME_DATA@@*/" is replaced by
    "const FLAME = <json>;", where "</" in the JSON is written "<\\/" so that
    a frame name can never close the <script> element;
  * every "@@TITLE@@" is replaced by the HTML-escaped title.
"""
import argparse
import html
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TEMPLATE = os.path.join(HERE, "..", "..", "jfrtool", "flame.html")
PLACEHOLDER = "/*@@FLAME_DATA@@*/"

JIT, INL, INT, NAT, CPP, SYN, ROOT, UNK = range(8)


def build(stacks, diff=False):
    """stacks: iterable of (frames, new_count, base_count); frames is a list of
    (name, kind) from the root (thread entry) to the leaf. Returns FLAME dict
    fields n/k/d/v(/b) plus the names table, nodes in pre-order, children
    sorted by name (then kind)."""
    # trie node: [v, b, kind, {(name, kind): child}]
    root = [0, 0, ROOT, {}]
    for frames, cnt, bcnt in stacks:
        node = root
        node[0] += cnt
        node[1] += bcnt
        for name, kind in frames:
            ch = node[3].get((name, kind))
            if ch is None:
                ch = node[3][(name, kind)] = [0, 0, kind, {}]
            ch[0] += cnt
            ch[1] += bcnt
            node = ch
    names, name_ix = [], {}
    out = {"n": [], "k": [], "d": [], "v": []}
    if diff:
        out["b"] = []
        # normalise the base to the same total as new
        factor = root[0] / root[1] if root[1] else 0.0

    def intern(s):
        if s not in name_ix:
            name_ix[s] = len(names)
            names.append(s)
        return name_ix[s]

    todo = [("all", root, 0)]
    while todo:
        name, node, d = todo.pop()
        out["n"].append(intern(name))
        out["k"].append(node[2])
        out["d"].append(d)
        out["v"].append(node[0])
        if diff:
            out["b"].append(int(round(node[1] * factor)))
        for key in sorted(node[3], reverse=True):   # reversed: stack pops in order
            todo.append((key[0], node[3][key], d + 1))
    out["names"] = names
    return out


def small_stacks():
    t_main, t_work = ("[thread main tid=1]", SYN), ("[thread worker-1 tid=21]", SYN)
    run = ("java.lang.Thread.run", JIT)
    app = ("com.example.App.main", INT)
    s = [
        ([t_main, app, ("com.example.App.loadConfig", INT), ("java.io.FileInputStream.readBytes", NAT)], 40),
        ([t_main, app, ("com.example.App.loadConfig", INT), ("com.example.Config.parse", INT)], 25),
        ([t_main, app, ("com.example.App.compute", JIT), ("com.example.Matrix.multiply", JIT)], 300),
        ([t_main, app, ("com.example.App.compute", JIT), ("com.example.Matrix.multiply", JIT),
          ("com.example.Matrix.get", INL)], 180),
        ([t_main, app, ("com.example.App.compute", JIT), ("java.util.Arrays.sort", JIT),
          ("java.util.DualPivotQuicksort.sort", INL)], 120),
        ([t_main, app, ("com.example.App.compute", JIT), ("com.example.App.compute", JIT),
          ("com.example.Matrix.multiply", JIT)], 90),          # recursion: nested search matches
        ([t_work, run, ("java.util.concurrent.ThreadPoolExecutor.runWorker", JIT),
          ("com.example.Worker.handle", JIT), ("java.util.HashMap.get", INL)], 150),
        ([t_work, run, ("java.util.concurrent.ThreadPoolExecutor.runWorker", JIT),
          ("com.example.Worker.handle", JIT), ("com.example.Worker$$Lambda.0x00007f3c<init>", JIT),
          ("java.lang.Object.<init>", INL)], 30),
        ([t_work, run, ("java.util.concurrent.ThreadPoolExecutor.runWorker", JIT),
          ("java.util.concurrent.LinkedBlockingQueue.take", JIT), ("jdk.internal.misc.Unsafe.park", NAT),
          ("Parker::park", CPP), ("__futex_abstimed_wait_common", CPP)], 60),
        ([t_work, run, ("com.example.Worker.idle", UNK)], 12),
        # hostile name: must neither close the <script> element nor be taken for the title marker
        ([t_work, run, ("com.example.Evil</script><b>@@TITLE@@", INT)], 5),
        ([t_work, ("GCTaskThread::run", CPP), ("G1ParEvacuateFollowersClosure::do_void", CPP)], 70),
        ([("[lost samples]", SYN)], 45),
        ([("[no stack trace]", SYN)], 20),
    ]
    return s


def big_stacks(count, seed=1):
    rnd = random.Random(seed)
    pkgs = ["com.example.web", "com.example.db", "com.example.cache", "org.acme.json", "io.netty.channel",
            "java.util", "java.util.concurrent", "java.lang", "sun.nio.ch", "jdk.internal.misc"]
    verbs = ["get", "put", "handle", "process", "read", "write", "encode", "decode", "run", "apply",
             "visit", "compute", "lookup", "parse", "flush", "dispatch"]
    methods = []
    for i in range(3000):
        cls = "C%d%s" % (i % 400, rnd.choice(["Impl", "Handler", "Node", "Util", ""]))
        methods.append(("%s.%s.%s%d" % (rnd.choice(pkgs), cls, rnd.choice(verbs), i), rnd.choice(
            [JIT, JIT, JIT, INL, INL, INT, NAT, CPP])))
    callees = [[rnd.randrange(len(methods)) for _ in range(rnd.randint(2, 3))] for _ in methods]
    threads = [("[thread pool-%d tid=%d]" % (t, 30 + t), SYN) for t in range(8)]
    seen = set()
    out = []
    while len(out) < count:
        m = rnd.randrange(12)                    # a few common entry points
        path = [m]
        for _ in range(rnd.randint(3, 24)):
            m = rnd.choice(callees[m])
            path.append(m)
        key = (rnd.randrange(len(threads)), tuple(path))
        if key in seen:
            continue
        seen.add(key)
        frames = [threads[key[0]]] + [methods[j] for j in path]
        out.append((frames, int(rnd.paretovariate(1.2))))
    out.append(([("[lost samples]", SYN)], count // 20))
    return out


def with_base(stacks, diff, seed=2):
    rnd = random.Random(seed)
    res = []
    for frames, cnt in stacks:
        if not diff:
            res.append((frames, cnt, 0))
            continue
        r = rnd.random()
        if r < 0.1:
            res.append((frames, cnt, 0))         # only in NEW
        elif r < 0.2:
            res.append((frames, 0, cnt))         # only in BASE
        else:
            res.append((frames, cnt, max(0, int(cnt * rnd.uniform(0.4, 1.6)))))
    return res


def fill(template_text, flame, title):
    data = "const FLAME = " + json.dumps(flame, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/") + ";"
    lines = template_text.split("\n")
    hits = [i for i, line in enumerate(lines) if line.rstrip("\r") == PLACEHOLDER]
    if len(hits) != 1:
        raise SystemExit("template must contain the placeholder line exactly once (found %d)" % len(hits))
    # title first, so a frame name containing the marker is left alone
    lines = [line.replace("@@TITLE@@", html.escape(title)) for line in lines]
    lines[hits[0]] = data
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--big", nargs="?", type=int, const=100000, default=0, metavar="N")
    ap.add_argument("--diff", action="store_true")
    ap.add_argument("--title", default=None)
    ap.add_argument("--template", default=DEFAULT_TEMPLATE)
    a = ap.parse_args()
    stacks = big_stacks(a.big) if a.big else small_stacks()
    flame = build(with_base(stacks, a.diff), a.diff)
    title = a.title or ("Diff: CPU time" if a.diff else "CPU time <sample> & \"quotes\"")
    flame = {"title": title, "unit": "samples", "mode": "diff" if a.diff else "normal", **flame}
    with open(a.template, encoding="utf-8") as f:
        page = fill(f.read(), flame, title)
    if a.output == "-":
        sys.stdout.write(page)
    else:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(page)
    print("%s: %d nodes, %d names, total %d" % (a.output, len(flame["n"]), len(flame["names"]), flame["v"][0]),
          file=sys.stderr)


if __name__ == "__main__":
    main()
