#!/usr/bin/env python3
"""Folded stacks from the JDK's own `jfr print --json` output: the oracle for
`jfrtool folded` (design.md §3 "Folded stacks").

    folded-from-jdk.py [--threads] [--lines] EVENT R.print.json.gz > R.folded-EVENT.txt

EVENT is a profile kind below or a full event type name (counted). A kind
sums several event types per stack, each by a weight field or by count:

    exec        jdk.ExecutionSample, count
    cpu         jdk.CPUTimeSample, count
    native      jdk.NativeMethodSample, count
    wall        exec and native together
    alloc       jdk.ObjectAllocationSample by `weight` (bytes); when the JSON
                holds none of those (JDK 11-15), jdk.ObjectAllocationInNewTLAB
                and OutsideTLAB by `allocationSize`
    lock        jdk.JavaMonitorEnter and jdk.ThreadPark by `duration` (ns)
    wait        jdk.JavaMonitorWait by `duration` (ns)
    io          jdk.SocketRead/SocketWrite/FileRead/FileWrite by `duration` (ns)
    exceptions  jdk.JavaExceptionThrow and jdk.JavaErrorThrow, count

This table is written from the JDK's event definitions, independently of
libjfr's (libjfr/profile_kinds.c); the tests compare the two. Frames are
`package.Class.method` (class names with every '/' made a '.'), root first,
joined by ';', then a space and the sample count (alloc: the sum of the
`weight` field, in bytes). Samples without a stack trace count on
`[no_stack_trace]`. Spaces and ';' inside a frame (synthetic ones too)
become '_'. Lines are sorted
by their UTF-8 bytes. Written independently of libjfr, from the JSON only.
"""
import collections
import gzip
import json
import re
import sys

KINDS = {
    "exec": {"jdk.ExecutionSample": None},
    "cpu": {"jdk.CPUTimeSample": None},
    "native": {"jdk.NativeMethodSample": None},
    "wall": {"jdk.ExecutionSample": None, "jdk.NativeMethodSample": None},
    "alloc": {"jdk.ObjectAllocationSample": "weight"},
    "lock": {"jdk.JavaMonitorEnter": "duration", "jdk.ThreadPark": "duration"},
    "wait": {"jdk.JavaMonitorWait": "duration"},
    "io": {"jdk.SocketRead": "duration", "jdk.SocketWrite": "duration",
           "jdk.FileRead": "duration", "jdk.FileWrite": "duration"},
    "exceptions": {"jdk.JavaExceptionThrow": None, "jdk.JavaErrorThrow": None},
}
TLAB = {"jdk.ObjectAllocationInNewTLAB": "allocationSize",
        "jdk.ObjectAllocationOutsideTLAB": "allocationSize"}
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


def main(argv):
    threads = "--threads" in argv
    lines = "--lines" in argv
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    sources = KINDS.get(args[0], {args[0]: None})
    opener = gzip.open if args[1].endswith(".gz") else open
    with opener(args[1], "rt", encoding="utf-8") as f:
        events = json.load(f)["recording"]["events"]
    if args[0] == "alloc" and not any(ev["type"] in sources for ev in events):
        sources = TLAB
    counts = collections.Counter()
    for ev in events:
        if ev["type"] not in sources:
            continue
        weight_field = sources[ev["type"]]
        values = ev["values"]
        st = values.get("stackTrace")
        frames = (st or {}).get("frames") or []
        stack = [frame_name(fr, lines) for fr in reversed(frames)] or ["[no_stack_trace]"]
        if threads:
            thread = values.get("sampledThread", values.get("eventThread"))
            stack.insert(0, thread_root(thread))
        counts[";".join(stack)] += weight(values[weight_field]) if weight_field else 1
    out = sorted(("%s %d\n" % (k, v)).encode("utf-8") for k, v in counts.items() if v > 0)
    sys.stdout.buffer.write(b"".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
