#!/bin/sh
# Local-time offset of printed timestamps on a summer-time recording. The
# offset is the metadata region's gmtOffset plus its dst (JDK 25 writes dst;
# the JDK's ChunkParser converts with gmtOffset + dst). Corpus
# otelbridge-recording.jfr was made on 2026-03-31 in Central European Summer
# Time: JDK 25 prints "2026-03-31T11:37:53.437407708+02:00"; libjfr at
# commit 333754c ignores dst and prints "...10:37:53...+01:00" (the same
# instant, the wrong offset). Not yet in TESTS: add it there together with
# the libjfr fix (a dst fix is in progress in libjfr/metadata.c).
#
# Expected: testdata/jdk/corpus/otelbridge-recording.ActiveRecording.json, from
#   TZ=UTC LC_ALL=C jfr print --json --events jdk.ActiveRecording otelbridge-recording.jfr
# (JDK 25). Needs the shared corpus (else SKIP, exit 77).
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
jsoncmp=${JSONCMP:-tests/diff/jsoncmp}
rec=${JFR_SHARED:-$(dirname "$0")/../../../shared}/corpus/public/otelbridge-recording.jfr
if [ ! -f "$rec" ]; then
    echo "SKIP: no $rec (the shared public corpus is not part of the project)"
    exit 77
fi
tmp=$(mktemp "${TMPDIR:-/tmp}/jfr-dst.XXXXXX") || exit 99
trap 'rm -f "$tmp"' EXIT
"$JFRTOOL" print --json --events jdk.ActiveRecording "$rec" > "$tmp" || exit 1
"$jsoncmp" "$JFR_TESTDATA/jdk/corpus/otelbridge-recording.ActiveRecording.json" "$tmp"
