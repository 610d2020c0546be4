#!/usr/bin/env python3
"""`jfrtool print --xml` and `--exact` against JDK 25's `jfr print --xml`
and `--exact`: XML byte for byte on the synthetic recordings that hold one
value of each form (print-cases.jfr: NaN, infinities, subnormals, nulls, a
lone surrogate, times past 2262; view-cases.jfr: tabs and line breaks in
names and strings), and both by SHA-256 on the test recordings, whose
output is too large to commit (each chunk alone where a file has several;
with --stack-depth 64 and 0). Where a HotSpot symbol holds a character
beyond the BMP the JDK shows two U+FFFD and jfrtool the character
(doc/print-format.md): ours is mapped to the JDK's before hashing.
Regenerate: tests/cli/regen-print-forms.sh. Also: --xml and --format xml
are one, and --xml with --json is refused. Exit 0 pass, 1 fail."""
import hashlib
import os
import re
import struct
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
TOOLS = os.path.join(os.path.dirname(os.path.abspath(JFRTOOL)), "..", "tests")
ENV = dict(os.environ, TZ="UTC", LC_ALL="C")
# a surrogate pair as two references, high then low; a character beyond
# the BMP in UTF-8
PAIR = re.compile(rb"&#(5[5-6]\d{3});&#(5[6-7]\d{3});")
SUPPLEMENTARY = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")
failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def printed(form, path, *opts):
    p = subprocess.run([JFRTOOL, "print", "--" + form, *opts, path], env=ENV,
                       capture_output=True)
    if p.returncode != 0:
        fail("print --%s %s %s: exit status %d: %s"
             % (form, " ".join(opts), path, p.returncode, p.stderr.decode()[-200:]))
    return p.stdout


def xml(path, *opts):
    return printed("xml", path, *opts)


def as_jdk(out):
    def pair(m):
        hi, lo = int(m.group(1)), int(m.group(2))
        ok = 0xD800 <= hi <= 0xDBFF and 0xDC00 <= lo <= 0xDFFF
        return b"&#65533;&#65533;" if ok else m.group(0)
    return SUPPLEMENTARY.sub("\ufffd\ufffd".encode(), PAIR.sub(pair, out))


def chunk(path, index, to):
    data = open(path, "rb").read()
    off = 0
    for k in range(index + 1):
        size = struct.unpack(">q", data[off + 8:off + 16])[0]
        if k == index:
            with open(to, "wb") as f:
                f.write(data[off:off + size])
        off += size


def main():
    with tempfile.TemporaryDirectory() as tmp:
        for gen, name in (("cli/make-print-cases", "print-cases"),
                          ("views/make-view-cases", "view-cases")):
            rec = os.path.join(tmp, name + ".jfr")
            subprocess.run([os.path.join(TOOLS, gen), rec], check=True)
            want = open(os.path.join(TESTDATA, "jdk", name + ".xml"), "rb").read()
            got = xml(rec)
            if got != want:
                at = next(i for i in range(min(len(got), len(want)) + 1)
                          if i == min(len(got), len(want)) or got[i] != want[i])
                fail("%s: differs from jfr print --xml at byte %d: %r / %r"
                     % (name, at, got[at - 40:at + 40], want[at - 40:at + 40]))
        with open(os.path.join(TESTDATA, "jdk", "print-forms.sha256")) as f:
            cases = [line.split() for line in f if line.strip()]
        for case, want in cases:
            form, _, case = case.partition(":")
            name, _, depth = case.partition("?depth=")
            file, _, index = name.partition("#")
            path = os.path.join(TESTDATA, "recordings", file)
            if index:
                chunk(path, int(index), os.path.join(tmp, "chunk.jfr"))
                path = os.path.join(tmp, "chunk.jfr")
            got = as_jdk(printed(form, path, *(["--stack-depth", depth] if depth else [])))
            if hashlib.sha256(got).hexdigest() != want:
                fail("print --%s %s differs from jfr print --%s" % (form, case, form))
        rec = os.path.join(TESTDATA, "recordings", "cpu-jdk17.jfr")
        p = subprocess.run([JFRTOOL, "print", "--format", "xml", rec], env=ENV,
                           capture_output=True)
        if p.stdout != xml(rec):
            fail("--format xml is not --xml")
        p = subprocess.run([JFRTOOL, "print", "--xml", "--json", rec], env=ENV,
                           capture_output=True)
        if p.returncode != 1 or b"pick one" not in p.stderr:
            fail("--xml with --json: exit %d, %r" % (p.returncode, p.stderr[:200]))
    print("%d cases and the two synthetic recordings: %d failures"
          % (len(cases), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
