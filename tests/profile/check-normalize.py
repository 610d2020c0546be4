#!/usr/bin/env python3
"""check-normalize.py - two runs of one program compare as one (issue 15):

* folded --normalize drops the run-specific part of lambda and hidden-class
  names (Foo$$Lambda.0x0000000029045418 -> Foo$$Lambda), keeping the total;
* diff normalises by default (--no-normalize keeps the names): on two JDK 25
  runs of the same workload, no frame name carries an address;
* diff of a JDK 17 BASE (no CPU-time samples) against a JDK 25 NEW compares
  execution samples on both sides and says so, instead of showing all as new."""
import json
import os
import re
import subprocess
import sys

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.join(TESTDATA, "recordings")
RUN_SPECIFIC = re.compile(r"\$\$Lambda(\$\d|[./+]0x)")
failures = []


def check(ok, what):
    print(("ok: " if ok else "FAIL: ") + what)
    if not ok:
        failures.append(what)


def jfrtool(*args):
    return subprocess.run([JFRTOOL] + list(args), capture_output=True, text=True,
                          timeout=60)


def total(folded):
    return sum(int(line.rsplit(" ", 1)[1]) for line in folded.splitlines())


def page_names(html):
    m = re.search(r"^const FLAME = (\{.*\});$", html, re.M)
    return json.loads(m.group(1))["names"] if m else []


def main():
    r25 = os.path.join(REC, "cpu-jdk25.jfr")
    r17 = os.path.join(REC, "cpu-jdk17.jfr")
    plain = jfrtool("folded", "--event", "exec", r25).stdout
    norm = jfrtool("folded", "--normalize", "--event", "exec", r25).stdout
    check(RUN_SPECIFIC.search(plain) is not None, "the recording has run-specific lambda names")
    check(RUN_SPECIFIC.search(norm) is None and "$$Lambda" in norm,
          "folded --normalize: lambdas kept, their addresses dropped")
    check(total(norm) == total(plain) > 0, "folded --normalize keeps the total")
    check(len(norm.splitlines()) <= len(plain.splitlines()), "stacks merge, never split")

    # the same recording on both sides: a diff of a run against itself
    d = jfrtool("diff", "--event", "exec", r25, r25)
    check(d.returncode == 0 and not any(RUN_SPECIFIC.search(n) for n in page_names(d.stdout)),
          "diff normalises by default")
    d = jfrtool("diff", "--no-normalize", "--event", "exec", r25, r25)
    check(any(RUN_SPECIFIC.search(n) for n in page_names(d.stdout)),
          "diff --no-normalize keeps the names")

    d = jfrtool("diff", r17, r25)
    title = re.search(r"<title>(.*)</title>", d.stdout)
    check(d.returncode == 0 and "has no CPU-time samples" in d.stderr and title and
          title.group(1).count("jdk.ExecutionSample") == 2,
          "diff JDK 17 vs 25: execution samples on both sides (%r)" % d.stderr.strip()[-120:])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
