#!/usr/bin/env python3
"""check-terminal.py - jfrtool on a terminal (issue 15), through a pseudo
terminal of 90 columns: `view` fits the terminal's width as --width would,
and keeps its own default in a pipe; `flame` and `diff` do not pour a page
into the terminal but ask for -o (exit 1); with -o they write the file."""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import tempfile
import termios

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.join(TESTDATA, "recordings", "cpu-jdk25.jfr")
COLUMNS = 90
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def on_terminal(args):
    """Run jfrtool with standard output on a pseudo terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, COLUMNS, 0, 0))
    p = subprocess.Popen([JFRTOOL] + args, stdout=slave, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    return p.returncode, out.decode("utf-8", "replace"), err


def main():
    status, out, _ = on_terminal(["view", "hot-methods", REC])
    widest = max(len(line.rstrip("\r")) for line in out.splitlines())
    piped = subprocess.run([JFRTOOL, "view", "hot-methods", REC], capture_output=True,
                           text=True).stdout
    widest_piped = max(len(line) for line in piped.splitlines())
    check(status == 0 and widest <= COLUMNS < widest_piped,
          "view on a %d-column terminal: %d columns wide (%d in a pipe)" %
          (COLUMNS, widest, widest_piped))
    for cmd in (["flame"], ["diff"]):
        files = [REC, REC] if cmd == ["diff"] else [REC]
        status, out, err = on_terminal(cmd + files)
        check(status == 1 and "-o OUT" in err and "<html" not in out,
              "%s to a terminal: refused with a hint (exit %d)" % (cmd[0], status))
        with tempfile.TemporaryDirectory() as d:
            page = os.path.join(d, "page.html")
            status, _, _ = on_terminal(cmd + ["-o", page] + files)
            check(status == 0 and os.path.getsize(page) > 1000,
                  "%s -o on a terminal writes the file" % cmd[0])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
