#!/bin/sh
# `jfrtool print` of a synthetic recording holding one value of each form
# (tests/cli/make-print-cases.c) must equal what JDK 25's `jfr print` made of
# the same file: testdata/jdk/print-cases.print.txt. Its amounts in another
# unit than bytes or bits (the columns from `kilobytes` on) must also look in
# `jfrtool view test.Values` as in JDK 25's `jfr view`: both tools take them
# for no amount (jfr_field_content). Regenerate (JDK 25):
#   tests/cli/make-print-cases /tmp/print-cases.jfr &&
#   TZ=UTC LC_ALL=C jfr print /tmp/print-cases.jfr > testdata/jdk/print-cases.print.txt &&
#   TZ=UTC LC_ALL=C jfr view --width 600 test.Values /tmp/print-cases.jfr \
#     > testdata/jdk/print-cases.view.txt
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
gen=${MAKE_PRINT_CASES:-$(dirname "$JFRTOOL")/../tests/cli/make-print-cases}
ref=$JFR_TESTDATA/jdk/print-cases.print.txt
export TZ=UTC LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-print-cases.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM

"$gen" "$tmp/print-cases.jfr" || { echo "FAIL: $gen could not write the recording"; exit 1; }
if ! "$JFRTOOL" print "$tmp/print-cases.jfr" > "$tmp/ours.txt"; then
    echo "FAIL: jfrtool print failed"
    exit 1
fi
if ! cmp -s "$ref" "$tmp/ours.txt"; then
    echo "FAIL: print-cases differs from the JDK's jfr print"
    diff "$ref" "$tmp/ours.txt" | head -40
    exit 1
fi
echo "ok: print-cases: identical to the JDK ($(wc -l < "$ref" | tr -d ' ') lines)"

# The view's columns from `kilobytes` on, each table cut where its header
# names that column (the columns before it are laid out by other rules).
from_kilobytes() {
    awk 'NR == 1 { at = index($0, "kilobytes") } at > 0 { print substr($0, at) }' "$1"
}
if ! "$JFRTOOL" view --width 600 test.Values "$tmp/print-cases.jfr" > "$tmp/view.txt"; then
    echo "FAIL: jfrtool view failed"
    exit 1
fi
from_kilobytes "$JFR_TESTDATA/jdk/print-cases.view.txt" > "$tmp/jdk-amounts.txt"
from_kilobytes "$tmp/view.txt" > "$tmp/our-amounts.txt"
if [ ! -s "$tmp/jdk-amounts.txt" ] || ! cmp -s "$tmp/jdk-amounts.txt" "$tmp/our-amounts.txt"; then
    echo "FAIL: view test.Values: amounts in another unit differ from the JDK's jfr view"
    diff "$tmp/jdk-amounts.txt" "$tmp/our-amounts.txt" | head -20
    exit 1
fi
echo "ok: view test.Values: amounts in another unit as in the JDK"
exit 0
