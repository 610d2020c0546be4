#!/usr/bin/env python3
"""Folded stacks from the JDK's own `jfr print --json` output: the oracle for
`jfrtool folded` (design.md §3 "Folded stacks").

    folded-from-jdk.py [--threads] [--lines] [--no-class-frames] [--totals]
                       [--out PREFIX] EVENT[,EVENT...] R.print.json.gz

One EVENT: its folded stacks on standard output. Several (a comma list,
one read of the JSON): with --out PREFIX each into PREFIX.folded-EVENT.txt,
with --totals a line "EVENT EVENTS WEIGHT" each.

EVENT is a profile kind below or a full event type name (counted). A kind
reads groups of event types, each by a weight field or by count; of its
groups the first that has an event in the recording is read (the groups
after it are what older JDKs and other producers write instead):

    exec        jdk.ExecutionSample in the running states (STATE_DEFAULT,
                async-profiler's CPU samples; STATE_RUNNABLE); else
                datadog.ExecutionSample (Datadog's profiler), count
    cpu         jdk.CPUTimeSample, count
    native      jdk.NativeMethodSample, count
    wall        profiler.WallClockSample (async-profiler 3+) by `samples`;
                else jdk.ExecutionSample in STATE_RUNNABLE or
                STATE_SLEEPING with jdk.NativeMethodSample, count; else
                every jdk.ExecutionSample; else datadog.MethodSample
    alloc       jdk.ObjectAllocationSample by `weight` (bytes); else
                jdk.ObjectAllocationInNewTLAB by `tlabSize` (the new TLAB)
                and jdk.ObjectAllocationOutsideTLAB by `allocationSize`
    lock        jdk.JavaMonitorEnter and jdk.ThreadPark by `duration` (ns)
    wait        jdk.JavaMonitorWait by `duration` (ns)
    io          jdk.SocketRead/SocketWrite/FileRead/FileWrite by `duration` (ns)
    exceptions  jdk.JavaExceptionThrow (every Throwable, where it is on);
                else jdk.JavaErrorThrow, count

The JSON names no chunk and jdk.ActiveSetting names event types by id, so
the group is chosen per file from the events present; the test recordings
have an event in every group that is on.

lock, wait and alloc stacks end with a class frame (unless
--no-class-frames): the monitor's class (`monitorClass`), the parked
object's (`parkedClass`) or the allocated class (`objectClass`), named as
Java writes it (`java.lang.Object[]`, `byte[]`); none when the field is
null.

This table is written from the JDK's event definitions and async-profiler's
documentation, independently of libjfr's (libjfr/profile_kinds.c); the
tests compare the two. Frames are `package.Class.method` (class names with
every '/' made a '.'), root first, joined by ';', then a space and the
sample count (or the sum of the weights). Samples without a stack trace
count on `[no_stack_trace]`. Spaces and ';' inside a frame (synthetic ones
too) become '_'. Lines are sorted by their UTF-8 bytes. With --totals (one
EVENT), one line "EVENTS WEIGHT" instead: the events read and the sum of
their weights (each event's weight, negative durations counted as 0).
Written independently of libjfr, from the JSON only.
"""
import collections
import gzip
import json
import re
import sys

RUNNING = ("STATE_DEFAULT", "STATE_RUNNABLE")
WALL_CLOCK = ("STATE_RUNNABLE", "STATE_SLEEPING")
# kind -> groups; a group maps an event type to (weight field, states kept
# or None for all, class field or None)
KINDS = {
    "exec": [{"jdk.ExecutionSample": (None, RUNNING, None)},
             {"datadog.ExecutionSample": (None, None, None)}],
    "cpu": [{"jdk.CPUTimeSample": (None, None, None)}],
    "native": [{"jdk.NativeMethodSample": (None, None, None)}],
    "wall": [{"profiler.WallClockSample": ("samples", None, None)},
             {"jdk.ExecutionSample": (None, WALL_CLOCK, None),
              "jdk.NativeMethodSample": (None, None, None)},
             {"jdk.ExecutionSample": (None, None, None)},
             {"datadog.MethodSample": (None, None, None)}],
    "alloc": [{"jdk.ObjectAllocationSample": ("weight", None, "objectClass")},
              {"jdk.ObjectAllocationInNewTLAB": ("tlabSize", None, "objectClass"),
               "jdk.ObjectAllocationOutsideTLAB": ("allocationSize", None, "objectClass")}],
    "lock": [{"jdk.JavaMonitorEnter": ("duration", None, "monitorClass"),
              "jdk.ThreadPark": ("duration", None, "parkedClass")}],
    "wait": [{"jdk.JavaMonitorWait": ("duration", None, "monitorClass")}],
    "io": [{"jdk.SocketRead": ("duration", None, None),
            "jdk.SocketWrite": ("duration", None, None),
            "jdk.FileRead": ("duration", None, None),
            "jdk.FileWrite": ("duration", None, None)}],
    "exceptions": [{"jdk.JavaExceptionThrow": (None, None, None)},
                   {"jdk.JavaErrorThrow": (None, None, None)}],
}
PRIMITIVES = {"B": "byte", "C": "char", "D": "double", "F": "float", "I": "int",
              "J": "long", "S": "short", "Z": "boolean"}
# java.time.Duration.toString(): PT[nH][nM][n.nnnnnnnnnS], may be negative
DURATION = re.compile(r"^PT(?:(-?\d+)H)?(?:(-?\d+)M)?(?:(-?\d+)(?:\.(\d{1,9}))?S)?$")


def weight(value):
    """A weight as an integer: bytes as they are, a duration in ns."""
    if isinstance(value, int):
        return value
    m = DURATION.match(value)
    if not m:
        raise ValueError("not a duration: %r" % value)
    h, mi, sec, frac = m.groups()
    ns = (int(h or 0) * 3600 + int(mi or 0) * 60) * 10**9
    if sec is not None:
        whole = int(sec)
        part = int((frac or "").ljust(9, "0"))
        ns += whole * 10**9 + (-part if sec.startswith("-") else part)
    return ns


def frame_name(frame, lines):
    method = frame.get("method")
    if not method:
        name = "[unknown]"
    else:
        meth = method.get("name") or "[unknown]"
        cls = (method.get("type") or {}).get("name")
        name = cls.replace("/", ".") + "." + meth if cls else meth
    line = frame.get("lineNumber")
    if lines and isinstance(line, int) and line >= 0:
        name += ":%d" % line
    return name.replace(" ", "_").replace(";", "_")


def class_frame(cls):
    """A class as Java writes it: "[[Ljava/lang/String;" is
    "java.lang.String[][]", "[B" is "byte[]"."""
    name = (cls or {}).get("name")
    if not name:
        return None
    depth = len(name) - len(name.lstrip("["))
    elem = name[depth:]
    if depth:
        elem = PRIMITIVES.get(elem) or (elem[1:-1] if elem.startswith("L") else elem)
    return (elem.replace("/", ".") + "[]" * depth).replace(" ", "_").replace(";", "_")


def type_of(ev):
    """The event's type by its name since JDK 11 (JFR 1.0, JDK 9 and 10,
    prefixed the JDK's names with com.oracle.)."""
    name = ev["type"]
    return name[len("com.oracle."):] if name.startswith("com.oracle.jdk.") else name


def kept(values, states):
    return states is None or values.get("state") is None or values["state"] in states


def chosen_group(events, groups):
    """The first group with an event in the recording."""
    for group in groups:
        for ev in events:
            src = group.get(type_of(ev))
            if src and kept(ev["values"], src[1]):
                return group
    return {}


def thread_root(thread):
    thread = thread or {}
    name = thread.get("javaName")
    tid = thread.get("javaThreadId") or 0
    if name is None:
        name = thread.get("osName")
    if tid == 0:
        tid = thread.get("osThreadId") or 0
    if name is None:
        name = "unknown"
    return ("[thread %s tid=%d]" % (name, tid)).replace(" ", "_").replace(";", "_")


def fold(events, kind, threads, lines, classes):
    """(folded lines as bytes, events read, sum of their weights)."""
    groups = KINDS.get(kind, [{kind: (None, None, None)}])
    sources = chosen_group(events, groups)
    counts = collections.Counter()
    read = total = 0
    for ev in events:
        src = sources.get(type_of(ev))
        values = ev["values"]
        if not src or not kept(values, src[1]):
            continue
        weight_field, _, class_field = src
        st = values.get("stackTrace")
        frames = (st or {}).get("frames") or []
        stack = [frame_name(fr, lines) for fr in reversed(frames)] or ["[no_stack_trace]"]
        if threads:
            thread = values.get("sampledThread", values.get("eventThread"))
            stack.insert(0, thread_root(thread))
        if classes and class_field and class_frame(values.get(class_field)):
            stack.append(class_frame(values.get(class_field)))
        w = weight(values[weight_field]) if weight_field else 1
        read += 1
        total += max(w, 0)
        counts[";".join(stack)] += w
    out = sorted(("%s %d\n" % (k, v)).encode("utf-8") for k, v in counts.items() if v > 0)
    return b"".join(out), read, total


def main(argv):
    threads = "--threads" in argv
    lines = "--lines" in argv
    classes = "--no-class-frames" not in argv
    totals = "--totals" in argv
    prefix = None
    if "--out" in argv:
        at = argv.index("--out")
        prefix = argv[at + 1]
        argv = argv[:at] + argv[at + 2:]
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    opener = gzip.open if args[1].endswith(".gz") else open
    with opener(args[1], "rt", encoding="utf-8") as f:
        events = json.load(f)["recording"]["events"]
    kinds = args[0].split(",")
    for kind in kinds:
        text, read, total = fold(events, kind, threads, lines, classes)
        if totals:
            print("%s %d %d" % (kind, read, total) if len(kinds) > 1 else
                  "%d %d" % (read, total))
        elif prefix:
            with open("%s.folded-%s.txt" % (prefix, kind), "wb") as f:
                f.write(text)
        else:
            sys.stdout.buffer.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
