#!/bin/sh
# Remake testdata/kinds/expected/: for each recording below and each profile
# kind, the folded stacks that JDK 25's `jfr print --json --stack-depth 2048`
# gives, summed per stack by tests/profile/folded-from-jdk.py, gzipped
# (NAME.folded-KIND.txt.gz). Needs a JDK 25 `jfr` ($JAVA25_HOME, or found
# under /usr/lib/jvm) and python3; the JSON is large (up to 1 GB for
# jmc-jdk21.jfr) and is made in a temporary directory, never committed. Run
# from the top of the source tree; review the diff before committing.
#
# Recordings: ours (testdata/kinds/*.jfr made by
# tests/diff/make-test-recordings.sh; testdata/recordings/io-jdk25.jfr) and,
# for JDK 11 and 21, two from the public corpus ($JFR_SHARED/corpus/public,
# skipped when absent); only their folded stacks are kept, under
# expected/corpus/.
#
# Also expected/totals.txt (and expected/corpus/totals.txt): per recording
# and kind, "RECORDING KIND EVENTS WEIGHT" from folded-from-jdk.py --totals,
# for the recordings above and every testdata/recordings/R with a committed
# testdata/jdk/R.print.json.gz (those need no JDK).
set -eu
top=$(pwd)
conv=$top/tests/profile/folded-from-jdk.py
out=$top/testdata/kinds/expected
jfr=""
for d in "${JAVA25_HOME:-}" /usr/lib/jvm/*25*; do
    if [ -n "$d" ] && [ -x "$d/bin/jfr" ]; then jfr=$d/bin/jfr; break; fi
done
[ -n "$jfr" ] || { echo "JDK 25 jfr not found (set JAVA25_HOME)" >&2; exit 1; }
corpus=""
for d in "${JFR_SHARED:+$JFR_SHARED/corpus/public}" "$top/../shared/corpus/public"; do
    if [ -n "$d" ] && [ -f "$d/MANIFEST.tsv" ]; then corpus=$d; break; fi
done
events=jdk.ExecutionSample,jdk.NativeMethodSample,jdk.ObjectAllocationSample
events=$events,jdk.ObjectAllocationInNewTLAB,jdk.ObjectAllocationOutsideTLAB
events=$events,jdk.JavaMonitorEnter,jdk.ThreadPark,jdk.JavaMonitorWait
events=$events,jdk.SocketRead,jdk.SocketWrite,jdk.FileRead,jdk.FileWrite
events=$events,jdk.JavaExceptionThrow,jdk.JavaErrorThrow
kinds="wall alloc lock wait io exceptions"
all_kinds="cpu exec native $kinds"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-kinds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

events=$events,jdk.CPUTimeSample

# totals NAME JSON: one line per kind of the recording's totals
totals() {
    python3 "$conv" --totals "$(echo $all_kinds | tr ' ' ,)" "$2" | sed "s/^/$1 /"
}

# golden SOURCE DEST_DIR
golden() {
    name=$(basename "$1")
    echo "== $name"
    TZ=UTC LC_ALL=C "$jfr" print --json --stack-depth 2048 --events "$events" "$1" \
        > "$tmp/$name.json"
    mkdir -p "$2"
    python3 "$conv" --out "$tmp/$name" "$(echo $kinds | tr ' ' ,)" "$tmp/$name.json"
    for kind in $kinds; do
        gzip -9 -n < "$tmp/$name.folded-$kind.txt" > "$2/$name.folded-$kind.txt.gz"
    done
    totals "$name" "$tmp/$name.json" >> "$2/totals.txt.new"
    rm -f "$tmp/$name.json"
}

rm -f "$out/totals.txt.new" "$out/corpus/totals.txt.new"
for rec in kinds/wait-jdk17.jfr kinds/wait-jdk25.jfr kinds/alloc-tlab-jdk17.jfr \
    kinds/throws-jdk25.jfr recordings/io-jdk25.jfr; do
    golden "$top/testdata/$rec" "$out"
done
for json in "$top"/testdata/jdk/*.jfr.print.json.gz; do
    name=$(basename "$json" .print.json.gz)
    [ "$name" = io-jdk25.jfr ] || totals "$name" "$json" >> "$out/totals.txt.new"
done
mv "$out/totals.txt.new" "$out/totals.txt"
if [ -n "$corpus" ]; then
    for rec in sjk-jfr_11_mc.jfr jmc-jdk21.jfr; do
        golden "$corpus/$rec" "$out/corpus"
    done
    mv "$out/corpus/totals.txt.new" "$out/corpus/totals.txt"
else
    echo "corpus not found: expected/corpus/ left as it is" >&2
fi
