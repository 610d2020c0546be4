#!/usr/bin/env python3
"""check-memory.py - memory stays near one chunk's worth, whatever the file
size: the commands that read a recording chunk by chunk give each mapped
chunk's pages back when done, and the walk over chunk headers (--from/--to,
thread counts) gives back what a page fault mapped around each header.

A recording of 64 copies of testdata/recordings/cpu-jdk25.jfr (25 MB) must
not take much more peak memory than one copy: before the fix, folded with
--jobs 1 held 12 MB of file pages per 125 MB of input from the header walk.
Skipped under AddressSanitizer, whose shadow memory says nothing here."""
import os
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
PEAKRSS = os.environ.get("PEAKRSS", "tests/helpers/peakrss")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
ONE = os.path.join(TESTDATA, "recordings", "cpu-jdk25.jfr")
COPIES = 64
MARGIN_KB = 2048  # allocator and page-sharing slack over one copy's peak

COMMANDS = [
    ["folded", "--event", "exec", "--jobs", "1"],
    ["folded", "--event", "exec", "--jobs", "1", "--from", "1s"],
    ["folded", "--event", "cpu", "--jobs", "1"],
    ["summary", "--jobs", "1"],
    ["view", "hot-methods", "--jobs", "1"],
]


def sanitized():
    out = subprocess.run(["nm", JFRTOOL], capture_output=True, text=True).stdout
    return "__asan_init" in out


def peak_kb(args, path):
    """Peak resident memory of `jfrtool ARGS PATH`, in KiB, measured by
    tests/helpers/peakrss (a fork of this interpreter would count its own
    memory)."""
    cmd = [PEAKRSS, JFRTOOL] + args + [path]
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    kib, status = p.stderr.split()[-2:]
    if int(status) != 0:
        print("FAIL: jfrtool %s %s exited %s" % (" ".join(args), path, status))
        sys.exit(1)
    return int(kib)


def main():
    if sanitized():
        print("SKIP: jfrtool is built with AddressSanitizer")
        return 77
    with open(ONE, "rb") as f:
        data = f.read()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="jfr-memory-") as d:
        many = os.path.join(d, "many.jfr")
        with open(many, "wb") as f:
            for _ in range(COPIES):
                f.write(data)
        for args in COMMANDS:
            small, big = peak_kb(args, ONE), peak_kb(args, many)
            ok = big <= small + MARGIN_KB
            print("%s: jfrtool %s: %d KiB for one copy, %d KiB for %d copies" %
                  ("ok" if ok else "FAIL", " ".join(args), small, big, COPIES))
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
