#!/bin/sh
# Remake testdata/kinds/expected/corpus/converter-alloc.txt: the allocation
# totals that async-profiler's converter gives for the JDK 11 recordings of
# the public corpus, the second oracle of the alloc kind
# (tests/profile/check-kinds.py). Needs the converter built from
# async-profiler's public source ($AP_CONVERTER, default
# /work/tools/ap/converter.jar; never committed), a JDK that runs it
# ($JAVA25_HOME or found under /usr/lib/jvm) and the corpus
# ($JFR_SHARED/corpus/public or ../shared/corpus/public). Run from the top
# of the source tree; review the diff before committing.
set -eu
top=$(pwd)
out=$top/testdata/kinds/expected/corpus/converter-alloc.txt
conv=${AP_CONVERTER:-/work/tools/ap/converter.jar}
java=""
for d in "${JAVA25_HOME:-}" /usr/lib/jvm/*25*; do
    if [ -n "$d" ] && [ -x "$d/bin/java" ]; then java=$d/bin/java; break; fi
done
[ -n "$java" ] || { echo "JDK 25 not found (set JAVA25_HOME)" >&2; exit 1; }
corpus=""
for d in "${JFR_SHARED:+$JFR_SHARED/corpus/public}" "$top/../shared/corpus/public"; do
    if [ -n "$d" ] && [ -f "$d/MANIFEST.tsv" ]; then corpus=$d; break; fi
done
[ -n "$corpus" ] || { echo "corpus not found (set JFR_SHARED)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-conv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{
    echo "# async-profiler converter, --alloc --total, per JDK 11 recording of the corpus:"
    echo "# java -cp converter.jar one.convert.Main --alloc --total -o collapsed FILE OUT"
    echo "# (gzip files decompressed first); TOTAL is the sum of OUT's counts."
    echo "# The converter leaves out events whose stack trace is null (jfrtool"
    echo "# counts them on [no stack trace]). FILE TOTAL:"
    for f in jmc-hotmethods.jfr jmc-io_test.jfr sjk-jfr_11_mc.jfr ddtrace-test-recording.jfr \
        perfgenie-example.jfr; do
        in=$corpus/$f
        if gzip -t "$in" 2>/dev/null; then gzip -dc "$in" > "$tmp/in.jfr"; in=$tmp/in.jfr; fi
        "$java" -cp "$conv" one.convert.Main --alloc --total -o collapsed "$in" \
            "$tmp/out.txt" > /dev/null
        echo "$f $(awk '{ s += $NF } END { printf "%d", s }' "$tmp/out.txt")"
    done
} > "$out"
cat "$out"
