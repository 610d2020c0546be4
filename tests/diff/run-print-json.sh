#!/bin/sh
# Differential test of `jfrtool print --json` against the JDK's own
# `jfr print --json --stack-depth 2048` (JDK 25), committed as
# testdata/jdk/R.print.json.gz by tests/diff/regen-jdk-outputs.sh.
#
# For every recording R in testdata/recordings with such a file, jsoncmp
# compares the two event for event (same types, fields, values, order) with
# only the normalisations documented in tests/diff/jsoncmp.c: (a) CESU-8
# supplementary characters the JDK shows as U+FFFD U+FFFD, (b) a few
# microseconds of timestamp drift after the first chunk, where the JDK reuses
# the first chunk's time base. Events of the first chunk get no tolerance.
#
# concat-17-25.jfr (a JDK 17 and a JDK 25 recording joined with cat) has no
# JDK JSON: the JDK tool fails on it (testdata/jdk/concat-17-25.jfr.print.err,
# jfr-format.md §14 gotcha 1). There our output must be the sum of the parts:
# the events of cpu-jdk17.jfr followed by those of cpu-jdk25.jfr.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JSONCMP.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
jsoncmp=${JSONCMP:-tests/diff/jsoncmp}
rec=$JFR_TESTDATA/recordings
jdk=$JFR_TESTDATA/jdk

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-print-json.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM

# The chunk size field of the first chunk header (big-endian u64 at offset 8).
first_chunk_size() {
    od -An -v -t u1 -j 8 -N 8 "$1" | awk '{ for (i = 1; i <= NF; i++) n = n * 256 + $i } END { printf "%.0f\n", n }'
}

# Options for jsoncmp: where the first chunk's events end, for multi-chunk
# recordings (counted by printing the first chunk alone).
chunk_options() {
    size=$(first_chunk_size "$1")
    total=$(wc -c < "$1" | tr -d ' ')
    [ "$size" -lt "$total" ] || return 0
    head -c "$size" "$1" > "$tmp/first.jfr"
    n=$("$JFRTOOL" print --json --stack-depth 2048 "$tmp/first.jfr" | "$jsoncmp" --count -) || return 1
    echo "--first-chunk-events $n"
}

fail=0 tested=0
for r in "$rec"/*; do
    name=$(basename "$r")
    # JFR_TEST_QUICK (the sanitizer pass of .ci/run): a representative
    # subset, single-chunk, multi-chunk and concatenated, keeps that pass
    # within CI's time; the normal pass and distcheck compare every file.
    if [ -n "${JFR_TEST_QUICK:-}" ]; then
        case $name in cpu-jdk25.jfr | multi-jdk25.jfr | concat-17-25.jfr) ;; *) continue ;; esac
    fi
    ref=$jdk/$name.print.json.gz
    [ -f "$ref" ] || continue
    tested=$((tested + 1))
    if ! "$JFRTOOL" print --json --stack-depth 2048 "$r" > "$tmp/ours.json" 2> "$tmp/err"; then
        echo "FAIL: $name: jfrtool print --json failed:"
        cat "$tmp/err"
        fail=1
        continue
    fi
    opts=$(chunk_options "$r") || { echo "FAIL: $name: cannot count first-chunk events"; fail=1; continue; }
    # shellcheck disable=SC2086 # $opts is a list of options
    if "$jsoncmp" $opts "$ref" "$tmp/ours.json" > "$tmp/report"; then
        echo "ok: $name"
        sed 's/^/  /' "$tmp/report"
    else
        echo "FAIL: $name: differs from the JDK's jfr print --json"
        sed 's/^/  /' "$tmp/report"
        fail=1
    fi
done
if [ "$tested" -eq 0 ]; then
    echo "FAIL: no recording with a JDK print --json in $jdk"
    exit 1
fi

# The concatenation: sum of the parts.
parts="cpu-jdk17.jfr cpu-jdk25.jfr"
i=0
for p in $parts; do
    i=$((i + 1))
    "$JFRTOOL" print --json --stack-depth 2048 "$rec/$p" > "$tmp/part$i.json" || { echo "FAIL: print --json $p"; fail=1; }
done
if ! "$JFRTOOL" print --json --stack-depth 2048 "$rec/concat-17-25.jfr" > "$tmp/concat.json"; then
    echo "FAIL: print --json concat-17-25.jfr"
    fail=1
elif "$jsoncmp" --ref-label parts "$tmp/part1.json" "$tmp/part2.json" -- "$tmp/concat.json" > "$tmp/report"; then
    echo "ok: concat-17-25.jfr = cpu-jdk17.jfr + cpu-jdk25.jfr"
    sed 's/^/  /' "$tmp/report"
else
    echo "FAIL: concat-17-25.jfr is not the sum of cpu-jdk17.jfr and cpu-jdk25.jfr"
    sed 's/^/  /' "$tmp/report"
    fail=1
fi
exit $fail
