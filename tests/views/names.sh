#!/bin/sh
# Tabs and line breaks in names and strings (tests/views/make-names.c): the
# JDK's views make spaces of them in strings only and print a thread's
# name as it is, even where that breaks the table's lines. jfrtool's views
# and print of names.jfr must equal what JDK 25 made of the same file,
# byte for byte. Regenerate (JDK 25):
#   tests/views/make-names /tmp/names.jfr && cd testdata/jdk &&
#   export TZ=UTC LC_ALL=C &&
#   jfr view test.Names /tmp/names.jfr > names.view-test.Names.txt &&
#   jfr view --width 40 test.Names /tmp/names.jfr > names.view-test.Names.w40.txt &&
#   jfr view thread-cpu-load /tmp/names.jfr > names.view-thread-cpu-load.txt &&
#   jfr print /tmp/names.jfr > names.print.txt
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
gen=${MAKE_NAMES:-$(dirname "$JFRTOOL")/../tests/views/make-names}
export TZ=UTC LC_ALL=C
"$JFRTOOL" view --generic hot-methods "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" >/dev/null 2>&1 ||
    { echo "SKIP: no generic views (built without SQLite)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-names.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM

"$gen" "$tmp/names.jfr" || { echo "FAIL: $gen could not write the recording"; exit 1; }
fail=0
check() { # REFERENCE COMMAND...
    ref=$JFR_TESTDATA/jdk/$1
    shift
    if ! "$JFRTOOL" "$@" "$tmp/names.jfr" > "$tmp/ours.txt"; then
        echo "FAIL: jfrtool $* failed"
        fail=1
    elif ! cmp -s "$ref" "$tmp/ours.txt"; then
        echo "FAIL: jfrtool $* differs from JDK 25 ($(basename "$ref"))"
        diff "$ref" "$tmp/ours.txt" | od -c | head -20
        fail=1
    else
        echo "ok: jfrtool $*: as JDK 25"
    fi
}
check names.view-test.Names.txt view test.Names
check names.view-test.Names.w40.txt view --width 40 test.Names
check names.view-thread-cpu-load.txt view thread-cpu-load
check names.print.txt print
# the same file: the thread's tab is in the output, the string's is not
grep -q "$(printf 'tab\there')" "$JFR_TESTDATA/jdk/names.view-test.Names.txt" &&
    ! grep -q "$(printf 'a\tb')" "$JFR_TESTDATA/jdk/names.view-test.Names.txt" ||
    { echo "FAIL: names.view-test.Names.txt is not what this test expects"; fail=1; }
exit $fail
