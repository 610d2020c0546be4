#!/bin/sh
# The README's library example (built as tests/misc/readme-snippet from the
# README itself by Makefile.am) runs: it prints the event types of rec.jfr,
# as many lines as `jfrtool summary` counts events, and without rec.jfr it
# says why and returns 1 instead of going on with no recording.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JFR_SNIPPET.
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}" "${JFR_SNIPPET:?}"
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-snippet.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

cp "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" "$tmp/rec.jfr"
(cd "$tmp" && "$JFR_SNIPPET" >out.txt 2>err.txt)
status=$?
lines=$(wc -l <"$tmp/out.txt")
# summary's rows: "  jdk.Name   COUNT   SIZE"; jdk.Metadata and jdk.Checkpoint
# are records, not events
events=$("$JFRTOOL" summary "$tmp/rec.jfr" |
    awk '$1 ~ /^[a-z]+\./ && $1 != "jdk.Metadata" && $1 != "jdk.Checkpoint" { n += $2 } END { print n }')
if [ "$status" -ne 0 ] || [ "$lines" -ne "$events" ] || [ "$lines" -eq 0 ]; then
    echo "FAIL: on rec.jfr: exit $status, $lines lines, summary counts $events events"
    fail=1
else
    echo "ok: on rec.jfr: $lines event types printed, as summary counts"
fi

rm "$tmp/rec.jfr"
(cd "$tmp" && "$JFR_SNIPPET" >out.txt 2>err.txt)
status=$?
if [ "$status" -ne 1 ] || ! grep -q '^rec.jfr: cannot open' "$tmp/err.txt" || [ -s "$tmp/out.txt" ]; then
    echo "FAIL: without rec.jfr: exit $status, stderr: $(cat "$tmp/err.txt")"
    fail=1
else
    echo "ok: without rec.jfr: exit 1, $(cat "$tmp/err.txt")"
fi
exit $fail
