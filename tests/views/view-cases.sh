#!/bin/sh
# Views the usual recordings rarely test, on a synthetic recording
# (tests/views/make-view-cases.c says what it holds and why): tabs and line
# breaks in threads' names and strings, flags set and changed, GC phases of
# two levels ending at one tick. jfrtool's views and print of the file must
# equal what JDK 25 made of it, byte for byte. Regenerate (JDK 25):
#   tests/views/make-view-cases /tmp/vc.jfr && cd testdata/jdk &&
#   export TZ=UTC LC_ALL=C &&
#   jfr view test.Names /tmp/vc.jfr > view-cases.view-test.Names.txt &&
#   jfr view --width 40 test.Names /tmp/vc.jfr > view-cases.view-test.Names.w40.txt &&
#   jfr view thread-cpu-load /tmp/vc.jfr > view-cases.view-thread-cpu-load.txt &&
#   jfr view jvm-flags /tmp/vc.jfr > view-cases.view-jvm-flags.txt &&
#   jfr view gc-pause-phases /tmp/vc.jfr > view-cases.view-gc-pause-phases.txt &&
#   jfr print /tmp/vc.jfr > view-cases.print.txt
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
gen=${MAKE_VIEW_CASES:-$(dirname "$JFRTOOL")/../tests/views/make-view-cases}
export TZ=UTC LC_ALL=C
"$JFRTOOL" view --generic hot-methods "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" >/dev/null 2>&1 ||
    { echo "SKIP: no generic views (built without SQLite)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-view-cases.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM

"$gen" "$tmp/vc.jfr" || { echo "FAIL: $gen could not write the recording"; exit 1; }
fail=0
check() { # REFERENCE COMMAND...
    ref=$JFR_TESTDATA/jdk/$1
    shift
    if ! "$JFRTOOL" "$@" "$tmp/vc.jfr" > "$tmp/ours.txt"; then
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
check view-cases.view-test.Names.txt view test.Names
check view-cases.view-test.Names.w40.txt view --width 40 test.Names
check view-cases.view-thread-cpu-load.txt view thread-cpu-load
check view-cases.view-jvm-flags.txt view jvm-flags
check view-cases.view-gc-pause-phases.txt view gc-pause-phases
check view-cases.print.txt print
# what the goldens must show, so that a regeneration cannot lose a case:
# the thread's tab kept, the string's not; a flag only changed and one
# set, then changed; the level written last where phases end at one tick
golden() { grep -q "$2" "$JFR_TESTDATA/jdk/view-cases.$1.txt"; }
golden view-test.Names "$(printf 'tab\there')" && ! golden view-test.Names "$(printf 'a\tb')" &&
    golden view-jvm-flags 'OnlyChanged  *N/A' && golden view-jvm-flags 'SetThenChanged  *false' &&
    golden view-gc-pause-phases 'Level 1 Phantom' && golden view-gc-pause-phases 'Level 2 Weak' ||
    { echo "FAIL: the goldens do not show the cases this test is for"; fail=1; }
exit $fail
