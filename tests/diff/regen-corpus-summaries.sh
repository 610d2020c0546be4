#!/bin/sh
# Regenerate testdata/jdk/corpus/: what JDK 25's `jfr summary` says about the
# files of the shared public corpus (../shared/corpus/public) that the JDK can
# read. These are outputs of the JDK tool, not the corpus files themselves
# (those are never copied into the project). tests/corpus/run.sh compares our
# per-type counts with them; `make check` needs no JDK. Maintainers only.
#
# Usage: tests/diff/regen-corpus-summaries.sh [-c CORPUSDIR] [-o OUTDIR]
#   -c CORPUSDIR  the corpus (default: $JFR_SHARED/corpus/public, else
#                 ../shared/corpus/public next to the checkout)
#   -o OUTDIR     where to write (default: testdata/jdk/corpus)
#
# For every file whose MANIFEST.tsv column jdk_summary_ok starts with "yes",
# with NAME its file name without .gz and .jfr (paths in the dist tarball
# must stay under tar's 99 characters):
#   NAME.summary.txt          jfr summary of the whole file (JDK 25)
# and for the files in $mixed below (chunks from different producers, where
# the JDK's whole-file counts are wrong, jfr-format.md §14 gotchas 1 and 22):
#   NAME.chunkK.summary.txt   jfr summary of chunk K alone (K = 0, 1, ...)
# gzip files are decompressed to a temporary NAME.jfr first (the JDK tool
# reads neither gzip nor names without .jfr). A failing command leaves
# NAME...summary.err with its standard error instead. Every command runs
# with TZ=UTC LC_ALL=C. JDK 25 is $JAVA25_HOME, else
# /usr/lib/jvm/temurin-25-jdk-amd64.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
corpus=${JFR_SHARED:-$top/../shared}/corpus/public
out=$top/testdata/jdk/corpus
while getopts c:o: opt; do
    case $opt in
        c) corpus=$OPTARG ;;
        o) out=$OPTARG ;;
        *) sed -n '2,24p' "$0" >&2; exit 2 ;;
    esac
done
[ -f "$corpus/MANIFEST.tsv" ] || { echo "no corpus at $corpus" >&2; exit 1; }
jdk25=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
[ -x "$jdk25/bin/jfr" ] || { echo "JDK 25 not found (set JAVA25_HOME)" >&2; exit 1; }

# Files mixing producers (MANIFEST producer column: jfrsync or a ddprof chunk
# appended to a HotSpot recording). Keep in step with tests/corpus/run.sh.
mixed="grafana-FastSlow_2024_01_16_180855.jfr.gz grafana-event-with-type-zero.jfr.gz
jafar-tck-test.jfr jafar-AZ0slzMAAAC9yoVJD_6NAwAA.jfr"

export TZ=UTC LC_ALL=C
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-corpus-regen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# summary FILE.jfr OUTBASE: OUTBASE.summary.txt, or OUTBASE.summary.err
summary() {
    rm -f "$2.summary.txt" "$2.summary.err"
    if timeout 120 "$jdk25/bin/jfr" summary "$1" < /dev/null > "$tmp/stdout" 2> "$tmp/stderr"; then
        mv "$tmp/stdout" "$2.summary.txt"
    else
        { sed "s|$tmp/||g" "$tmp/stderr"; echo "[exit status $?]"; } > "$2.summary.err"
        echo "   failed: $(basename "$2")"
    fi
}

# The chunk size field (big-endian u64 at offset 8) of the chunk at $2 in $1.
chunk_size() {
    od -An -v -t u1 -j $(($2 + 8)) -N 8 "$1" |
        awk '{ for (i = 1; i <= NF; i++) n = n * 256 + $i } END { printf "%.0f\n", n }'
}

tab=$(printf '\t')
tail -n +2 "$corpus/MANIFEST.tsv" | while IFS=$tab read -r name _ _ container _ _ _ ok _; do
    case $ok in yes*) ;; *) continue ;; esac
    echo "== $name"
    short=$(basename "$(basename "$name" .gz)" .jfr)
    plain=$tmp/$short.jfr
    if [ "$container" = gzip ]; then
        gzip -dc "$corpus/$name" > "$plain"
    else
        cp "$corpus/$name" "$plain"
    fi
    summary "$plain" "$out/$short"
    case " $(echo $mixed) " in
        *" $name "*)
            rm -f "$out/$short".chunk*
            total=$(wc -c < "$plain" | tr -d ' ')
            pos=0 k=0
            while [ "$pos" -lt "$total" ]; do
                size=$(chunk_size "$plain" "$pos")
                [ "$size" -gt 0 ] || break
                tail -c +$((pos + 1)) "$plain" | head -c "$size" > "$tmp/chunk$k.jfr"
                summary "$tmp/chunk$k.jfr" "$out/$short.chunk$k"
                pos=$((pos + size)) k=$((k + 1))
            done
            ;;
    esac
    rm -f "$plain" "$tmp"/chunk*.jfr
done
