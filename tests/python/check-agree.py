#!/usr/bin/env python3
"""The Python package and jfrtool agree (issue 13): for every test
recording, events per type as `jfrtool summary` counts them, and the folded
profile of every kind as `jfrtool folded --event KIND` prints it; then the
SELECT/SHAPE options on one recording, and several recordings merged."""

import json
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

jfr = jfrtest.setup()
warnings.simplefilter("ignore", jfr.DamagedInputWarning)  # jfrtool warns too


def summary_counts(path):
    out = jfrtest.run("summary", path, check=False)
    counts, table = {}, False
    for line in out.stdout.decode().splitlines():
        if line.startswith("====="):
            table = True
            continue
        parts = line.split()
        if table and len(parts) == 3 and parts[1].isdigit() and int(parts[1]):
            counts[parts[0]] = int(parts[1])
    # records that are not events: the metadata and the checkpoints (named
    # com.oracle.jdk.* in JFR 1.0 files, as the JDK's summary names them)
    for prefix in ("jdk.", "com.oracle.jdk."):
        counts.pop(prefix + "Metadata", None)
        counts.pop(prefix + "Checkpoint", None)
    return counts


def folded(args):
    p = jfrtest.run("folded", *args, check=False)
    return p.returncode, jfrtest.parse_folded(p.stdout)


files = jfrtest.recordings()
if len(files) < 10:
    jfrtest.fail("too few recordings: %s" % files)
kinds = [k["name"] for k in jfr.kinds()]
for k in ("cpu", "exec", "native", "wall", "alloc", "lock", "io", "exceptions"):
    if k not in kinds:
        jfrtest.fail("kind %s missing from jfr.kinds(): %s" % (k, kinds))

compared = nonempty = events_total = 0
for path in files:
    name = os.path.basename(path)
    want = summary_counts(path)
    if not want:
        jfrtest.fail("%s: jfrtool summary counted no events" % name)
    got = {}
    with jfr.open(path) as rec:
        for ev in rec.events():
            got[ev.type] = got.get(ev.type, 0) + 1
        counted = rec.count_events()
    if got != want:
        diff = {k: (got.get(k), want.get(k)) for k in set(got) | set(want)
                if got.get(k) != want.get(k)}
        jfrtest.fail("%s: events per type differ (python, jfrtool): %s" % (name, diff))
    if counted != want:
        jfrtest.fail("%s: count_events() differs from jfrtool summary" % name)
    events_total += sum(got.values())
    for kind in kinds + [None]:
        args = (["--event", kind] if kind else []) + [path]
        rc, want_f = folded(args)
        if rc not in (0, 2):
            continue  # a usage error for this file (jfrtool says why)
        got_f = jfr.profile(path, kind).folded()
        if got_f != want_f:
            only = set(got_f.items()) ^ set(want_f.items())
            jfrtest.fail("%s --event %s: folded differs, e.g. %s"
                         % (name, kind, sorted(only)[:4]))
        compared += 1
        nonempty += bool(want_f)
    print("ok %s: %d events, folded of %d kinds" % (name, sum(got.values()), len(kinds)))

if nonempty < 20:
    jfrtest.fail("only %d non-empty folded profiles compared" % nonempty)

# the SELECT and SHAPE options, on a recording with CPU-time samples
cpu = os.path.join(jfrtest.testdata(), "recordings", "cpu-jdk25.jfr")
variants = [
    ({"lines": True}, ["--lines"]),
    ({"annotate": True}, ["--annotate"]),
    ({"threads": True, "lines": True, "annotate": True},
     ["--threads", "--lines", "--annotate"]),
    ({"thread": "descent.*"}, ["--thread", "descent.*"]),
    ({"include": "wl\\.Descent"}, ["--include", "wl\\.Descent"]),
    ({"exclude": "java\\.util"}, ["--exclude", "java\\.util"]),
    ({"start": "1s"}, ["--from", "1s"]),
    ({"start": "500ms", "end": "1.5s"}, ["--from", "500ms", "--to", "1.5s"]),
    ({"start": "0.25s", "end": "1900000us"}, ["--from", "0.25s", "--to", "1900000us"]),
    ({"weight": "period"}, ["--weight", "period"]),
    ({"weight": "count"}, ["--event", "alloc", "--weight", "count"]),
    ({"normalize": True}, ["--normalize"]),
]
for kw, args in variants:
    kind = "alloc" if "alloc" in args else "cpu"
    rc, want_f = folded((args if "--event" in args else ["--event", kind] + args) + [cpu])
    got_f = jfr.profile(cpu, kind, **kw).folded()
    if rc != 0 or not want_f or got_f != want_f:
        jfrtest.fail("options %s: folded differs from jfrtool %s (rc %d, %d vs %d lines)"
                     % (kw, args, rc, len(got_f), len(want_f)))
    compared += 1
print("ok %d option variants" % len(variants))

# the text itself, byte for byte (libjfr's jfr_profile_folded, as jfrtool
# writes it): kinds and shapes on a few recordings
texts = 0
for path in files[:4]:
    for kind, kw, args in (("exec", {}, []), ("alloc", {"annotate": True}, ["--annotate"]),
                           ("cpu", {"lines": True, "threads": True},
                            ["--lines", "--threads"])):
        p = jfrtest.run("folded", "--event", kind, *args, path, check=False)
        if p.returncode != 0 or not p.stdout:
            continue
        if jfr.profile(path, kind, **kw).folded_text().encode() != p.stdout:
            jfrtest.fail("%s --event %s %s: folded_text() is not jfrtool's output"
                         % (os.path.basename(path), kind, " ".join(args)))
        texts += 1
if texts < 4:
    jfrtest.fail("only %d folded texts compared" % texts)
print("ok %d folded texts byte for byte" % texts)

# several recordings at once, merged
for kind in ("exec", "alloc", "wall"):
    rc, want_f = folded(["--event", kind] + files)
    got_f = jfr.profile(files, kind).folded()
    if not want_f or got_f != want_f:
        jfrtest.fail("all files, --event %s: folded differs" % kind)
    compared += 1
# bytes (a worker's loader) give what the path gives
with open(cpu + ".gz", "rb") as f:
    data = f.read()
if jfr.profile(data, "cpu").folded() != jfr.profile(cpu, "cpu").folded():
    jfrtest.fail("cpu-jdk25.jfr.gz as bytes differs from the plain file")
print("ok: %d folded profiles equal jfrtool's, %d events counted" % (compared, events_total))

# the rules jfr_parse_time, jfr_recording_default_kind and
# jfr_profile_kind_hint give both front ends
start = jfr.open(cpu).start_nanos
iso = jfrtest.run("print", "--json", "--events", "jdk.CPUTimeSample", cpu).stdout
first = json.loads(iso)["recording"]["events"][0]["values"]["startTime"]
rc, want_f = folded(["--event", "cpu", "--from", first, cpu])
if rc != 0 or jfr.profile(cpu, "cpu", start=first).folded() != want_f:
    jfrtest.fail("start=%r (ISO-8601): folded differs from jfrtool's" % first)
if jfr.default_kind(cpu) != "cpu" or jfr.profile(cpu).selection != "cpu":
    jfrtest.fail("cpu-jdk25.jfr: the default kind is not cpu")
exec_only = os.path.join(jfrtest.testdata(), "recordings", "cpu-jdk17.jfr")
if jfr.default_kind(exec_only) != "exec":
    jfrtest.fail("cpu-jdk17.jfr: the default kind is not exec")
corpus = os.path.join(jfrtest.testdata(), "..", "..", "shared", "corpus", "public",
                      "cryostat-recording.jfr")
if os.path.exists(corpus):
    said = jfrtest.run("folded", corpus, check=False).stderr.decode()
    hint = jfr.profile(corpus).hint()
    if not hint or (": " + hint + "\n") not in said:
        jfrtest.fail("cryostat-recording.jfr: hint %r, jfrtool said %r" % (hint, said[:200]))
    print("ok: the hint as jfrtool gives it: %s" % hint)
else:
    print("note: no corpus: the hint of cryostat-recording.jfr not compared")
if jfr.profile(cpu).hint() is not None:
    jfrtest.fail("cpu-jdk25.jfr: a hint where jfrtool gives none")
print("ok: times, the default kind and the hint as jfrtool's")

# a selection that cannot match: both front ends refuse it with the same
# text (jfr_profile_build's refusal), jfrtool with exit status 1
refused = [
    ({"kind": "exec", "weight": "period"}, ["--event", "exec", "--weight", "period"]),
    ({"start": "3s", "end": "1s"}, ["--from", "3s", "--to", "1s"]),
    ({"kind": "jdk.ExecutionSample", "weight": "nope"},
     ["--event", "jdk.ExecutionSample", "--weight", "nope"]),
    ({"start": "soon"}, ["--from", "soon"]),
]
for options, args in refused:
    p = jfrtest.run("folded", *(args + [cpu]), check=False)
    said = p.stderr.decode()
    try:
        jfr.profile(cpu, **options)
        jfrtest.fail("%s: jfr.profile did not refuse it" % options)
    except ValueError as e:
        if p.returncode != 1 or said != "jfrtool: folded: %s\n" % e:
            jfrtest.fail("%s: Python said %r, jfrtool %r (exit %d)"
                         % (options, str(e), said, p.returncode))
print("ok: %d refused selections, the same text from both" % len(refused))
