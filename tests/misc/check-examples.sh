#!/bin/sh
# The example programs in examples/ agree with jfrtool on the test
# recordings:
# - event-counts prints, for every event type, the count `jfrtool summary`
#   prints (summary also lists jdk.Metadata and jdk.Checkpoint records and
#   types without events, which event-counts leaves out);
# - top-stacks counts as many jdk.ExecutionSample events as the summary,
#   and its heaviest stack has the largest count of `jfrtool folded --event
#   exec`, with the same leaf frame when that count is unique;
# - lock-profile prints the stacks and durations of `jfrtool folded --event
#   lock`;
# - make-recording writes a recording jfrtool reads with --strict, holding
#   the events and values it wrote.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JFR_EXAMPLES
# (the directory holding the built examples).
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
: "${JFR_EXAMPLES:?set JFR_EXAMPLES to the built examples directory}"
export TZ=UTC LC_ALL=C
rec=$JFR_TESTDATA/recordings

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-examples.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

failed() {
    echo "FAIL: $*"
    fail=1
}

# "TYPE COUNT" rows of `jfrtool summary`, events only, sorted by type.
summary_counts() {
    "$JFRTOOL" summary "$@" | awk '
        /^=+$/ { table = 1; next }
        table && NF == 3 && $2 > 0 && $1 != "jdk.Metadata" && $1 != "jdk.Checkpoint" {
            print $1, $2
        }' | sort
}

for f in cpu-jdk25.jfr multi-jdk25.jfr cpu-jdk17.jfr concat-17-25.jfr cpu-jdk25.jfr.gz; do
    [ -f "$rec/$f" ] || { failed "missing recording $rec/$f"; continue; }
    if ! "$JFR_EXAMPLES/event-counts" "$rec/$f" >"$tmp/ec" 2>"$tmp/ec.err"; then
        failed "event-counts $f exited with $?: $(cat "$tmp/ec.err")"
        continue
    fi
    awk '{ print $2, $1 }' "$tmp/ec" | sort >"$tmp/ec.sorted"
    summary_counts "$rec/$f" >"$tmp/sum.sorted"
    [ -s "$tmp/sum.sorted" ] || failed "$f: jfrtool summary printed no event counts"
    if ! diff "$tmp/sum.sorted" "$tmp/ec.sorted" >"$tmp/d"; then
        failed "$f: event-counts differs from jfrtool summary (< summary, > example):"
        cat "$tmp/d"
    fi
    # Most events first, ties by name.
    sort -k1,1nr -k2,2 "$tmp/ec" | cmp -s - "$tmp/ec" ||
        failed "$f: event-counts output is not sorted by count, then name"
done

# top-stacks: total samples and the heaviest stack.
for f in cpu-jdk25.jfr multi-jdk25.jfr; do
    want=$(summary_counts "$rec/$f" | awk '$1 == "jdk.ExecutionSample" { print $2 }')
    "$JFR_EXAMPLES/top-stacks" -n 1 -d 1000 jdk.ExecutionSample "$rec/$f" >"$tmp/ts" ||
        { failed "top-stacks $f exited with $?"; continue; }
    got=$(sed -n '1s/^\([0-9]*\) samples of jdk.ExecutionSample in [0-9]* distinct stacks$/\1/p' "$tmp/ts")
    [ -n "$got" ] && [ "$got" = "$want" ] ||
        failed "$f: top-stacks counted '${got}' jdk.ExecutionSample events, summary says $want"
    top=$(sed -n '3s/^\([0-9]*\) samples (.*)$/\1/p' "$tmp/ts")
    leaf=$(sed -n '4s/^    at //p' "$tmp/ts")
    "$JFRTOOL" folded --event exec "$rec/$f" >"$tmp/folded" 2>/dev/null || {
        echo "note: jfrtool folded unavailable; heaviest-stack check skipped"
        continue
    }
    max=$(awk '{ print $NF }' "$tmp/folded" | sort -n | tail -1)
    [ "$top" = "$max" ] ||
        failed "$f: top-stacks' heaviest stack has '$top' samples, jfrtool folded's $max"
    if [ "$(awk -v m="$max" '$NF == m' "$tmp/folded" | wc -l)" -eq 1 ]; then
        fleaf=$(awk -v m="$max" '$NF == m { sub(/ [0-9]+$/, ""); n = split($0, a, ";"); print a[n] }' "$tmp/folded")
        # folded turns spaces and ';' inside a frame into '_'
        [ "$(printf '%s' "$leaf" | tr ' ;' '__')" = "$fleaf" ] ||
            failed "$f: heaviest stack's leaf is '$leaf', jfrtool folded says '$fleaf'"
    fi
done

# lock-profile: the lock kind's stacks and durations, as jfrtool folded
# --event lock prints them (same frames; sorted here, as folded sorts).
for f in io-jdk25.jfr cpu-jdk17.jfr; do
    "$JFR_EXAMPLES/lock-profile" "$rec/$f" >"$tmp/lp" 2>"$tmp/lp.err" ||
        { failed "lock-profile $f exited with $?"; continue; }
    "$JFRTOOL" folded --event lock "$rec/$f" >"$tmp/lock.folded" 2>/dev/null
    [ -s "$tmp/lock.folded" ] || failed "$f: jfrtool folded --event lock printed nothing"
    # frames keep their spaces in the example; folded makes them '_'
    awk '{ w = $NF; sub(/ [0-9]+$/, ""); gsub(/ /, "_"); print $0 " " w }' "$tmp/lp" |
        LC_ALL=C sort | cmp -s - "$tmp/lock.folded" ||
        failed "$f: lock-profile differs from jfrtool folded --event lock"
    grep -q ' ns blocked$' "$tmp/lp.err" || failed "$f: lock-profile's total is not in ns"
done

# make-recording writes a recording from scratch: jfrtool reads it without
# a warning, with the events it says it wrote, their values in order
if "$JFR_EXAMPLES/make-recording" "$tmp/made.jfr" 250 >"$tmp/made.out" 2>&1; then
    n=$("$JFRTOOL" --strict summary "$tmp/made.jfr" 2>"$tmp/made.err" |
        awk '$1 == "example.Tick" { print $2 }')
    [ "$n" = 250 ] && [ ! -s "$tmp/made.err" ] ||
        failed "make-recording: jfrtool --strict summary counts '$n' ticks: $(cat "$tmp/made.err")"
    "$JFRTOOL" print --events Tick "$tmp/made.jfr" | grep -E '^  (count|message|eventThread) ' |
        head -6 | tr -s ' ' >"$tmp/made.txt"
    printf ' count = 0\n message = "tick 0"\n eventThread = "main" (javaThreadId = 1)\n count = 1\n message = "tick 1"\n eventThread = "worker" (javaThreadId = 2)\n' |
        cmp -s - "$tmp/made.txt" || failed "make-recording: the first ticks read $(cat "$tmp/made.txt")"
else
    failed "make-recording exited with $?: $(cat "$tmp/made.out")"
fi

[ "$fail" -eq 0 ] && echo "PASS: examples agree with jfrtool summary and folded"
exit "$fail"
