#!/usr/bin/env python3
"""check-top.py - `jfrtool top` on a real JVM (FollowWorkload.java, a few
seconds): under a pseudo-terminal, the screen shows the workload's hottest
method within 3 seconds of top's start, the keys switch the kind and pause,
`q` quits with exit status 0 and the terminal is given back (the alternate
screen left, the cursor shown, the terminal's modes as they were); in a
pipe, top prints a plain table per interval. Skips (77) when no JDK 14+ is
found."""
import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import termios
import time

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import livejvm  # noqa: E402

HOT = b"FollowWorkload.burnFollowHot"
check = livejvm.check


class Screen:
    """jfrtool top with its standard input and output on a terminal."""

    def __init__(self, args):
        self.master, slave = pty.openpty()
        os.set_blocking(self.master, False)
        import fcntl
        import struct
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 140, 0, 0))
        self.modes = termios.tcgetattr(slave)
        self.slave = slave
        env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TZ="UTC")
        self.p = subprocess.Popen([livejvm.JFRTOOL, "top"] + args, stdin=slave, stdout=slave,
                                  stderr=slave, env=env)
        self.out = b""

    def read(self, seconds):
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([self.master], [], [], 0.05)
            if r:
                try:
                    self.out += os.read(self.master, 65536)
                except OSError:
                    return

    def wait_for(self, what, seconds):
        """Seconds until `what` is on the screen after the output so far, or None."""
        start, mark = time.time(), len(self.out)
        while time.time() - start < seconds:
            self.read(0.05)
            if what in self.out[mark:]:
                return time.time() - start
        return None

    def key(self, k):
        os.write(self.master, k)


def run(java, javac, major):
    classes = livejvm.compile_workload(javac)
    tmp = tempfile.mkdtemp(prefix="jfr-follow-top.")
    try:
        jvm = livejvm.start_jvm(java, classes, tmp, 12)
        chunk = livejvm.wait_for_chunk(tmp, jvm, 69)
        check(chunk is not None, "the JVM (Java %d) flushed its first chunk" % major)
        if chunk is None:
            return
        repo = os.path.dirname(chunk)
        s = Screen([repo])
        took = s.wait_for(HOT, 3)
        check(took is not None, "the hottest method is on the screen within 3 s (%s s)"
              % ("%.2f" % took if took is not None else "not"))
        check(b"\x1b[?1049h" in s.out and b"\x1b[?25l" in s.out,
              "the alternate screen, the cursor hidden")
        s.key(b"a")
        check(s.wait_for(b"alloc: allocated bytes", 2) is not None, "a: the alloc kind")
        s.key(b"p")
        check(s.wait_for(b"[paused]", 2) is not None, "p: paused")
        s.key(b"c")
        check(s.wait_for(b"cpu: ", 2) is not None, "c: back to cpu")
        s.key(b"q")
        try:
            rc = s.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            s.p.kill()
            rc = "still running"
        s.read(0.3)
        check(rc == 0, "q quits with exit status 0 (%s)" % rc)
        check(s.out.rstrip().endswith(b"\x1b[?25h\x1b[?1049l"),
              "the terminal is given back at the end: %r" % s.out[-40:])
        check(termios.tcgetattr(s.slave) == s.modes, "the terminal's modes are as they were")
        os.close(s.slave)
        os.close(s.master)

        # a pipe: plain tables
        p = subprocess.run([livejvm.JFRTOOL, "top", "--iterations", "2", "--top", "5", repo],
                           capture_output=True, timeout=30)
        tables = p.stdout.split(b"\n\n")
        check(p.returncode == 0 and len([t for t in tables if t.strip()]) == 2,
              "in a pipe: a table per interval, two of them (%d)" % p.returncode)
        check(all(HOT in t for t in tables if t.strip()) and b"\x1b" not in p.stdout,
              "plain tables name the hottest method, with no escapes")
        jvm.kill()
        jvm.wait()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    java, javac, major = livejvm.find_jdk()
    run(java, javac, major)
    return livejvm.finish("jfrtool top")


if __name__ == "__main__":
    sys.exit(main())
