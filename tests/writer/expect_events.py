#!/usr/bin/env python3
"""expect_events.py - the events of a recording that a scrub should keep,
computed from jfrtool's print --json of it (tests/writer/filters.sh):

    expect_events.py JFRTOOL IN GOT.json threads-in|threads-out GLOB,...
    expect_events.py JFRTOOL IN GOT.json time [--from T] [--to T]

exits 1 (saying why) unless GOT.json, print --json of the scrub's output,
holds exactly those events in order, some but not all of IN's. Threads: an
event's eventThread's javaName matched by a glob (fnmatch, case-sensitive;
no thread matches nothing), as the JDK's scrub. Time: startTime in
[from, to); T is ISO-8601 (UTC) or an offset from the start of the first
chunk header (500ms, 1s, 2m; a bare number is seconds)."""
import fnmatch
import json
import re
import struct
import subprocess
import sys
from datetime import datetime, timezone


def ns(text):
    m = re.match(r"(\d+-\d+-\d+)T(\d+):(\d+):(\d+)(?:\.(\d+))?Z$", text)
    day = datetime.strptime(m.group(1), "%Y-%m-%d").replace(tzinfo=timezone.utc)
    frac = (m.group(5) or "").ljust(9, "0")
    secs = int(day.timestamp()) + int(m.group(2)) * 3600 + int(m.group(3)) * 60
    return (secs + int(m.group(4))) * 10**9 + int(frac)


def offset(text):
    m = re.match(r"(\d+(?:\.\d+)?)(ms|s|m)?$", text)
    return int(float(m.group(1)) * {"ms": 10**6, "s": 10**9, "m": 6 * 10**10,
                                   None: 10**9}[m.group(2)])


def thread(ev):
    t = ev["values"].get("eventThread")
    return t.get("javaName") if isinstance(t, dict) else None


def main():
    tool, src, got_path, mode = sys.argv[1:5]
    events = json.loads(subprocess.run([tool, "print", "--json", src], capture_output=True,
                                       check=True).stdout)["recording"]["events"]
    got = json.load(open(got_path))["recording"]["events"]
    if mode.startswith("threads"):
        globs = sys.argv[5].split(",")
        def match(ev):
            name = thread(ev)
            return name is not None and any(fnmatch.fnmatchcase(name, g) for g in globs)
        want = [e for e in events if match(e) == (mode == "threads-in")]
    else:
        with open(src, "rb") as f:
            start = struct.unpack(">q", f.read(40)[32:40])[0]
        lo = hi = None
        args = sys.argv[5:]
        for opt, val in zip(args[::2], args[1::2]):
            t = ns(val) if "T" in val else start + offset(val)
            if opt == "--from":
                lo = t
            else:
                hi = t
        want = [e for e in events
                if (lo is None or ns(e["values"]["startTime"]) >= lo) and
                (hi is None or ns(e["values"]["startTime"]) < hi)]
    if want != got:
        sys.exit("%d events expected, %d kept" % (len(want), len(got)))
    if not 0 < len(want) < len(events):
        sys.exit("%d of %d events kept: the case shows nothing" % (len(want), len(events)))


if __name__ == "__main__":
    main()
