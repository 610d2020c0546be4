#!/bin/sh
# `jfrtool print` of a synthetic recording holding one value of each form
# (tests/cli/make-print-cases.c) must equal what JDK 25's `jfr print` made of
# the same file: testdata/jdk/print-cases.print.txt. Regenerate (JDK 25):
#   tests/cli/make-print-cases /tmp/print-cases.jfr &&
#   TZ=UTC LC_ALL=C jfr print /tmp/print-cases.jfr > testdata/jdk/print-cases.print.txt
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
if cmp -s "$ref" "$tmp/ours.txt"; then
    echo "ok: print-cases: identical to the JDK ($(wc -l < "$ref" | tr -d ' ') lines)"
    exit 0
fi
echo "FAIL: print-cases differs from the JDK's jfr print"
diff "$ref" "$tmp/ours.txt" | head -40
exit 1
