#!/bin/sh
# jfrtool report on damaged input (doc/report.md): every file of
# testdata/corrupt and a recording cut in the middle ends with exit status
# 0 or 2, never a signal; when a page is written for damaged input, its
# data names what was lost ("lost" is not empty), and a record of
# impossible size says the rest of its chunk is not shown.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to testdata/}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-report.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
head -c 250000 "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" >"$tmp/cut.jfr"
for f in "$JFR_TESTDATA"/corrupt/*.jfr "$tmp/cut.jfr"; do
    rm -f "$tmp/page.html"
    "$JFRTOOL" report "$f" -o "$tmp/page.html" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -gt 2 ]; then
        echo "FAIL: $f: exit status $rc"
        fail=1
        continue
    fi
    if [ -f "$tmp/page.html" ] && [ -s "$tmp/err" ] &&
        grep -q '^const REPORT = .*"lost":\[\]' "$tmp/page.html"; then
        echo "FAIL: $f: warnings on standard error, but the page says nothing was lost"
        fail=1
    fi
done
if ! grep -q '^const REPORT = .*"lost":\["' "$tmp/page.html" 2>/dev/null; then
    echo "FAIL: cut.jfr: no page, or it does not say what was lost"
    fail=1
fi
# A record of impossible size ends its chunk's events: the page's line
# says the rest of that chunk is not shown (a corpus file, when present)
bad=${JFR_SHARED:-}/corpus/public/pjp-corrupted-recording.jfr
if [ -f "$bad" ]; then
    "$JFRTOOL" report "$bad" -o "$tmp/page.html" 2>/dev/null
    if ! grep -q '^const REPORT = .*"lost":\[".*has impossible size [0-9]* ([0-9]* bytes left in the chunk) (the rest of that chunk is not shown)"' \
        "$tmp/page.html"; then
        echo "FAIL: $bad: the page does not say the rest of the chunk is not shown"
        fail=1
    fi
else
    echo "(the shared corpus is not there: the cut-record line is not checked)"
fi
[ "$fail" = 0 ] && echo "PASS: report on damaged input"
exit "$fail"
