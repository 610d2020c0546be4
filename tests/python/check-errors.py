#!/usr/bin/env python3
"""Damaged input in Python as in jfrtool (issue 13): for every file of
testdata/corrupt (and a truncated copy of a good recording), jfr.profile
either raises jfr.Error with jfrtool's message (when jfrtool exits 2) or
warns with DamagedInputWarning carrying the same messages as jfrtool's
warnings and gives jfrtool's folded stacks; events and values of damaged
files iterate without crashing; Error carries file, chunk and offset."""

import glob
import os
import sys
import tempfile
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jfrtest  # noqa: E402

jfr = jfrtest.setup()
corrupt = os.path.join(jfrtest.testdata(), "corrupt")
tmp = tempfile.mkdtemp(prefix="jfr-py-errors-")
good = os.path.join(jfrtest.testdata(), "recordings", "cpu-jdk25.jfr")
with open(good, "rb") as f:
    data = f.read()
with open(os.path.join(tmp, "truncated.jfr"), "wb") as f:
    f.write(data[: len(data) * 2 // 3])
files = sorted(glob.glob(os.path.join(corrupt, "*.jfr"))) + [os.path.join(tmp, "truncated.jfr")]
if len(files) < 10:
    jfrtest.fail("too few damaged files")

raised = warned = 0
for path in files:
    name = os.path.basename(path)
    os.chdir(os.path.dirname(path))  # messages name the file as given
    p = jfrtest.run("folded", "--event", "exec", name, check=False)
    prefix = "jfrtool: folded: "
    said = [line[len(prefix):] for line in p.stderr.decode().splitlines()
            if line.startswith(prefix + name + ":")]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = jfr.profile(name, "exec").folded()
            error = None
        except jfr.Error as e:
            error = e
    texts = [str(w.message) for w in caught if issubclass(w.category, jfr.DamagedInputWarning)]
    if p.returncode == 2 and not p.stdout:
        if error is None:
            jfrtest.fail("%s: jfrtool could not read it, Python did not raise" % name)
        if said and said[0] not in texts and said[0] != str(error):
            jfrtest.fail("%s: Python says %r, jfrtool %r" % (name, str(error), said[0]))
        raised += 1
    else:
        if error is not None:
            jfrtest.fail("%s: raised %s where jfrtool read it (status %d)"
                         % (name, error, p.returncode))
        want = jfrtest.parse_folded(p.stdout)
        if got != want:
            jfrtest.fail("%s: folded differs from jfrtool's" % name)
        missing = [s for s in said if s not in texts]
        if missing:
            jfrtest.fail("%s: jfrtool warned %s, Python warned %s" % (name, missing, texts))
        warned += bool(said)
    # whatever happens, iterating every event and value must not crash
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with jfr.open(path) as rec:
                for ev in rec.events():
                    ev.to_dict()
        except jfr.Error:
            pass
    # strict mode turns the warnings into exceptions
    if texts:
        try:
            with jfr.open(name, strict=True) as rec:
                prof = jfr.Profile("exec")
                prof.add(rec)
            jfrtest.fail("%s: strict=True did not raise" % name)
        except jfr.Error as e:
            if e.file != name or not e.message:
                jfrtest.fail("%s: the error lacks its file: %r" % (name, e))
    print("ok %s: %s" % (name, "raised" if error else "%d warnings" % len(texts)))

if raised < 3 or warned < 3:
    jfrtest.fail("expected several failures and several warnings: %d, %d" % (raised, warned))

# the fields of an error
try:
    jfr.open(os.path.join(corrupt, "bad-magic.jfr"))
    jfrtest.fail("bad-magic.jfr opened")
except jfr.FormatError as e:
    if e.code != -4 or e.chunk != -1 or "magic" not in e.message or not e.name:
        jfrtest.fail("FormatError fields: %r" % vars(e))
try:
    with jfr.open(os.path.join(corrupt, "event-size-past-end.jfr"), strict=True) as rec:
        for ev in rec.events():
            pass
    jfrtest.fail("event-size-past-end.jfr iterated in strict mode")
except jfr.CorruptError as e:
    if e.chunk != 0 or e.offset <= 0:
        jfrtest.fail("CorruptError without chunk and offset: %r" % vars(e))
try:
    jfr.open(b"")
    jfrtest.fail("empty bytes opened")
except jfr.Error:
    pass
try:
    jfr.open(os.path.join(tmp, "does-not-exist.jfr"))
    jfrtest.fail("a missing file opened")
except jfr.Error as e:
    if not e.sys_errno:
        jfrtest.fail("EIO without errno: %r" % vars(e))
try:
    jfr.profile(good, "no-such-kind")
    jfrtest.fail("an unknown event type was accepted")
except (jfr.Error, ValueError):
    pass
print("ok: %d raised, %d warned as jfrtool" % (raised, warned))
