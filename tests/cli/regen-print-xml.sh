#!/bin/sh
# Regenerate what tests/cli/check_print_xml.py compares jfrtool print --xml
# with, from JDK 25's `jfr print --xml` (run from the top of the tree):
#   testdata/jdk/print-xml.sha256  CASE SHA256 per test recording (each
#       chunk alone, FILE#N, for a file of several: the JDK times later
#       chunks by the first one's clock, doc/print-format.md), and with
#       --stack-depth (FILE?depth=N);
#   testdata/jdk/print-cases.xml, testdata/jdk/view-cases.xml  the whole
#       output for the synthetic recordings, made by tests/cli/make-print-cases
#       and tests/views/make-view-cases (build them first: make check).
# Usage: tests/cli/regen-print-xml.sh [JFR]   (default: JDK 25's jfr)
set -eu
jfr=${1:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr}
export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regen-xml.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=testdata/jdk/print-xml.sha256
: > "$out"
digest() { # CASE FILE [OPTIONS]
    case=$1 file=$2
    shift 2
    "$jfr" print --xml "$@" "$file" > "$tmp/out.xml"
    echo "$case $(sha256sum < "$tmp/out.xml" | cut -d' ' -f1)" >> "$out"
}
for f in cpu-jdk17 cpu-jdk25 io-jdk25 leak-jdk17 leak-jdk25 mini-jfr10; do
    digest "$f.jfr" "testdata/recordings/$f.jfr"
done
for n in 0 1 2; do
    python3 -c "
import struct, sys
d = open('testdata/recordings/multi-jdk25.jfr', 'rb').read()
off = 0
for k in range($n + 1):
    size = struct.unpack('>q', d[off + 8:off + 16])[0]
    if k == $n:
        sys.stdout.buffer.write(d[off:off + size])
    off += size" > "$tmp/chunk.jfr"
    digest "multi-jdk25.jfr#$n" "$tmp/chunk.jfr"
done
digest "cpu-jdk25.jfr?depth=64" testdata/recordings/cpu-jdk25.jfr --stack-depth 64
digest "leak-jdk25.jfr?depth=0" testdata/recordings/leak-jdk25.jfr --stack-depth 0
tests/cli/make-print-cases "$tmp/print-cases.jfr"
"$jfr" print --xml "$tmp/print-cases.jfr" > testdata/jdk/print-cases.xml
tests/views/make-view-cases "$tmp/view-cases.jfr"
"$jfr" print --xml "$tmp/view-cases.jfr" > testdata/jdk/view-cases.xml
