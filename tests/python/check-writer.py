#!/usr/bin/env python3
"""check-writer.py - jfr.scrub and jfr.Writer.

- jfr.scrub gives the very bytes jfrtool scrub writes, for filters,
  time ranges and redactions (file and memory output), and the counts per
  field that jfrtool prints; an unknown event type raises
  UnknownEventTypeError as jfrtool exits 1;
- a recording built with jfr.Writer reads back (jfr.open, jfrtool --strict
  print --json) with the values written: types, strings, pooled structs,
  arrays, floats, times; two chunks; a value of the wrong kind raises
  before anything is written.
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

jfr = jfrtest.setup()
tool = jfrtest.jfrtool()
data = jfrtest.testdata()
rec = os.path.join(data, "recordings")
tmp = tempfile.mkdtemp(prefix="jfr-check-writer-")
CHECKS = Checks()
failures = CHECKS.failures
check = CHECKS.check


CASES = [
    ("cpu-jdk25.jfr", [], {}),
    ("cpu-jdk25.jfr", ["--exclude-events", "jdk.ExecutionSample"],
     {"exclude_events": "jdk.ExecutionSample"}),
    ("multi-jdk25.jfr", ["--include-categories", "GC,OS", "--exclude-threads", "C2*"],
     {"include_categories": ["GC", "OS"], "exclude_threads": "C2*"}),
    ("multi-jdk25.jfr", ["--from", "1s", "--to", "2s"], {"start": "1s", "end": "2s"}),
    ("io-jdk25.jfr", ["--include-threads", "main", "--include-events", "jdk.*"],
     {"include_threads": "main", "include_events": "jdk.*"}),
    (os.path.join("..", "writer", "secret-jdk25.jfr"),
     ["--redact", "--redact-field", "java.lang.Thread.javaName=^C"],
     {"redact": True, "redact_fields": ["java.lang.Thread.javaName=^C"]}),
]
for name, args, kw in CASES:
    src = os.path.join(rec, name)
    out = os.path.join(tmp, "cli.jfr")
    p = jfrtest.run("scrub", *args, src, out)
    said = {}
    for line in p.stderr.decode().splitlines():
        if line.startswith("jfrtool: scrub: redacted "):
            words = line.split()
            said[words[-1]] = int(words[3])
    want = open(out, "rb").read()
    got = jfr.scrub(src, **kw)
    check(got.data == want, "%s %s: jfr.scrub's bytes are not jfrtool's" % (name, args))
    check(got.redacted == said, "%s: redacted %s, jfrtool said %s" % (name, got.redacted, said))
    pyout = os.path.join(tmp, "py.jfr")
    got2 = jfr.scrub(jfr.open(src), pyout, **kw)
    check(open(pyout, "rb").read() == want and got2.data is None,
          "%s %s: jfr.scrub to a file differs" % (name, args))
    check(got.chunks >= 1 and got.events > 0, "%s: nothing written" % name)

try:
    jfr.scrub(os.path.join(rec, "cpu-jdk25.jfr"), exclude_events="ExecutionSampl")
    check(False, "an unknown event type did not raise")
except jfr.UnknownEventTypeError as e:
    check("jdk.ExecutionSample" in str(e), "no suggestion in %s" % e)
try:
    jfr.scrub(os.path.join(rec, "cpu-jdk25.jfr"), redact_fields=["jdk.Foo.bar=("])
    check(False, "a bad regex did not raise")
except jfr.InvalidError:
    pass

# ---- a recording built by hand -------------------------------------------------------
START = 1795311805000000000
w = jfr.Writer()
w.declare("my.types.Frame", None, [("name", "java.lang.String"), ("line", "int")])
w.declare("my.types.Who", None, [("name", "java.lang.String"), ("age", "short"),
                                 ("frames", "my.types.Frame", "array")])
w.declare("my.Hello", "jdk.jfr.Event",
          [("startTime", "long", {"jdk.jfr.Timestamp": "TICKS", "jdk.jfr.Label": "Start"}),
           ("message", "java.lang.String"), ("who", "my.types.Who", "pooled"),
           ("ratio", "double"), ("small", "float"), ("flag", "boolean"), ("b", "byte"),
           ("c", "char"), ("text", "java.lang.String")],
          label="Hello", category=["My App", "Greetings"])
events = []
for c in range(2):
    with w.chunk(start_nanos=START + c * 10**9, start_ticks=1000, ticks_per_second=10**6):
        w.entry("my.types.Who", 7, {"name": "Ann é中", "age": 41 + c,
                                    "frames": [{"name": "f%d" % i, "line": -i}
                                               for i in range(3)]})
        w.entry("my.types.Who", 7, {"name": "ignored", "age": 1})  # the first is kept
        for i in range(5):
            v = {"startTime": 1000 + i * 1000, "message": "hi %d" % i, "who": 7,
                 "ratio": i / 3, "small": 0.5, "flag": i % 2, "b": -3, "c": 65,
                 "text": None if i == 2 else ("" if i == 3 else "x" * (i * 40))}
            w.event("my.Hello", v)
            events.append((c, v))
try:
    w.event("my.Hello", {"message": 5})
    check(False, "an event outside a chunk did not raise")
except jfr.Error:
    pass
w.close()
built = w.getvalue()
path = os.path.join(tmp, "built.jfr")
open(path, "wb").write(built)
r = jfr.open(built, strict=True)
got = [(e.chunk_index if hasattr(e, "chunk_index") else None, e.to_dict())
       for e in r.events("Hello")]
check(len(got) == 10, "%d events read back, 10 written" % len(got))
for (c, v), (_, d) in zip(events, got):
    check(d["startTime"] == START + c * 10**9 + (v["startTime"] - 1000) * 1000,
          "startTime %s for %s" % (d["startTime"], v))
    check(d["message"] == v["message"] and d["text"] == v["text"], "strings: %s" % d)
    check(d["who"]["name"] == "Ann é中" and d["who"]["age"] == 41 + c, "pool entry: %s" % d)
    check([f["line"] for f in d["who"]["frames"]] == [0, -1, -2], "array: %s" % d)
    check(abs(d["ratio"] - v["ratio"]) < 1e-12 and d["small"] == 0.5, "floats: %s" % d)
    check(d["flag"] == bool(v["flag"]) and d["b"] == -3, "boolean/byte: %s" % d)
p = jfrtest.run("--strict", "print", "--json", path)
doc = json.loads(p.stdout)
check(len(doc["recording"]["events"]) == 10 and not p.stderr,
      "jfrtool --strict print --json of the built recording")
p = jfrtest.run("print", "--categories", "Greetings", path)
check(p.stdout.decode().count("my.Hello {") == 10, "category of the built type")
# a value of the wrong kind is refused, and names the field
w = jfr.Writer()
w.declare("my.E", "jdk.jfr.Event", [("startTime", "long"), ("n", "int")])
with w.chunk():
    try:
        w.event("my.E", {"startTime": 1, "n": "seven"})
        check(False, "a string for an int field did not raise")
    except (ValueError, jfr.Error):
        pass
print("check-writer: %d failures" % len(failures))
sys.exit(1 if failures else 0)
