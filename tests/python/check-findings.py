#!/usr/bin/env python3
"""Recording.findings() and jfr.findings() (doc/python.md, "Findings")
give `jfrtool rules --json`'s findings: every field of every finding, the
built-in rules on every test recording, and with doc/example.rules (as a
file, and as text) on the seeded, quiet and deoptimization recordings;
several recordings read as one, and a recording from bytes. A wrong rule
raises jfr.RuleError naming its line and id, as jfrtool says it. Skipped
without an interpreter whose sqlite3 module can load the jfrsql
extension."""

import glob
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402


jfr, _sql = jfrtest.setup_sql()

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = jfrtest.testdata()
TOP = os.environ.get("JFR_TOP_SRCDIR", os.path.join(DATA, ".."))
EXAMPLE = os.path.join(TOP, "doc", "example.rules")
CHECKS = Checks()
failures = CHECKS.failures
check = CHECKS.that


def tool(paths, rules_file=None):
    args = [JFRTOOL, "rules", "--json"] + (["--rules", rules_file] if rules_file else []) + paths
    out = subprocess.run(args, capture_output=True, text=True).stdout
    return json.loads(out)["findings"]


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and math.isclose(a, b, rel_tol=1e-12)
    return a == b


def compare(what, mine, theirs):
    check("%s: %d findings, jfrtool %d" % (what, len(mine), len(theirs)), len(mine) == len(theirs))
    fields = [("id", "id"), ("rule", "rule"), ("severity", "severity"), ("title", "title"),
              ("evidence", "evidence"), ("value", "value"), ("threshold", "threshold"),
              ("at_nanos", "atNanos"), ("subject", "subject"), ("link", "link"),
              ("source", "source")]
    for m, t in zip(mine, theirs):
        for mk, tk in fields:
            check("%s: %s of %s: %r, jfrtool %r" % (what, mk, t["id"], m[mk], t[tk]),
                  same(m[mk], t[tk]))


recs = sorted(p for p in glob.glob(os.path.join(DATA, "recordings", "*.jfr*"))
              if not p.endswith(".jfc"))
recs += sorted(glob.glob(os.path.join(DATA, "report", "*.jfr")) +
               glob.glob(os.path.join(DATA, "rules", "*.jfr")))
fired = 0
for path in recs:
    name = os.path.basename(path)
    if name.startswith("unfinished"):
        continue  # damaged: jfrtool adds "Recording damaged", the SQL side cannot know
    with jfr.open(path) as rec:
        mine = rec.findings()
    theirs = tool([path])
    fired += len(theirs)
    compare(name, mine, theirs)

seeded = os.path.join(DATA, "report", "seeded-jdk25.jfr")
quiet = os.path.join(DATA, "report", "quiet-jdk25.jfr")
deopt = os.path.join(DATA, "rules", "deopt-jdk25.jfr")
with open(EXAMPLE, encoding="utf-8") as f:
    example_text = f.read()
for path in (seeded, quiet, deopt):
    name = os.path.basename(path)
    theirs = tool([path], EXAMPLE)
    compare(name + " with example.rules", jfr.open(path).findings(rules_file=EXAMPLE), theirs)
    as_text = jfr.findings(path, rules=example_text)
    check(name + ": rules as text name their source (rules)",
          [f["source"] for f in as_text if f["source"] != "built-in"] ==
          [t["source"].replace(EXAMPLE, "(rules)") for t in theirs if t["source"] != "built-in"])
# several recordings as one, and one from bytes
compare("seeded + quiet", jfr.findings([seeded, quiet]), tool([seeded, quiet]))
with open(seeded, "rb") as f:
    compare("seeded from bytes", jfr.open(f.read()).findings(), tool([seeded]))

# a wrong rule
try:
    jfr.findings(quiet, rules="[typo]\ntitle = T\nevidence = E\n"
                              "query = SELECT count(*) AS n FROM \"jdk.NoSuchEvent\"\n")
    check("a wrong rule raises", False)
except jfr.RuleError as e:
    check("RuleError names the rule and its line", str(e).startswith(
        "(rules):1: rule \"typo\": query: no such table: jdk.NoSuchEvent"), str(e))
    check("RuleError is an InvalidError and a ValueError",
          isinstance(e, jfr.InvalidError) and isinstance(e, ValueError))
try:
    jfr.findings(os.path.join(DATA, "corrupt", "bad-magic.jfr"))
    check("an unreadable recording raises", False)
except jfr.Error as e:
    check("an unreadable recording raises jfr.Error", not isinstance(e, jfr.RuleError), str(e))

check("some findings were compared", fired >= 10, str(fired))
print("%s: findings of %d recordings against jfrtool rules, %d failures" %
      ("FAIL" if failures else "PASS", len(recs), len(failures)))
sys.exit(1 if failures else 0)
