#!/usr/bin/env python3
"""check-output.py - output that did not get there is never success.

* Every command writing to a full device (/dev/full) exits 2 and names the
  output; `-o /dev/full` too (a device is written as it is, not replaced).
* `-o OUT` replaces OUT only when everything was read and written: a missing
  input leaves it as it was, and a successful run gives it the content and
  keeps its mode (a file kept private stays private), as writing over it
  would; a new OUT gets the mode a plain create would. OUT is replaced
  by a new file, not written in place: a second name (hard link) of the
  old OUT keeps the old content.
* With SIGPIPE ignored by the caller, a closed pipe still ends the command
  at once (it would otherwise write into the pipe for minutes).
* With standard output closed (`>&-`, as cron and daemons may run it), a
  command writing there exits 2 with one message; one writing to `-o OUT`
  or a named OUT succeeds and OUT is whole (no file opened later may take
  descriptor 1, or stray output would land in it).
* `-o -` is standard output, as a FILE of `-` is standard input: the
  same bytes as without `-o`, and no file named `-` (folded, flame, diff,
  report, and scrub's and repair's OUT)."""
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.abspath(os.path.join(TESTDATA, "recordings", "cpu-jdk25.jfr"))
failures = []

COMMANDS = [["summary"], ["metadata"], ["print"], ["print", "--json"],
            ["view", "hot-methods"], ["leaks"], ["folded"], ["flame"],
            ["flame", "--format", "svg"], ["diff"]]


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def args_for(cmd):
    return cmd + [REC, REC] if cmd == ["diff"] else cmd + [REC]


def full_device():
    if not os.path.exists("/dev/full") or not stat.S_ISCHR(os.stat("/dev/full").st_mode):
        print("skipped: no /dev/full character device")
        return
    for cmd in COMMANDS:
        with open("/dev/full", "w") as out:
            p = subprocess.run([JFRTOOL] + args_for(cmd), stdout=out,
                               stderr=subprocess.PIPE, text=True, timeout=60)
        check(p.returncode == 2 and "(standard output): write error" in p.stderr,
              "%s > /dev/full: exit %d, %r" % (" ".join(cmd), p.returncode,
                                               p.stderr.strip()[-80:]))
    for cmd in (["folded"], ["flame"], ["diff"]):
        p = subprocess.run([JFRTOOL] + cmd + ["-o", "/dev/full"] + args_for(cmd)[len(cmd):],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 2 and "/dev/full: write error" in p.stderr and
              stat.S_ISCHR(os.stat("/dev/full").st_mode),
              "%s -o /dev/full: exit %d, the device left a device" % (cmd[0], p.returncode))


def replace_only_on_success(d):
    for cmd in (["folded"], ["flame"], ["diff"]):
        keep = os.path.join(d, "keep-%s.txt" % cmd[0])
        with open(keep, "w") as f:
            f.write("precious\n")
        files = [REC, "/nonexistent.jfr"] if cmd == ["diff"] else ["/nonexistent.jfr"]
        p = subprocess.run([JFRTOOL] + cmd + ["-o", keep] + files,
                           capture_output=True, text=True, timeout=60)
        with open(keep) as f:
            kept = f.read()
        check(p.returncode == 2 and kept == "precious\n",
              "%s -o OUT with a missing input: exit %d, OUT kept" % (cmd[0], p.returncode))
        os.chmod(keep, 0o600)
        p = subprocess.run([JFRTOOL] + cmd + ["-o", keep] + args_for(cmd)[len(cmd):],
                           capture_output=True, text=True, timeout=60)
        with open(keep, "rb") as f:
            head = f.read(64)
        check(p.returncode == 0 and head != b"precious\n" and len(head) > 0 and
              stat.S_IMODE(os.stat(keep).st_mode) == 0o600,
              "%s -o OUT: exit %d, OUT replaced with mode %o, not its 600" %
              (cmd[0], p.returncode, stat.S_IMODE(os.stat(keep).st_mode)))
        fresh = os.path.join(d, "fresh-%s.txt" % cmd[0])
        p = subprocess.run([JFRTOOL] + cmd + ["-o", fresh] + args_for(cmd)[len(cmd):],
                           capture_output=True, text=True, timeout=60)
        umask = os.umask(0)
        os.umask(umask)
        check(p.returncode == 0 and stat.S_IMODE(os.stat(fresh).st_mode) == 0o666 & ~umask,
              "%s -o NEW: exit %d, mode %o" %
              (cmd[0], p.returncode, stat.S_IMODE(os.stat(fresh).st_mode)))
        other = keep + ".other-name"
        os.link(keep, other)
        with open(keep, "rb") as f:
            before = f.read()
        p = subprocess.run([JFRTOOL] + cmd + ["-o", keep] + args_for(cmd)[len(cmd):],
                           capture_output=True, text=True, timeout=60)
        with open(other, "rb") as f:
            kept = f.read()
        check(p.returncode == 0 and kept == before and os.stat(keep).st_nlink == 1,
              "%s -o OUT with a second name: exit %d, the second name kept the old content" %
              (cmd[0], p.returncode))
        os.unlink(other)
        left = [n for n in os.listdir(d) if n.startswith(os.path.basename(keep) + ".")]
        check(not left, "%s -o OUT: no temporary file left (%s)" % (cmd[0], left))


def ignored_sigpipe(d):
    big = os.path.join(d, "big.jfr")
    with open(REC, "rb") as f:
        data = f.read()
    with open(big, "wb") as f:
        for _ in range(40):
            f.write(data)

    def ignore():
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)

    start = time.monotonic()
    p = subprocess.Popen([JFRTOOL, "print", big], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, preexec_fn=ignore)
    p.stdout.readline()
    p.stdout.close()
    try:
        status = p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        status = None
    check(status is not None and time.monotonic() - start < 20,
          "print | head -1 with SIGPIPE ignored ends at once (status %s, %.1f s)" %
          (status, time.monotonic() - start))


def closed_stdout(d):
    def close_stdout():
        os.close(1)

    def run(args):
        return subprocess.run([JFRTOOL] + args, stdin=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, timeout=60,
                              preexec_fn=close_stdout)

    for cmd in (["summary", REC], ["folded", REC], ["scrub", REC, "-"], ["repair", REC, "-"]):
        p = run(cmd)
        lines = p.stderr.strip().splitlines()
        check(p.returncode == 2 and len(lines) == 1 and "(standard output)" in lines[0],
              "%s >&-: exit %d, one message: %r" % (" ".join(cmd[:1] + cmd[2:]),
                                                    p.returncode, lines))
    out = os.path.join(d, "closed.txt")
    p = run(["folded", "-o", out, REC])
    whole = subprocess.run([JFRTOOL, "folded", REC], capture_output=True).stdout
    with open(out, "rb") as f:
        got = f.read()
    check(p.returncode == 0 and p.stderr == "" and got == whole and got,
          "folded -o OUT >&-: exit %d, %r, OUT whole" % (p.returncode, p.stderr.strip()))
    out = os.path.join(d, "closed.jfr")
    p = run(["scrub", REC, out])
    check(p.returncode == 0 and p.stderr == "" and os.path.getsize(out) > 0,
          "scrub IN OUT >&-: exit %d, %r" % (p.returncode, p.stderr.strip()))


def dash_is_stdout(d):
    tool = os.path.abspath(JFRTOOL) if os.sep in JFRTOOL else JFRTOOL
    cases = [(cmd, cmd + ["-o", "-"]) for cmd in (["folded"], ["flame"], ["diff"], ["report"])]
    cases += [(["scrub"], ["scrub", REC, "-"]), (["repair"], ["repair", REC, "-"])]
    for plain, dash in cases:
        if plain[0] in ("scrub", "repair"):
            named = os.path.join(d, "named.jfr")
            subprocess.run([tool] + plain + [REC, named], capture_output=True, timeout=60)
            with open(named, "rb") as f:
                want = f.read()
            os.unlink(named)
            args = dash
        else:
            want = subprocess.run([tool] + args_for(plain), capture_output=True,
                                  timeout=60).stdout
            args = dash + args_for(plain)[len(plain):]
        p = subprocess.run([tool] + args, cwd=d, capture_output=True, timeout=60)
        check(p.returncode == 0 and p.stdout == want and len(want) > 0 and
              not os.path.lexists(os.path.join(d, "-")),
              "%s: '-' is standard output (exit %d, %d bytes, %d to a named OUT)" %
              (" ".join(args[:-1]), p.returncode, len(p.stdout), len(want)))


def main():
    full_device()
    with tempfile.TemporaryDirectory(prefix="jfr-output-") as d:
        dash_is_stdout(d)
        replace_only_on_success(d)
        ignored_sigpipe(d)
        closed_stdout(d)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
