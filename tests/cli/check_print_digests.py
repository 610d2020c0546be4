#!/usr/bin/env python3
"""`jfrtool print` against JDK 25's `jfr print` where the JDK's output is too
large to commit: the recordings of testdata/{views,kinds,report,gc} and every
public corpus file the JDK reads (each chunk alone when a file has several:
the JDK times later chunks by the first one's clock, doc/print-format.md).
testdata/jdk/print-digests.sha256 holds the SHA-256 of each JDK output
(tests/views/regen-jdk-types.sh; FILE?events=FILTER is `print --events
FILTER FILE`: contexts of types the filter leaves out); ours must be the same byte for byte, every
field annotation formatted as the JDK formats it. The corpus is read from
$JFR_SHARED/corpus/public and skipped when absent; JFR_TEST_QUICK (the
sanitizer pass) checks the test recordings only. Exit 0 pass, 1 fail.
"""
import hashlib
import os
import struct
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
SHARED = os.environ.get("JFR_SHARED", "")
ENV = dict(os.environ, TZ="UTC", LC_ALL="C")


def chunk_bytes(path, index):
    """Chunk `index` of a (possibly gzip) recording, as bytes."""
    import gzip
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    off = 0
    for k in range(index + 1):
        size = struct.unpack(">q", data[off + 8:off + 16])[0]
        if k == index:
            return data[off:off + size]
        off += size
    return b""


def digest_of_print(path, events=""):
    opts = ["--events", events] if events else []
    p = subprocess.run([JFRTOOL, "print", *opts, path], env=ENV, capture_output=True)
    return hashlib.sha256(p.stdout).hexdigest()


def main():
    corpus = os.path.join(SHARED, "corpus", "public") if SHARED else ""
    quick = bool(os.environ.get("JFR_TEST_QUICK"))
    fails = checked = skipped = 0
    with open(os.path.join(TESTDATA, "jdk", "print-digests.sha256")) as f:
        lines = [l.split() for l in f if l.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        for name, want in lines:
            # FILE?events=FILTER: `print --events FILTER FILE`
            name_file, _, events = name.partition("?events=")
            file, _, chunk = name_file.partition("#")
            path = next((os.path.join(TESTDATA, sub, file) for sub in ("views", "kinds", "report", "gc")
                         if os.path.exists(os.path.join(TESTDATA, sub, file))), None)
            if path is None:
                if quick or not corpus or not os.path.exists(os.path.join(corpus, file)):
                    skipped += 1
                    continue
                path = os.path.join(corpus, file)
            if chunk:
                cut = os.path.join(tmp, "chunk.jfr")
                with open(cut, "wb") as out:
                    out.write(chunk_bytes(path, int(chunk)))
                path = cut
            checked += 1
            if digest_of_print(path, events) != want:
                fails += 1
                print(f"FAIL: jfrtool print {name} differs from jfr print "
                      "(tests/views/regen-jdk-types.sh -w DIR keeps the JDK's output)")
    print(f"{checked} outputs equal to jfr print: {checked - fails}; {skipped} skipped "
          "(no corpus, or JFR_TEST_QUICK)")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
