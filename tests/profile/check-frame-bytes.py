#!/usr/bin/env python3
"""check-frame-bytes.py - profiles read the JDK's stack frames by their
bytes (libjfr/profile_chunk.c, jdk_frame_ids): a frame met before takes
its id without being decoded. tests/robust/jfrmake's "frame-bytes" holds
frames of every length the layout takes (a nine-byte method key whose last
byte has its top bit set, a frame of 19 bytes, short ones) repeated within
stacks and across them in other orders. Its folded stacks, with lines and
without, in one thread and in several, must be the ones built here from
`jfrtool print --json`, which decodes every frame by the generic reader.

Needs JFRTOOL and JFRMAKE (set by Makefile.am). Exit 0 pass, 1 fail."""
import collections
import json
import os
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
JFRMAKE = os.environ.get("JFRMAKE", "tests/robust/jfrmake")


def from_json(path, lines):
    out = subprocess.run([JFRTOOL, "print", "--json", "--stack-depth", "64",
                          "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    stacks = collections.Counter()
    for event in json.loads(out)["recording"]["events"]:
        trace = event["values"]["stackTrace"]
        if not trace or not trace["frames"]:
            stacks["[no_stack_trace]"] += 1
            continue
        names = []
        for frame in reversed(trace["frames"]):
            method = frame["method"]
            if not method:
                name = "[unknown]"
            else:
                name = method["type"]["name"].replace("/", ".") + "." + method["name"]
            if lines and frame["lineNumber"] >= 0:
                name += ":%d" % frame["lineNumber"]
            names.append(name)
        stacks[";".join(names)] += 1
    return stacks


def folded(path, *args):
    out = subprocess.run([JFRTOOL, "folded", "--event", "exec", *args, path],
                         capture_output=True, text=True, check=True).stdout
    stacks = collections.Counter()
    for line in out.splitlines():
        stack, count = line.rsplit(" ", 1)
        stacks[stack] += int(count)
    return stacks


def main():
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "frame-bytes.jfr")
        subprocess.run([JFRMAKE, "frame-bytes", path], check=True)
        for lines in (True, False):
            want = from_json(path, lines)
            for jobs in ("1", "2"):
                args = (["--lines"] if lines else []) + ["--jobs", jobs]
                got = folded(path, *args)
                ok = got == want and len(want) >= 6
                print(("ok: " if ok else "FAIL: ") + "folded " + " ".join(args) +
                      " (%d stacks)" % len(want))
                if not ok:
                    failures += 1
                    for s in sorted(set(want) | set(got)):
                        if want[s] != got[s]:
                            print("    %s: print --json %d, folded %d" % (s, want[s], got[s]))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
