#!/usr/bin/env python3
"""check-json-lines.py - `print --json-lines` writes the events of `print
--json`, in the same order and with the same values, one JSON object per
line (for log shippers and `print --follow`), for recordings of JDK 17 and
25, JFR 1.0, two JVMs in one file and an unfinished chunk; and the follow
options are checked (one input, not with --json too)."""
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
CHECKS = Checks(verbose=True)
failures = CHECKS.failures
check = CHECKS.check


def run(*args):
    return subprocess.run([JFRTOOL] + list(args), capture_output=True)


def main():
    recs = [os.path.join(TESTDATA, "recordings", n) for n in (
        "concat-17-25.jfr", "cpu-jdk25.jfr", "mini-jfr10.jfr", "unfinished-jdk25.jfr")]
    for rec in recs:
        name = os.path.basename(rec)
        whole = run("print", "--json", rec)
        lines = run("print", "--json-lines", rec)
        check(whole.returncode == lines.returncode and whole.stderr == lines.stderr,
              "%s: the same exit status and messages" % name)
        events = json.loads(whole.stdout)["recording"]["events"]
        text = lines.stdout.decode()
        got = [json.loads(line) for line in text.splitlines()]
        check(got == events and text.endswith("\n") if events else text == "",
              "%s: %d events, one a line, those of --json" % (name, len(got)))
    for args, what in ((["print", "--follow", recs[0], recs[1]], "two inputs"),
                       (["print", "--json", "--json-lines", recs[0]], "--json and --json-lines"),
                       (["folded", "--interval", "5s", recs[0]], "--interval without --follow"),
                       (["folded", "--follow", "--interval", "0s", recs[0]], "a zero interval"),
                       (["summary", "--follow", recs[0], recs[1]], "summary of two inputs"),
                       (["top", "--window", "2m", recs[0]], "a window over a minute")):
        p = run(*args)
        check(p.returncode == 1 and p.stderr.startswith(b"jfrtool: "),
              "usage error: %s (%d)" % (what, p.returncode))
    # following a closed file reads it whole and ends at once
    p = run("print", "--follow", "--json-lines", recs[0])
    q = run("print", "--json-lines", recs[0])
    check(p.returncode == 0 and p.stdout == q.stdout and b"last chunk was closed" in p.stderr,
          "print --follow of a closed file prints it and ends")
    p = run("summary", "--follow", recs[0])
    check(p.returncode == 0 and p.stdout == run("summary", recs[0]).stdout,
          "summary --follow of a closed file is its summary")
    p = run("print", "--follow", "--events", "CPULoadd", recs[1])
    check(p.returncode == 1 and b"did you mean jdk.CPULoad" in p.stderr and not p.stdout,
          "print --follow: an event type the JVM does not declare is a usage error")
    p = run("print", "--follow", "--json-lines", "--events", "CPULoad", recs[1])
    q = run("print", "--json-lines", "--events", "CPULoad", recs[1])
    check(p.returncode == 0 and p.stdout == q.stdout and p.stdout,
          "print --follow --events: the same events as without --follow")
    p = run("print", "--follow", "999999999")
    check(p.returncode == 2 and b"no process 999999999" in p.stderr,
          "a process id that is no process: exit 2, said so (%r)" % p.stderr[-80:])
    if failures:
        print("FAIL: %d checks" % len(failures))
        return 1
    print("PASS: print --json-lines and the follow options")
    return 0


if __name__ == "__main__":
    sys.exit(main())
