#!/usr/bin/env python3
"""Folded stacks from the JDK's own `jfr print --json` output: the oracle for
`jfrtool folded` (design.md §3 "Folded stacks").

    folded-from-jdk.py [--threads] [--lines] EVENT R.print.json.gz > R.folded-EVENT.txt

EVENT is exec, cpu, native, alloc or a full event type name. Frames are
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
import sys

ALIASES = {
    "exec": ("jdk.ExecutionSample", None),
    "cpu": ("jdk.CPUTimeSample", None),
    "native": ("jdk.NativeMethodSample", None),
    "alloc": ("jdk.ObjectAllocationSample", "weight"),
}


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
    event, weight_field = ALIASES.get(args[0], (args[0], None))
    opener = gzip.open if args[1].endswith(".gz") else open
    with opener(args[1], "rt", encoding="utf-8") as f:
        events = json.load(f)["recording"]["events"]
    counts = collections.Counter()
    for ev in events:
        if ev["type"] != event:
            continue
        values = ev["values"]
        st = values.get("stackTrace")
        frames = (st or {}).get("frames") or []
        stack = [frame_name(fr, lines) for fr in reversed(frames)] or ["[no_stack_trace]"]
        if threads:
            thread = values.get("sampledThread", values.get("eventThread"))
            stack.insert(0, thread_root(thread))
        counts[";".join(stack)] += values[weight_field] if weight_field else 1
    out = sorted(("%s %d\n" % (k, v)).encode("utf-8") for k, v in counts.items() if v > 0)
    sys.stdout.buffer.write(b"".join(out))


if __name__ == "__main__":
    main(sys.argv[1:])
