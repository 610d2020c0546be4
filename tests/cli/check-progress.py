#!/usr/bin/env python3
"""check-progress.py - the progress line (issue 15, design.md §5): shown on
standard error when it is a terminal, never in a pipe, not over output that
streams to the same terminal, and erased before the command's output and
other messages. JFRTOOL_PROGRESS_DELAY_MS=0 shows it from the first chunk
(normally it waits a second) so that a small input exercises it."""
import os
import pty
import shutil
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.join(TESTDATA, "recordings", "cpu-jdk25.jfr")
ERASE = b"\r\x1b[K"
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def read_all(fd):
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other side closed
            return data
        if not chunk:
            return data
        data += chunk


def run(args, stderr_tty=True, stdout_tty=False, delay="0"):
    """jfrtool with standard error (and perhaps standard output) on a
    pseudo terminal; returns (status, stdout bytes, terminal bytes)."""
    env = dict(os.environ)
    if delay is None:
        env.pop("JFRTOOL_PROGRESS_DELAY_MS", None)
    else:
        env["JFRTOOL_PROGRESS_DELAY_MS"] = delay
    master, slave = pty.openpty()
    out_target = slave if stdout_tty else subprocess.PIPE
    err_target = slave if stderr_tty else subprocess.PIPE
    p = subprocess.Popen([JFRTOOL] + args, stdout=out_target, stderr=err_target,
                         stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    if stdout_tty:
        terminal = read_all(master)
        out = b""
        err = p.stderr.read() if p.stderr else b""
    else:
        # read the pipe to its end first; the terminal's few lines fit its buffer
        out = p.stdout.read()
        terminal = read_all(master)
        err = p.stderr.read() if p.stderr else b""
    p.wait(timeout=60)
    os.close(master)
    return p.returncode, out, terminal if stderr_tty else err


def main():
    tmp = tempfile.mkdtemp(prefix="jfr-progress.")
    try:
        data = open(REC, "rb").read()
        multi = os.path.join(tmp, "six-chunks.jfr")
        with open(multi, "wb") as f:
            f.write(data * 6)
        name = multi.encode()

        for args in (["summary", "--jobs", "1", multi], ["summary", "--jobs", "2", multi],
                     ["folded", "--jobs", "2", multi], ["leaks", multi],
                     ["view", "events-by-count", multi], ["view", "recording", multi]):
            rc, out, term = run(args)
            what = " ".join(args[:-1])
            check(rc == 0 and out, f"{what}: runs ({rc})")
            check(b"\rjfrtool: " + args[0].encode() + b": " + name + b": " in term,
                  f"{what}: progress names the command and the file: {term[:120]!r}")
            check(b"chunks" in term and b"MB" in term, f"{what}: bytes and chunks done")
            check(term.endswith(ERASE), f"{what}: the line is erased at the end: {term[-40:]!r}")

        # print streams: over the same terminal, no progress; to a file, progress
        rc, out, term = run(["print", "--events", "jdk.CPULoad", multi], stdout_tty=True)
        check(rc == 0 and b"jdk.CPULoad" in term, "print to the terminal: runs")
        check(b" chunks\x1b[K" not in term, "print to the terminal: no progress over its output")
        rc, out, term = run(["print", "--events", "jdk.CPULoad", multi])
        check(rc == 0 and b"jdk.CPULoad" in out and b" chunks\x1b[K" in term,
              "print to a pipe with standard error on a terminal: progress")

        # never in a pipe
        rc, out, err = run(["summary", multi], stderr_tty=False)
        check(rc == 0 and err == b"", f"standard error a pipe: nothing on it: {err[:80]!r}")
        # short work: nothing (the real delay is a second)
        rc, out, term = run(["summary", REC], delay=None)
        check(rc == 0 and b"chunks" not in term, f"under a second: no progress: {term[:80]!r}")

        # a warning erases the line first, and starts a line of its own
        cut = os.path.join(tmp, "cut.jfr")
        with open(cut, "wb") as f:
            f.write(data * 3 + data[:len(data) // 2])
        rc, out, term = run(["summary", "--jobs", "1", cut])
        warn = term.find(b"jfrtool: summary: " + cut.encode() + b": chunk 3")
        check(warn > 0 and term[:warn].endswith(ERASE),
              f"a warning erases the progress line first: {term[max(0, warn - 30):warn + 20]!r}")
    finally:
        shutil.rmtree(tmp)
    if failures:
        print(f"FAIL: {len(failures)} checks")
        return 1
    print("PASS: progress line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
