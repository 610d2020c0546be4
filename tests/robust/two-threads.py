#!/usr/bin/env python3
"""two-threads.py - the writers that take a second thread after the
decoding give the bytes of one thread: --jobs 2 against --jobs 1 on
jfrmake's "many-stacks-70k" (70,000 distinct stacks of 11 frames, one
chunk), large enough for each of them:

- the stack sort in two threads and jfr_stack_order's check of the paths
  in two (32,768 stacks or more: JFR_STACK_ORDER_THREADS_FROM);
- the flame page's node arrays made block by block by two threads
  (65,536 nodes or more: FLAME_TWO_THREADS_FROM; the tree has 105,010),
  forwards, from the leaves, by thread, and on a diff page;
- the report's profiles flattened by two threads and its page stacks'
  frames ("sf") written in blocks of 4,096 stacks by two.

The sizes are checked too, so that the test cannot pass by falling below
the thresholds. (A block dropped or written twice fails it.)"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from robustlib import JFRTOOL, fail, finish, make, sanitized, scratch  # noqa: E402

TIMEOUT = 600 if sanitized() else 120

COMMANDS = [
    ["flame"],
    ["flame", "--reverse"],
    ["flame", "--threads"],
    ["flame", "--format", "svg"],
    ["folded"],
    ["diff"],
    ["report"],
]


def run(args, path, jobs):
    files = [path, path] if args[0] == "diff" else [path]
    p = subprocess.run([JFRTOOL] + args + ["--jobs", str(jobs)] + files,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    return p.returncode, p.stdout, p.stderr


def array_length(page, key):
    """Items of the first JSON array of numbers called `key` in a page."""
    m = re.search(rb'"' + key + rb'":\[([0-9,]*)\]', page)
    return m.group(1).count(b",") + 1 if m and m.group(1) else 0


def main():
    path = make("many-stacks-70k", scratch())
    for args in COMMANDS:
        what = "jfrtool " + " ".join(args)
        one = run(args, path, 1)
        two = run(args, path, 2)
        if one[0] != 0 or two[0] != 0:
            fail("%s: exit %d with --jobs 1, %d with --jobs 2 (%s)" %
                 (what, one[0], two[0], two[2][-200:]))
            continue
        if one[1] != two[1] or one[2] != two[2]:
            fail("%s: --jobs 2 differs from --jobs 1" % what)
            continue
        if args in (["flame"], ["diff"]) and array_length(one[1], b"d") < 65536:
            fail("%s: %d nodes, fewer than two threads take" %
                 (what, array_length(one[1], b"d")))
        if args == ["report"] and array_length(one[1], b"so") < 4 * 4096:
            fail("%s: %d page stacks, fewer than four blocks" %
                 (what, array_length(one[1], b"so")))
        print("ok: %s (%d bytes)" % (what, len(one[1])))
    finish("two threads against one", len(COMMANDS))


if __name__ == "__main__":
    main()
