#!/usr/bin/env python3
"""Naming event types in the jfr package (issue 26): rec.events() takes
short names, globs, comma lists and categories, as JDK 25's jfr print
--events/--categories and jfrtool print do (the events counted by type
equal jfrtool's); a name that selects no type of the recording raises
UnknownEventTypeError (a jfr.Error) with the nearest names, never yields
nothing, unless it names a JDK's own event type (jdk.CPUTimeSample in a
JDK 17 recording selects nothing, as in jfr print); jfr.profile() takes a short name and a type that only a later
recording declares (also in jfr.fleet). Before: rec.events("ExecutionSample") and
rec.events("jdk.NoSuchType") both yielded 0 events."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

jfr = jfrtest.setup()
rec_dir = os.path.join(jfrtest.testdata(), "recordings")
cpu25 = os.path.join(rec_dir, "cpu-jdk25.jfr")
cpu17 = os.path.join(rec_dir, "cpu-jdk17.jfr")
CHECKS = Checks(verbose=True)
failures = CHECKS.failures
check = CHECKS.that


def jfrtool_counts(*args):
    """{type: events} that jfrtool print prints for these arguments."""
    out = jfrtest.run("print", *args).stdout.decode("utf-8", "replace")
    counts = {}
    for m in re.finditer(r"^([\w.$]+) \{$", out, re.M):
        counts[m.group(1)] = counts.get(m.group(1), 0) + 1
    return counts


rec = jfr.open(cpu25)
full = sum(1 for _ in rec.events("jdk.ExecutionSample"))
check("a full name", full == 172, full)
short = sum(1 for _ in rec.events("ExecutionSample"))
check("a short name selects what the full name does", short == full, short)

# globs, lists and categories: the types and counts jfrtool print gives
# (tests/cli/filters-vs-jdk.sh compares those with JDK 25's jfr print)
for args, kw in [(("jdk.GC*",), {}), (("*Sample",), {}), ((" CPULoad , ,GCHeap?ummary",), {}),
                 (("CPULoad", "GCHeapSummary"), {}), ((), {"categories": "GC"}),
                 ((), {"categories": "JVM,OS"}), (("CPU*",), {"categories": "OS"})]:
    want = jfrtool_counts(*(["--events", ",".join(args)] if args else []),
                          *(["--categories", kw["categories"]] if kw else []), cpu25)
    got = {}
    for ev in rec.events(*args, **kw):
        got[ev.type] = got.get(ev.type, 0) + 1
    check("events(%s%s) = jfrtool print's" % (", ".join(map(repr, args)),
                                              ", categories=%r" % kw["categories"]
                                              if kw else ""),
          got == want and bool(got), "%d types" % len(got))

# a name that selects nothing raises, before any event, with suggestions
for name, want_sugg in [("jdk.NoSuchType", []), ("ExecutionSampl", ["jdk.ExecutionSample"]),
                        ("jdk.gc*", ["jdk.GCCPUTime", "jdk.GCConfiguration",
                                     "jdk.GCHeapConfiguration"])]:
    try:
        n = sum(1 for _ in rec.events("CPULoad", name))
        check("events(%r) raises" % name, False, "%d events" % n)
    except jfr.UnknownEventTypeError as e:
        check("events(%r) raises UnknownEventTypeError" % name,
              isinstance(e, jfr.Error) and e.item == name and e.suggestions == want_sugg and
              name in str(e), "%s; %s" % (e, e.suggestions))
# a JDK's event type that this recording's JDK lacks is no typo: nothing,
# as in jfr print; its misspelling still raises
rec17 = jfr.open(cpu17)
got = {}
for ev in rec17.events("jdk.CPUTimeSample", "CPULoad"):
    got[ev.type] = got.get(ev.type, 0) + 1
check("events('jdk.CPUTimeSample', 'CPULoad') of JDK 17 = its CPU loads",
      got == jfrtool_counts("--events", "CPULoad", cpu17) and bool(got), got)
try:
    list(rec17.events("jdk.CPUTimeSampl"))
    check("events('jdk.CPUTimeSampl') of JDK 17 raises", False)
except jfr.UnknownEventTypeError as e:
    check("events('jdk.CPUTimeSampl') of JDK 17 raises", e.item == "jdk.CPUTimeSampl", str(e))
try:
    list(rec.events(categories="Gc"))
    check("an unknown category raises", False)
except jfr.UnknownEventTypeError as e:
    check("an unknown category raises, suggesting GC", e.suggestions == ["GC"], str(e))
try:
    list(rec.events(" , "))
    check("an empty filter raises", False)
except jfr.InvalidError as e:
    check("an empty filter is an InvalidError", "empty event type filter" in str(e), str(e))

# a chunk checks against its own types
for chunk in rec.chunks():
    n = sum(1 for _ in chunk.events("CPULoad"))
    check("Chunk.events by short name", n > 0, n)
    try:
        chunk.events("CPULod")
        check("Chunk.events of an unknown name raises", False)
    except jfr.UnknownEventTypeError as e:
        check("Chunk.events of an unknown name raises",
              e.suggestions == ["jdk.CPULoad"], str(e))
    break

check("event_types(pattern)", rec.event_types("jdk.GCPhasePause*") ==
      ["jdk.GCPhasePause", "jdk.GCPhasePauseLevel1", "jdk.GCPhasePauseLevel2",
       "jdk.GCPhasePauseLevel3", "jdk.GCPhasePauseLevel4"], rec.event_types("jdk.GCPhasePause*"))

# profiles: a short name, and a type that only the second recording declares
p = jfr.profile([cpu25], "ExecutionSample")
want = jfr.profile([cpu25], "jdk.ExecutionSample")
check("profile of a short name", p.folded() == want.folded() and p.samples == 172, p.samples)
try:
    jfr.profile([cpu17], "CPUTimeSample")
    check("a type no recording declares raises", False)
except jfr.UnknownEventTypeError as e:
    check("a type no recording declares raises", "CPUTimeSample" in str(e), str(e))
p = jfr.profile([cpu17, cpu25], "CPUTimeSample")
check("a type only a later recording declares is known", p.samples == 365, p.samples)
try:
    jfr.profile([cpu25], "aloc")
    check("a mistyped kind raises", False)
except jfr.UnknownEventTypeError as e:
    check("a mistyped kind suggests the kind", e.suggestions[:1] == ["alloc"], str(e))
try:
    jfr.profile([cpu25], "*Sample")
    check("a name of several types raises", False)
except jfr.InvalidError as e:
    check("a name of several types says which", "names 5 event types" in str(e), str(e))

# jfr.fleet reads each file on its own: a file that lacks the type adds
# nothing when another declares it, and no file declaring it raises (the
# per-file work and the merge, without a cluster: check-fleet.py runs Dask)
import jfr.fleet as fleet  # noqa: E402
parts = [fleet._one(p, "folded", "CPUTimeSample", {}) for p in (cpu17, cpu25)]
res = fleet._result("CPUTimeSample", fleet._merge(*parts), "folded")
want = jfr.profile([cpu17, cpu25], "CPUTimeSample").folded()
check("fleet: a type one file lacks is known from another", res.folded == want,
      sum(res.folded.values()))
try:
    fleet._result("CPUTimeSample", fleet._merge(parts[0]), "folded")
    check("fleet: a type no file declares raises", False)
except jfr.UnknownEventTypeError as e:
    check("fleet: a type no file declares raises", "CPUTimeSample" in str(e), str(e))

if failures:
    jfrtest.fail("%d checks failed: %s" % (len(failures), failures))
print("PASS: event types are named as the JDK's jfr print names them")
