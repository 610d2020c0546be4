#!/usr/bin/env python3
"""check-normalize.py - two runs of one program compare as one (issue 15):

* folded --normalize drops the run-specific part of lambda and hidden-class
  names (Foo$$Lambda.0x0000000029045418 -> Foo$$Lambda), keeping the total;
* diff normalises by default (--no-normalize keeps the names): on two JDK 25
  runs of the same workload, no frame name carries an address;
* diff of a JDK 17 BASE (no CPU-time samples) against a JDK 25 NEW compares
  execution samples on both sides and says so, instead of showing all as new;
* and there (a JDK upgrade, issue 26) JDK 17's hidden-class names
  (Foo$$Lambda$87+0x00007f96b0008c08.494317290, LambdaForm$MH+0x...N) lose
  their number as JDK 25's do: the lambda frames of both sides are one set,
  and the stacks below them match where the JDKs ran the same code."""
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
REC = os.path.join(TESTDATA, "recordings")
RUN_SPECIFIC = re.compile(r"\$\$Lambda(\$\d|[./+]0x)")
# a hidden class's counter, address or number in a frame name
HIDDEN_NUMBER = re.compile(r"(\$\$\w+|LambdaForm\$\w+)(\$\d|[./+]\d)")
WL_LAMBDA = re.compile(r"^wl\.\w+\$\$Lambda")
CHECKS = Checks(verbose=True)
failures = CHECKS.failures
check = CHECKS.check


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
    upgrade(r17, r25)
    return 1 if failures else 0


def lambda_paths(folded):
    """The stacks from the first frame of a workload lambda to the leaf."""
    paths = set()
    for line in folded.splitlines():
        frames = line.rsplit(" ", 1)[0].split(";")
        for i, f in enumerate(frames):
            if WL_LAMBDA.match(f):
                paths.add(";".join(frames[i:]))
                break
    return paths


def upgrade(r17, r25):
    d = jfrtool("diff", r17, r25)
    names = page_names(d.stdout)
    kept = [n for n in names if HIDDEN_NUMBER.search(n)]
    check(d.returncode == 0 and names and not kept,
          "diff JDK 17 vs 25: no hidden-class number or address (%s)" % kept[:3])
    lambdas = [set(n for n in names if WL_LAMBDA.match(n))]
    check(lambdas[0] == {"wl.CpuWorkload$$Lambda.run", "wl.CpuWorkload$$Lambda.work",
                         "wl.Streams$$Lambda.apply", "wl.Streams$$Lambda.test"},
          "diff JDK 17 vs 25: one frame per workload lambda (%s)" % sorted(lambdas[0]))
    p17 = lambda_paths(jfrtool("folded", "--normalize", "--event", "exec", r17).stdout)
    p25 = lambda_paths(jfrtool("folded", "--normalize", "--event", "exec", r25).stdout)
    check(len(p17 & p25) >= 20,
          "folded --normalize, JDK 17 and 25: %d of the %d lambda stacks of 25 in 17"
          % (len(p17 & p25), len(p25)))


if __name__ == "__main__":
    sys.exit(main())
