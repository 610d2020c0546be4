#!/bin/sh
# Regenerate the extra JDK 25 `jfr print` outputs that tests/cli/print-text-vs-jdk.sh
# compares with, beside those of tests/diff/regen-jdk-outputs.sh. Maintainers
# only (needs JDK 25; `make check` reads the committed files):
#   R.chunkN.print.txt.gz  jfr print --stack-depth 64 of chunk N (0-based)
#                          of each multi-chunk recording R, cut out alone
#   R.print-default.txt.gz jfr print (default stack depth 5), cpu-jdk25.jfr only
#   R.print-events.txt.gz  jfr print --events jdk.ExecutionSample,GarbageCollection,
#                          jdk.ActiveSetting, cpu-jdk25.jfr only
#   R.print-depth0.txt.gz  jfr print --stack-depth 0 --events ExecutionSample,
#                          cpu-jdk17.jfr only
# Usage: tests/cli/regen-print-text-refs.sh   (JAVA25_HOME overrides the JDK)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
rec=$top/testdata/recordings
out=$top/testdata/jdk
jfr=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jfr
[ -x "$jfr" ] || { echo "JDK 25 jfr not found (set JAVA25_HOME)" >&2; exit 1; }
export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-text-refs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Size of the chunk at byte offset $2 of file $1 (big-endian u64 at +8).
chunk_size() {
    od -An -v -t u1 -j $(($2 + 8)) -N 8 "$1" |
        awk '{ for (i = 1; i <= NF; i++) n = n * 256 + $i } END { printf "%.0f\n", n }'
}

for r in "$rec"/*.jfr; do
    name=$(basename "$r")
    case $name in unfinished-*|concat-*|*-gzip.jfr) continue ;; esac
    total=$(wc -c < "$r" | tr -d ' ')
    off=0 n=0
    [ "$(chunk_size "$r" 0)" -lt "$total" ] || continue
    while [ "$off" -lt "$total" ]; do
        size=$(chunk_size "$r" "$off")
        tail -c +$((off + 1)) "$r" | head -c "$size" > "$tmp/$name.chunk$n.jfr"
        "$jfr" print --stack-depth 64 "$tmp/$name.chunk$n.jfr" | gzip -9 -n > "$out/$name.chunk$n.print.txt.gz"
        echo "wrote $name.chunk$n.print.txt.gz"
        off=$((off + size)) n=$((n + 1))
    done
done
"$jfr" print "$rec/cpu-jdk25.jfr" | gzip -9 -n > "$out/cpu-jdk25.jfr.print-default.txt.gz"
echo "wrote cpu-jdk25.jfr.print-default.txt.gz"
"$jfr" print --events jdk.ExecutionSample,GarbageCollection,jdk.ActiveSetting "$rec/cpu-jdk25.jfr" |
    gzip -9 -n > "$out/cpu-jdk25.jfr.print-events.txt.gz"
"$jfr" print --stack-depth 0 --events ExecutionSample "$rec/cpu-jdk17.jfr" |
    gzip -9 -n > "$out/cpu-jdk17.jfr.print-depth0.txt.gz"
echo "wrote cpu-jdk25.jfr.print-events.txt.gz cpu-jdk17.jfr.print-depth0.txt.gz"
