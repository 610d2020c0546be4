#!/bin/sh
# jfrtool print --events/--categories select the events JDK 25's jfr print
# selects (issue 26): for every filter of tests/cli/filters.txt (full and
# short names, globs, comma lists with blanks and empty items, categories,
# acronyms, both options together) on six test recordings, the events
# printed by type equal the JDK's (testdata/jdk/filters/R.types.txt), and
# `--events 'jdk.GC*'` prints byte for byte what the JDK prints
# (R.gc.txt.gz; tests/cli/textcmp.py, with its one documented
# normalisation). Regenerate the references with
# tests/cli/regen-filter-refs.sh. Before issue 26 every glob, category and
# comma list with blanks was a usage error.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
here=$(cd "$(dirname "$0")" && pwd)
rec=$JFR_TESTDATA/recordings
refs=$JFR_TESTDATA/jdk/filters
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
export TZ=UTC LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-filters.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM
fail=0 tested=0

# The same shape as regen-filter-refs.sh writes.
by_type() {
    grep -a '^[A-Za-z0-9_.$]* {$' | sed 's/ {$//' | sort | uniq -c | awk '{ print $2, $1 }'
}

for name in cpu-jdk17.jfr cpu-jdk25.jfr io-jdk25.jfr leak-jdk17.jfr leak-jdk25.jfr \
    multi-jdk25.jfr; do
    ref=$refs/$name.types.txt
    [ -f "$ref" ] || { echo "FAIL: no $ref (run tests/cli/regen-filter-refs.sh)"; fail=1; continue; }
    : > "$tmp/ours"
    grep -v '^#' "$here/filters.txt" > "$tmp/filters"
    while IFS='|' read -r opt filter opt2 filter2; do
        [ -n "$opt" ] || continue
        echo "# $opt '$filter'${opt2:+ $opt2 '$filter2'}" >> "$tmp/ours"
        if [ -n "$opt2" ]; then
            "$JFRTOOL" print "$opt" "$filter" "$opt2" "$filter2" "$rec/$name"
        else
            "$JFRTOOL" print "$opt" "$filter" "$rec/$name"
        fi 2>> "$tmp/err" | by_type >> "$tmp/ours"
        tested=$((tested + 1))
    done < "$tmp/filters"
    if cmp -s "$ref" "$tmp/ours"; then
        echo "ok: $name: $(grep -c '^#' "$ref") filters select what jfr print selects"
    else
        echo "FAIL: $name: events by type differ from JDK 25's jfr print (< JDK, > jfrtool):"
        diff "$ref" "$tmp/ours" | head -20
        [ -s "$tmp/err" ] && head -5 "$tmp/err"
        fail=1
    fi
done
for name in cpu-jdk17.jfr cpu-jdk25.jfr; do
    tested=$((tested + 1))
    "$JFRTOOL" print --events 'jdk.GC*' "$rec/$name" > "$tmp/gc.txt" 2> "$tmp/err"
    if python3 "$here/textcmp.py" exact "$refs/$name.gc.txt.gz" "$tmp/gc.txt" > "$tmp/report"; then
        echo "ok: $name: print --events 'jdk.GC*' equals jfr print's"
    else
        echo "FAIL: $name: print --events 'jdk.GC*' differs from jfr print's:"
        sed 's/^/  /' "$tmp/report" "$tmp/err"
        fail=1
    fi
done
# A JDK's event type that the recording's JDK lacks (JDK 25's CPU-time
# samples in a JDK 17 recording) selects nothing, as above, with a note
# unless another input has it; a misspelt one is still an error.
check_status() { # WANT-STATUS STDERR-TEXT-OR-EMPTY ARGS...
    want=$1 text=$2
    shift 2
    tested=$((tested + 1))
    "$JFRTOOL" print "$@" > /dev/null 2> "$tmp/err"
    got=$?
    if [ "$got" != "$want" ] || { [ -n "$text" ] && ! grep -qF "$text" "$tmp/err"; } ||
        { [ -z "$text" ] && [ -s "$tmp/err" ]; }; then
        echo "FAIL: print $*: exit $got (want $want), stderr:"
        sed 's/^/  /' "$tmp/err"
        fail=1
    else
        echo "ok: print $*: exit $want${text:+, '$text'}"
    fi
}
check_status 0 "no input has event type 'jdk.CPUTimeSample'" \
    --events jdk.CPUTimeSample,CPULoad "$rec/cpu-jdk17.jfr"
check_status 0 "" --events jdk.CPUTimeSample,CPULoad "$rec/cpu-jdk17.jfr" "$rec/cpu-jdk25.jfr"
check_status 1 "unknown event type 'jdk.CPUTimeSampl'" --events jdk.CPUTimeSampl "$rec/cpu-jdk17.jfr"
# no input read: the error alone, no note
check_status 2 "cannot open" --events jdk.CPUTimeSample "$tmp/missing.jfr"
grep -q "note:" "$tmp/err" && { echo "FAIL: a note for an input that cannot be read"; fail=1; }
[ "$tested" -ge 100 ] || { echo "FAIL: only $tested comparisons"; fail=1; }
exit $fail
