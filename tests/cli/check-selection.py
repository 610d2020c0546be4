#!/usr/bin/env python3
"""check-selection.py - a selection that cannot match is a usage error
(exit 1) naming what the recording has; a valid one that matches nothing
warns and succeeds (issue 15). Each case exited 0 with empty output before."""
import json
import os
import subprocess
import sys

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.join(TESTDATA, "recordings", "cpu-jdk25.jfr")
failures = []

# (arguments, exit status, text stderr must hold, stdout must be non-empty)
CASES = [
    (["folded", "--event", "nope"], 1, "unknown profile kind or event type 'nope'", False),
    (["flame", "--event", "jdk.Nope"], 1,
     "unknown profile kind or event type 'jdk.Nope'", False),
    (["diff", "--event", "nope"], 1, "unknown profile kind or event type 'nope'", False),
    (["folded", "--weight", "nope"], 1, "its integer fields: startTime", False),
    (["folded", "--event", "lock", "--weight", "nope"], 1,
     "jdk.ThreadPark has no integer field 'nope'", False),
    (["folded", "--from", "5s", "--to", "2s"], 1, "is not before", False),
    (["folded", "--event", "jdk.ThreadPark", "--weight", "duration"], 0,
     "no jdk.ThreadPark samples selected", False),
    (["folded", "--event", "io"], 0, "no io samples selected", False),
    (["print", "--events", "Nope"], 1, "unknown event type 'Nope'", False),
    # nothing is printed before the error (issue 26)
    (["print", "--events", "ExecutionSample,Nope"], 1, "unknown event type 'Nope'", False),
    (["print", "--events", "ExecutionSample"], 0, "", True),
]


def json_default_depth():
    """print --json shows 5 frames by default, as JDK 25's jfr print does."""
    p = subprocess.run([JFRTOOL, "print", "--json", "--events", "ExecutionSample", REC],
                       capture_output=True, text=True, timeout=60)
    events = json.loads(p.stdout)["recording"]["events"]
    depths = [len(e["values"]["stackTrace"]["frames"]) for e in events
              if e["values"].get("stackTrace")]
    ok = bool(depths) and max(depths) == 5
    print("%s: print --json: at most 5 frames by default (max %s)" %
          ("ok" if ok else "FAIL", max(depths) if depths else None))
    if not ok:
        failures.append("print --json depth")


def main():
    json_default_depth()
    for args, want, text, output in CASES:
        files = [REC, REC] if args[0] == "diff" else [REC]
        p = subprocess.run([JFRTOOL] + args + files, capture_output=True, text=True,
                           timeout=60)
        ok = p.returncode == want and text in p.stderr and bool(p.stdout) == output
        print("%s: jfrtool %s: exit %d (want %d), %r" %
              ("ok" if ok else "FAIL", " ".join(args), p.returncode, want,
               p.stderr.strip()[:120]))
        if not ok:
            failures.append(args)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
