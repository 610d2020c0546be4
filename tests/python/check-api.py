#!/usr/bin/env python3
"""The jfr package's API on the test recordings (issue 13): every container
from a path and from bytes, chunks and their headers, metadata, events of
chosen types with values decoded on demand (times in ns and as datetimes),
events used after the iteration moved on, the call tree against the folded
stacks, merged profiles, hot methods against jfrtool's view, leak
candidates against jfrtool leaks, rows without pandas."""

import bz2
import datetime
import json
import lzma
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

jfr = jfrtest.setup()
rec_dir = os.path.join(jfrtest.testdata(), "recordings")
cpu = os.path.join(rec_dir, "cpu-jdk25.jfr")
with open(cpu, "rb") as f:
    raw = f.read()

# containers, from paths and from bytes
want = jfr.open(cpu).count_events()
if sum(want.values()) < 1000:
    jfrtest.fail("too few events in cpu-jdk25.jfr: %s" % want)
forms = {"raw": raw}
with open(cpu + ".gz", "rb") as f:
    forms["gzip"] = f.read()
with open(cpu + ".lz4", "rb") as f:
    forms["lz4"] = f.read()
if "xz" in jfr.features():
    forms["xz"] = lzma.compress(raw)
if "bzip2" in jfr.features():
    forms["bzip2"] = bz2.compress(raw)
for container, data in forms.items():
    with jfr.open(data) as r:
        if r.container != container or r.size != len(raw):
            jfrtest.fail("%s: container %s, size %d" % (container, r.container, r.size))
        if r.count_events() != want:
            jfrtest.fail("%s: other counts" % container)
    with jfr.open(bytearray(data), name="x.jfr") as r:
        if r.name != "x.jfr" or r.count_events() != want:
            jfrtest.fail("%s: bytearray" % container)
print("ok containers: %s" % ", ".join(forms))

# chunks and metadata
with jfr.open(os.path.join(rec_dir, "multi-jdk25.jfr")) as r:
    chunks = [(c.index, c.header["chunk_size"], c.header["major"]) for c in r.chunks()]
    if len(chunks) != 3 or [c[0] for c in chunks] != [0, 1, 2] or chunks[0][2] != 2:
        jfrtest.fail("chunks: %s" % chunks)
    meta = r.metadata()
    es = meta["jdk.ExecutionSample"]
    if not es.is_event or "stackTrace" not in [f.name for f in es.fields]:
        jfrtest.fail("metadata of jdk.ExecutionSample: %r" % es.fields)
    st = [f for f in es.fields if f.name == "startTime"][0]
    if st.timestamp != "TICKS":
        jfrtest.fail("startTime annotation: %r" % st.timestamp)
    # the library's jfr_field_content, as test_field_content checks it in C
    got = {(t, f.name): (f.content, f.unit, f.unsigned, f.has_content_type)
           for t in ("jdk.GCHeapSummary", "jdk.CPULoad", "jdk.ThreadSleep")
           for f in meta[t].fields}
    contents = {("jdk.GCHeapSummary", "heapUsed"): ("bytes", "BYTES", True, True),
            ("jdk.GCHeapSummary", "gcId"): (None, None, True, True),
            ("jdk.CPULoad", "jvmUser"): ("percentage", None, False, True),
            ("jdk.ThreadSleep", "time"): ("timespan", "NANOSECONDS", False, True),
            ("jdk.ThreadSleep", "startTime"): ("timestamp", "TICKS", False, True)}
    for k, v in contents.items():
        if got.get(k) != v:
            jfrtest.fail("content of %s.%s: %r, not %r" % (k + (got.get(k), v)))
    if "jdk.ExecutionSample" not in r.event_types():
        jfrtest.fail("event_types()")
print("ok chunks %s, %d types" % ([c[1] for c in chunks], len(meta)))

# events of chosen types, values on demand
with jfr.open(cpu) as r:
    n = 0
    for ev in r.events("jdk.ExecutionSample", "jdk.CPUTimeSample"):
        if ev.type not in ("jdk.ExecutionSample", "jdk.CPUTimeSample"):
            jfrtest.fail("type filter let %s through" % ev.type)
        if ev["startTime"] != ev.start_time:
            jfrtest.fail("startTime %s vs %s" % (ev["startTime"], ev.start_time))
        frames = ev["stackTrace"]["frames"]
        if n == 0:
            d = ev.to_dict()
            if set(d) < {"startTime", "stackTrace"} or not frames:
                jfrtest.fail("to_dict: %s" % list(d))
            m = frames[0]["method"]
            if not m["name"] or not m["type"]["name"]:
                jfrtest.fail("frame method: %s" % m)
            kept = ev
        n += 1
    if n != want["jdk.ExecutionSample"] + want["jdk.CPUTimeSample"]:
        jfrtest.fail("%d events of two types" % n)
    try:
        kept["startTime"]
        jfrtest.fail("an event used after the iteration moved on")
    except RuntimeError:
        pass
    # datetimes on request, the same instants
    a = [ev.start_time for ev in r.events("jdk.ExecutionSample")]
    b = [ev["startTime"] for ev in r.events("jdk.ExecutionSample", datetimes=True)]
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    if not b or b[0].tzinfo is None or \
            any(abs((y - epoch) / datetime.timedelta(microseconds=1) - x / 1000) > 1
                for x, y in zip(a, b)):
        jfrtest.fail("datetimes differ from ns")
    # a duration in ns, an unsigned and a string
    for ev in r.events("jdk.GCPhaseParallel"):
        if not isinstance(ev["duration"], int) or ev["duration"] < 0:
            jfrtest.fail("duration %r" % ev["duration"])
        break
    else:
        jfrtest.fail("no jdk.GCPhaseParallel")
print("ok %d events of two types, values, datetimes" % n)

# the call tree against the folded stacks
prof = jfr.profile(cpu, "cpu", lines=True)
fold = prof.folded()
tree = prof.tree()
if tree.total != prof.total or sum(fold.values()) != prof.total or prof.total == 0:
    jfrtest.fail("totals: tree %d, folded %d, profile %d"
                 % (tree.total, sum(fold.values()), prof.total))
leaves = {}
for depth, node in tree.walk():
    if node.children and node.total != node.self + sum(c.total for c in node.children):
        jfrtest.fail("node %s: total is not self plus children" % node.name)
if prof.unit not in ("samples", "ns") or prof.cpu["samples"] == 0:
    jfrtest.fail("unit %s, cpu %s" % (prof.unit, prof.cpu))
# merging: two profiles give the profile of both files
other = os.path.join(rec_dir, "cpu-jdk17.jfr")
p1 = jfr.profile(cpu, "exec")
p1.merge(jfr.profile(other, "exec"))
if p1.folded() != jfr.profile([cpu, other], "exec").folded():
    jfrtest.fail("merge differs from both files at once")
try:
    p1.merge(jfr.profile(cpu, "alloc"))
    jfrtest.fail("profiles of different kinds merged")
except ValueError:
    pass
print("ok tree of %d nodes, merge" % sum(1 for _ in tree.walk()))

# hot methods against jfrtool view hot-methods
view = json.loads(jfrtest.run("view", "--json", "hot-methods", cpu).stdout)
rows = jfr.hot_methods(cpu, "exec")
if [(r["method"], r["weight"]) for r in rows] != \
        [(r["method"], r["samples"]) for r in view["rows"]]:
    jfrtest.fail("hot methods differ from jfrtool view hot-methods")
if abs(rows[0]["percent"] - view["rows"][0]["percent"]) > 0.01:
    jfrtest.fail("percent %s vs %s" % (rows[0]["percent"], view["rows"][0]["percent"]))
print("ok hot methods: %s" % rows[0])

# leak candidates against jfrtool leaks
leak = os.path.join(rec_dir, "leak-jdk25.jfr")
cands = jfr.leaks(leak)
lj = json.loads(jfrtest.run("leaks", "--json", leak).stdout)
text = json.dumps(lj)
if not cands or cands[0]["samples"] <= 0 or cands[0]["holder"] not in text:
    jfrtest.fail("leak candidates: %s" % cands[:1])
print("ok leaks: %s.%s holds %d samples" % (cands[0]["holder"], cands[0]["field"],
                                             cands[0]["samples"]))

# rows: lists of dicts; a DataFrame only with pandas
try:
    import pandas  # noqa: F401
    df = rows.to_pandas()
    if list(df["method"]) != [r["method"] for r in rows]:
        jfrtest.fail("DataFrame rows")
except ImportError:
    try:
        rows.to_pandas()
        jfrtest.fail("to_pandas without pandas")
    except ImportError:
        print("note: pandas is not installed; rows stay lists of dicts")
kinds = jfr.kinds()
if len(kinds) < 8 or not all(k["sources"] for k in kinds):
    jfrtest.fail("kinds: %s" % kinds)
with warnings.catch_warnings():
    warnings.simplefilter("error")
    jfr.profile(cpu).folded()  # a sound file warns about nothing
print("ok: API")
