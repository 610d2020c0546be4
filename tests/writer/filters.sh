#!/bin/sh
# What scrub's filters keep, computed another way from our print --json of
# the input (tests/writer/expect_events.py):
# - --include-events/--include-categories: the events `jfrtool print
#   --events/--categories` selects with the same filter;
# - --include-threads/--exclude-threads: the events whose eventThread's
#   javaName a glob matches (an event without an event thread matches
#   nothing), as the JDK's scrub decides;
# - --from/--to (ISO-8601 and offsets): the events whose startTime lies in
#   [from, to);
# each in file order, value for value.
#
# Environment (set by make check): JFRTOOL, JFR_TESTDATA.
set -u
set -f # the globs below are jfrtool's, not the shell's
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
here=$(dirname "$0")
. "$here/writerlib.sh"
make_scratch
rec=$JFR_TESTDATA/recordings
n=0

for args in "cpu-jdk25.jfr events jdk.GC*,CPULoad,ExecutionSample" \
    "multi-jdk25.jfr categories GC,OS" "leak-jdk17.jfr events OldObjectSample"; do
    set -- $args
    n=$((n + 1))
    "$JFRTOOL" print --json "--$2" "$3" "$rec/$1" >"$tmp/want.json"
    "$JFRTOOL" scrub "--include-$2" "$3" "$rec/$1" "$tmp/out.jfr"
    "$JFRTOOL" print --json "$tmp/out.jfr" >"$tmp/got.json"
    cmp -s "$tmp/want.json" "$tmp/got.json" || fail "--include-$2 $3 $1: not print's events"
done

for f in io-jdk25.jfr cpu-jdk17.jfr; do
    for mode in include:in:main,worker-* exclude:out:main,C?*; do
        set -- $(echo "$mode" | tr : ' ')
        n=$((n + 1))
        "$JFRTOOL" scrub "--$1-threads" "$3" "$rec/$f" "$tmp/out.jfr"
        "$JFRTOOL" print --json "$tmp/out.jfr" >"$tmp/got.json"
        python3 "$here/expect_events.py" "$JFRTOOL" "$rec/$f" "$tmp/got.json" \
            "threads-$2" "$3" || fail "$f: --$1-threads $3"
    done
done

# multi-jdk25.jfr: three chunks from 03:03:07.9 to 03:03:11.1
for range in "--from 1s --to 2s" "--from 2026-11-22T03:03:09.5Z" "--to 500ms" \
    "--from 2.5 --to 3000ms"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$JFRTOOL" scrub $range "$rec/multi-jdk25.jfr" "$tmp/out.jfr" 2>"$tmp/err" ||
        { fail "$range: $(cat "$tmp/err")"; continue; }
    "$JFRTOOL" print --json "$tmp/out.jfr" >"$tmp/got.json"
    # shellcheck disable=SC2086
    python3 "$here/expect_events.py" "$JFRTOOL" "$rec/multi-jdk25.jfr" "$tmp/got.json" \
        time $range || fail "$range: not the events that start in the range"
done
# a range with no event: nothing is written, and that is an error
"$JFRTOOL" scrub --from 1h "$rec/cpu-jdk25.jfr" "$tmp/none.jfr" 2>"$tmp/err" &&
    fail "--from 1h: no error"
[ -e "$tmp/none.jfr" ] && fail "--from 1h: an output was written"
finish "filters ($n cases)"
