#!/bin/sh
# Regenerate what tests/cli/check_print_forms.py compares jfrtool print
# --xml and --exact with, from JDK 25's `jfr print` (run from the top of
# the tree):
#   testdata/jdk/print-forms.sha256  FORM:CASE SHA256, FORM xml or exact,
#       per test recording (each chunk alone, FILE#N, for a file of
#       several: the JDK times later chunks by the first one's clock,
#       doc/print-format.md), and with --stack-depth (FILE?depth=N);
#   testdata/jdk/print-cases.xml, testdata/jdk/view-cases.xml  the whole
#       output for the synthetic recordings, made by tests/cli/make-print-cases
#       and tests/views/make-view-cases (build them first: make check).
# (print-cases.jfr has no --exact output: JDK 25 fails on its durations
# past 2262 with "long overflow".)
# Usage: tests/cli/regen-print-forms.sh [JFR]   (default: JDK 25's jfr)
set -eu
jfr=${1:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/jfr}
export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/regen-xml.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
out=testdata/jdk/print-forms.sha256
: > "$out"
digest() { # FORMS CASE FILE [OPTIONS]
    forms=$1 case=$2 file=$3
    shift 3
    for form in $forms; do
        "$jfr" print --$form "$@" "$file" > "$tmp/out"
        echo "$form:$case $(sha256sum < "$tmp/out" | cut -d' ' -f1)" >> "$out"
    done
}
for f in cpu-jdk17 cpu-jdk25 io-jdk25 leak-jdk17 leak-jdk25; do
    digest "xml exact" "$f.jfr" "testdata/recordings/$f.jfr"
done
# --exact fails on its frames without a method (a NullPointerException)
digest xml mini-jfr10.jfr testdata/recordings/mini-jfr10.jfr
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
    digest "xml exact" "multi-jdk25.jfr#$n" "$tmp/chunk.jfr"
done
digest "xml exact" "cpu-jdk25.jfr?depth=64" testdata/recordings/cpu-jdk25.jfr --stack-depth 64
digest "xml exact" "leak-jdk25.jfr?depth=0" testdata/recordings/leak-jdk25.jfr --stack-depth 0
for f in testdata/gc/gc-zgc-jdk25.jfr testdata/kinds/wait-jdk17.jfr; do
    digest exact "../$(basename "$(dirname "$f")")/$(basename "$f")" "$f"
done
tests/cli/make-print-cases "$tmp/print-cases.jfr"
"$jfr" print --xml "$tmp/print-cases.jfr" > testdata/jdk/print-cases.xml
tests/views/make-view-cases "$tmp/view-cases.jfr"
"$jfr" print --xml "$tmp/view-cases.jfr" > testdata/jdk/view-cases.xml
