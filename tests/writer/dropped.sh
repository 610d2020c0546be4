#!/bin/sh
# Dropped means gone: after `jfrtool scrub --exclude-events
# jdk.ExecutionSample`, no pool entry that only execution samples reached
# in the input (stack traces, frames' methods, classes, symbols, packages,
# thread states) is in the output's checkpoints, and every entry there is
# one the kept events reach (tests/writer/poolcheck: the entries walked
# byte by byte against what a reader resolves from the events). The same
# for a thread filter and a time range, which leave out events of every
# type.
#
# Environment (set by make check): JFRTOOL, POOLCHECK, JFR_TESTDATA.
set -u
: "${JFRTOOL:?}" "${POOLCHECK:?}" "${JFR_TESTDATA:?}"
. "$(dirname "$0")/writerlib.sh"
make_scratch
rec=$JFR_TESTDATA/recordings
n=0

for f in cpu-jdk25.jfr multi-jdk25.jfr leak-jdk17.jfr io-jdk25.jfr; do
    n=$((n + 1))
    "$POOLCHECK" reachable "$rec/$f" +jdk.ExecutionSample | LC_ALL=C sort -u >"$tmp/exec"
    "$POOLCHECK" reachable "$rec/$f" -jdk.ExecutionSample | LC_ALL=C sort -u >"$tmp/other"
    LC_ALL=C comm -23 "$tmp/exec" "$tmp/other" >"$tmp/only"
    grep -q ' jdk.types.StackTrace ' "$tmp/only" ||
        fail "$f: no stack trace only execution samples use: the test shows nothing"
    "$JFRTOOL" scrub --exclude-events jdk.ExecutionSample "$rec/$f" "$tmp/out.jfr"
    "$POOLCHECK" entries "$tmp/out.jfr" | LC_ALL=C sort >"$tmp/entries"
    LC_ALL=C comm -12 "$tmp/only" "$tmp/entries" >"$tmp/kept"
    [ -s "$tmp/kept" ] && fail "$f: $(wc -l <"$tmp/kept") entries of execution samples kept: $(head -3 "$tmp/kept" | tr '\n' ';')"
    "$POOLCHECK" reachable "$tmp/out.jfr" | LC_ALL=C sort >"$tmp/reached"
    cmp -s "$tmp/entries" "$tmp/reached" || fail "$f: entries the kept events do not reach"
    "$JFRTOOL" print --json --events ExecutionSample "$tmp/out.jfr" | grep -q '"type"' &&
        fail "$f: an execution sample is left"
done

# events of every type left out: a thread filter and a time range
for opts in "--exclude-threads main,C2*" "--from 1s --to 2s"; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$JFRTOOL" scrub $opts "$rec/io-jdk25.jfr" "$tmp/out.jfr" 2>"$tmp/err" ||
        { fail "scrub $opts: $(cat "$tmp/err")"; continue; }
    "$POOLCHECK" entries "$tmp/out.jfr" | LC_ALL=C sort >"$tmp/entries"
    "$POOLCHECK" reachable "$tmp/out.jfr" | LC_ALL=C sort >"$tmp/reached"
    cmp -s "$tmp/entries" "$tmp/reached" || fail "$opts: entries the kept events do not reach"
    [ "$(wc -l <"$tmp/entries")" -lt "$("$POOLCHECK" reachable "$rec/io-jdk25.jfr" | wc -l)" ] ||
        fail "$opts: no entry was left out"
done
finish "dropped ($n cases)"
