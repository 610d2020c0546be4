#!/bin/sh
# Golden test of `jfrtool print` (text) against JDK 25's `jfr print`.
#
# References: testdata/jdk/R.print.txt.gz (jfr print --stack-depth 64, made
# by tests/diff/regen-jdk-outputs.sh) and, made by
# tests/cli/regen-print-text-refs.sh, R.chunkN.print.txt.gz (each chunk of a
# multi-chunk recording cut out alone) and cpu-jdk25.jfr.print-default.txt.gz
# (default stack depth), and the --events and --stack-depth 0 outputs
# cpu-jdk25.jfr.print-events.txt.gz, cpu-jdk17.jfr.print-depth0.txt.gz.
# tests/cli/textcmp.py does the comparing:
#   - single-chunk recordings, every chunk of a multi-chunk one, the default
#     depth, the option variants and the gzip/lz4 copies: byte for byte,
#     with the one documented normalisation (non-BMP characters, which the
#     JDK shows as two U+FFFD);
#   - a whole multi-chunk recording: the same events, in any order, with
#     timestamps at most 1 ms apart after the first chunk (the JDK sorts across
#     chunks and converts later chunks' ticks with the first chunk's base);
#   - concat-17-25.jfr, which the JDK cannot read: the JDK outputs of
#     cpu-jdk17.jfr and cpu-jdk25.jfr one after the other.
# doc/print-format.md lists the rules and these differences.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
here=$(cd "$(dirname "$0")" && pwd)
rec=$JFR_TESTDATA/recordings
jdk=$JFR_TESTDATA/jdk
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
textcmp="python3 $here/textcmp.py"
export TZ=UTC LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-print-text.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM

fail=0 tested=0

# Size of the chunk at byte offset $2 of file $1 (big-endian u64 at +8).
chunk_size() {
    od -An -v -t u1 -j $(($2 + 8)) -N 8 "$1" |
        awk '{ for (i = 1; i <= NF; i++) n = n * 256 + $i } END { printf "%.0f\n", n }'
}

# check LABEL MODE REFERENCE jfrtool-print-arguments...
check() {
    label=$1 mode=$2 ref=$3
    shift 3
    tested=$((tested + 1))
    if ! "$JFRTOOL" print "$@" > "$tmp/ours.txt" 2> "$tmp/err"; then
        echo "FAIL: $label: jfrtool print failed:"
        cat "$tmp/err"
        fail=1
    elif $textcmp "$mode" "$ref" "$tmp/ours.txt" > "$tmp/report"; then
        echo "ok: $label: $(cat "$tmp/report")"
    else
        echo "FAIL: $label: differs from the JDK's jfr print"
        sed 's/^/  /' "$tmp/report"
        fail=1
    fi
}

for r in "$rec"/*.jfr; do
    name=$(basename "$r")
    # JFR_TEST_QUICK (the sanitizer pass of .ci/run): a representative
    # subset, single-chunk, multi-chunk and concatenated, keeps that pass
    # within CI's time; the normal pass and distcheck compare every file.
    if [ -n "${JFR_TEST_QUICK:-}" ]; then
        case $name in cpu-jdk25.jfr | multi-jdk25.jfr | concat-17-25.jfr) ;; *) continue ;; esac
    fi
    ref=$jdk/$name.print.txt.gz
    [ -f "$ref" ] || continue
    total=$(wc -c < "$r" | tr -d ' ')
    if [ "$(chunk_size "$r" 0)" -ge "$total" ]; then
        check "$name" exact "$ref" --stack-depth 64 "$r"
        continue
    fi
    check "$name (whole)" blocks "$ref" --stack-depth 64 "$r"
    off=0 n=0
    while [ "$off" -lt "$total" ]; do
        size=$(chunk_size "$r" "$off")
        if [ -f "$jdk/$name.chunk$n.print.txt.gz" ]; then
            tail -c +$((off + 1)) "$r" | head -c "$size" > "$tmp/chunk.jfr"
            check "$name chunk $n" exact "$jdk/$name.chunk$n.print.txt.gz" --stack-depth 64 "$tmp/chunk.jfr"
        else
            echo "FAIL: $name: no $name.chunk$n.print.txt.gz (run tests/cli/regen-print-text-refs.sh)"
            fail=1
        fi
        off=$((off + size)) n=$((n + 1))
    done
done

check "cpu-jdk25.jfr (default depth)" exact "$jdk/cpu-jdk25.jfr.print-default.txt.gz" "$rec/cpu-jdk25.jfr"
check "cpu-jdk25.jfr (--events)" exact "$jdk/cpu-jdk25.jfr.print-events.txt.gz" \
    --events jdk.ExecutionSample,GarbageCollection,jdk.ActiveSetting "$rec/cpu-jdk25.jfr"
check "cpu-jdk17.jfr (--stack-depth 0)" exact "$jdk/cpu-jdk17.jfr.print-depth0.txt.gz" \
    --stack-depth 0 --events ExecutionSample "$rec/cpu-jdk17.jfr"
check "cpu-jdk25.jfr.gz" exact "$jdk/cpu-jdk25.jfr.print.txt.gz" --stack-depth 64 "$rec/cpu-jdk25.jfr.gz"
check "cpu-jdk25.jfr.lz4" exact "$jdk/cpu-jdk25.jfr.print.txt.gz" --stack-depth 64 "$rec/cpu-jdk25.jfr.lz4"
check "cpu-jdk17-gzip.jfr" exact "$jdk/cpu-jdk17.jfr.print.txt.gz" --stack-depth 64 "$rec/cpu-jdk17-gzip.jfr"

gzip -dc "$jdk/cpu-jdk17.jfr.print.txt.gz" "$jdk/cpu-jdk25.jfr.print.txt.gz" > "$tmp/parts.txt"
check "concat-17-25.jfr = cpu-jdk17 + cpu-jdk25" exact "$tmp/parts.txt" --stack-depth 64 "$rec/concat-17-25.jfr"

if [ "$tested" -lt 10 ]; then
    echo "FAIL: only $tested comparisons; references missing from $jdk?"
    exit 1
fi
exit $fail
