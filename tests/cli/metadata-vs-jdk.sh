#!/bin/sh
# Golden test of `jfrtool metadata` against JDK 25's `jfr metadata`
# (testdata/jdk/R.metadata.txt, made by tests/diff/regen-jdk-outputs.sh).
# Recordings of one JVM: byte for byte. concat-17-25.jfr (a JDK 17 and a
# JDK 25 recording): the JDK keeps types by numeric id across chunks, so it
# drops a type whose id the JDK 17 chunk used for another; we print it. Our
# output must be the JDK's with those declarations added, and hold exactly the
# declarations of the two parts (doc/print-format.md). With --events and
# --categories, the event types they select, as JDK 25 printed them
# (R.metadata-events.txt, R.metadata-both.txt: the options are below).
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
here=$(cd "$(dirname "$0")" && pwd)
rec=$JFR_TESTDATA/recordings
jdk=$JFR_TESTDATA/jdk
export TZ=UTC LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-metadata.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM

fail=0 tested=0
for r in "$rec"/*.jfr; do
    name=$(basename "$r")
    ref=$jdk/$name.metadata.txt
    [ -f "$ref" ] || continue
    case $name in concat-*) continue ;; esac
    tested=$((tested + 1))
    if ! "$JFRTOOL" metadata "$r" > "$tmp/ours.txt" 2> "$tmp/err"; then
        echo "FAIL: $name: jfrtool metadata failed:"
        cat "$tmp/err"
        fail=1
    elif cmp -s "$ref" "$tmp/ours.txt"; then
        echo "ok: $name: identical ($(wc -l < "$ref" | tr -d ' ') lines)"
    else
        echo "FAIL: $name: differs from the JDK's jfr metadata"
        diff "$ref" "$tmp/ours.txt" | head -20 | sed 's/^/  /'
        fail=1
    fi
done
[ "$tested" -ge 5 ] || { echo "FAIL: only $tested recordings with a JDK metadata output"; fail=1; }

filtered() { # RECORDING GOLDEN OPTIONS...
    r=$1 ref=$jdk/$2
    shift 2
    if ! "$JFRTOOL" metadata "$@" "$rec/$r" > "$tmp/ours.txt" 2> "$tmp/err"; then
        echo "FAIL: metadata $* $r failed: $(cat "$tmp/err")"
        fail=1
    elif [ "$(grep -c '^@Name' "$ref")" -lt 1 ] || ! cmp -s "$ref" "$tmp/ours.txt"; then
        echo "FAIL: metadata $* $r differs from the JDK's ($(basename "$ref"))"
        diff "$ref" "$tmp/ours.txt" | head -10 | sed 's/^/  /'
        fail=1
    else
        echo "ok: metadata $* $r: $(grep -c '^@Name' "$ref") types, as the JDK's"
    fi
}
filtered cpu-jdk25.jfr cpu-jdk25.jfr.metadata-events.txt --events 'jdk.GC*,ThreadPark'
filtered cpu-jdk17.jfr cpu-jdk17.jfr.metadata-both.txt --categories 'GC,Java Application' \
    --events 'jdk.*Allocation*,FileRead'
filtered mini-jfr10.jfr mini-jfr10.jfr.metadata-events.txt --events ExecutionSample

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: concat-17-25.jfr (python3 not found)"
elif ! "$JFRTOOL" metadata "$rec/concat-17-25.jfr" > "$tmp/concat.txt"; then
    echo "FAIL: concat-17-25.jfr: jfrtool metadata failed"
    fail=1
elif python3 "$here/textcmp.py" metadata-concat "$tmp/concat.txt" "$jdk/concat-17-25.jfr.metadata.txt" \
        "$jdk/cpu-jdk17.jfr.metadata.txt" "$jdk/cpu-jdk25.jfr.metadata.txt" > "$tmp/report"; then
    echo "ok: concat-17-25.jfr: $(cat "$tmp/report")"
else
    echo "FAIL: concat-17-25.jfr: not the JDK's output plus what it dropped"
    sed 's/^/  /' "$tmp/report"
    fail=1
fi
exit $fail
