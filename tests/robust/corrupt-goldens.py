#!/usr/bin/env python3
"""corrupt-goldens.py - every testdata/corrupt/NAME.jfr (one defect each,
made by make-corrupt.py) must make `jfrtool summary` print the first
error line in NAME.err (the file's path shown as NAME.jfr) and exit with
status 0 or 2, never a signal. UPDATE_GOLDEN=1 rewrites the .err files."""
import os
import sys

from robustlib import fail, finish, run, TESTDATA

FOLDER = os.path.join(TESTDATA, "corrupt")


def first_error_line(path, err):
    for line in err.splitlines():
        if line.strip():
            return line.replace(path, os.path.basename(path))
    return "(no error)"


def main():
    names = sorted(n for n in os.listdir(FOLDER) if n.endswith(".jfr"))
    if not names:
        fail("no recordings in " + FOLDER)
    update = os.environ.get("UPDATE_GOLDEN") == "1"
    for name in names:
        path = os.path.join(FOLDER, name)
        status, _, err = run(["summary"], path)
        got = "%s\nstatus %s\n" % (first_error_line(path, err), status)
        golden = path[:-4] + ".err"
        if update:
            with open(golden, "w") as f:
                f.write(got)
            continue
        try:
            with open(golden) as f:
                want = f.read()
        except OSError:
            fail("%s: no %s (make it with UPDATE_GOLDEN=1)" % (name, os.path.basename(golden)))
            continue
        if got != want:
            fail("%s:\n  expected %r\n  got      %r" % (name, want, got))
    finish("corrupt goldens", len(names))


if __name__ == "__main__":
    sys.exit(main())
