#!/bin/sh
# Remake testdata/kinds/expected/: for each recording below and each profile
# kind, the folded stacks that JDK 25's `jfr print --json --stack-depth 2048`
# gives, summed per stack by tests/profile/folded-from-jdk.py, gzipped
# (NAME.folded-KIND.txt.gz). Needs a JDK 25 `jfr` ($JAVA25_HOME, or found
# under /usr/lib/jvm) and python3; the JSON is large (up to 1 GB for
# jmc-jdk21.jfr) and is made in a temporary directory, never committed. Run
# from the top of the source tree; review the diff before committing.
#
# Recordings: ours (testdata/kinds/wait-jdk17.jfr, wait-jdk25.jfr made by
# tests/diff/make-test-recordings.sh; testdata/recordings/io-jdk25.jfr) and,
# for JDK 11 and 21, two from the public corpus ($JFR_SHARED/corpus/public,
# skipped when absent); only their folded stacks are kept, under
# expected/corpus/.
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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-kinds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# golden SOURCE DEST_DIR
golden() {
    name=$(basename "$1")
    echo "== $name"
    TZ=UTC LC_ALL=C "$jfr" print --json --stack-depth 2048 --events "$events" "$1" \
        > "$tmp/$name.json"
    mkdir -p "$2"
    for kind in $kinds; do
        python3 "$conv" "$kind" "$tmp/$name.json" | gzip -9 -n > "$2/$name.folded-$kind.txt.gz"
    done
    rm -f "$tmp/$name.json"
}

for rec in kinds/wait-jdk17.jfr kinds/wait-jdk25.jfr recordings/io-jdk25.jfr; do
    golden "$top/testdata/$rec" "$out"
done
if [ -n "$corpus" ]; then
    for rec in sjk-jfr_11_mc.jfr jmc-jdk21.jfr; do
        golden "$corpus/$rec" "$out/corpus"
    done
else
    echo "corpus not found: expected/corpus/ left as it is" >&2
fi
