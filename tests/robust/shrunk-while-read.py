#!/usr/bin/env python3
"""shrunk-while-read.py - a file cut shorter by another process while
jfrtool reads it ends the command with a message and exit status 2, not
a crash (SIGBUS with a core dump): jfrtool maps regular files, and a page
past the new end of a mapped file cannot be read.

`print` streams what it reads, so once its first bytes arrive and the pipe
is left full, most of the file is still unread; the file is then cut to
nothing, which makes every page of the mapping unreadable."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from robustlib import JFRTOOL, fail, finish, read, scratch  # noqa: E402

MESSAGE = "an input file was cut shorter by another process while it was read"


def cut_while_printing(path, data, args):
    with open(path, "wb") as f:
        f.write(data)
    p = subprocess.Popen([JFRTOOL] + args + [path], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    if not p.stdout.read(1):
        fail("%s: no output before the cut" % " ".join(args))
    os.truncate(path, 0)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("%s: hung after the file was cut" % " ".join(args))
        return
    err = err.decode(errors="replace")
    want = "jfrtool: print: " + MESSAGE
    if p.returncode != 2 or want not in err:
        fail("%s: exit %d, want 2 and %r in %r" % (" ".join(args), p.returncode, want, err))


def main():
    path = os.path.join(scratch(), "shrinking.jfr")
    data = read("multi-jdk25.jfr")
    cut_while_printing(path, data, ["print"])
    cut_while_printing(path, data, ["print", "--json"])
    finish("shrunk-while-read", 2)


if __name__ == "__main__":
    main()
