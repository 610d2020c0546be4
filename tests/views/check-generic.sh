#!/bin/sh
# The hand-made views (fast paths), and the GC phase views whose rows
# jfrtool/view_spans.c computes without SQL (every row of jfr_views with
# SQL and a fast_path), against their definitions in
# sql/view_list.c run by the generic engine (`view --generic`): the same
# table on every test recording. The honest CPU-time lines the fast paths
# add after the table (doc/views.md) are cut first. memory-leaks-by-class,
# memory-leaks-by-site and cpu-time-statistics have no generic definition:
# the JDK's LAST_BATCH (the last batch of old-object samples, doc/views.md
# §6) and the CPU-time form are computed by the fast paths only. The
# identity recordings (testdata/views) have threads, classes and methods
# of one name that are rows of their own (by identity, jfr/identity.h), in
# the same order on both paths; concat-17-25.jfr joins two JVM runs.
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
TZ=UTC LC_ALL=C
export TZ LC_ALL
"$JFRTOOL" view --generic hot-methods "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" >/dev/null 2>&1 ||
    { echo "SKIP: no generic views (built without SQLite)"; exit 77; }
tmp=${TMPDIR:-/tmp}/check-generic.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
# the views whose row names a hand-made path and has SQL (sql/view_list.c)
twins=$("$JFRTOOL" sql --csv "SELECT name FROM jfr_views WHERE fast_path IS NOT NULL
    AND query IS NOT NULL" "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" | tr -d '\r' | sed 1d)
[ "$(echo "$twins" | wc -l)" -ge 8 ] || { echo "FAIL: the twins are not in jfr_views: $twins"; exit 1; }
fail=0 n=0
for f in "$JFR_TESTDATA"/recordings/cpu-jdk17.jfr "$JFR_TESTDATA"/recordings/cpu-jdk25.jfr \
    "$JFR_TESTDATA"/recordings/io-jdk25.jfr "$JFR_TESTDATA"/recordings/leak-jdk17.jfr \
    "$JFR_TESTDATA"/recordings/leak-jdk25.jfr "$JFR_TESTDATA"/recordings/multi-jdk25.jfr \
    "$JFR_TESTDATA"/views/identity-jdk17.jfr "$JFR_TESTDATA"/views/identity-jdk25.jfr \
    "$JFR_TESTDATA"/recordings/concat-17-25.jfr; do
    for v in $twins; do
        for w in "" 50; do
            "$JFRTOOL" view ${w:+--width $w} "$v" "$f" |
                awk '/^All sampled CPU time \(JEP 509\)/ { exit }
                     { if (held) print ""; held = 0; if ($0 == "") held = 1; else print }' >"$tmp/fast"
            "$JFRTOOL" view --generic ${w:+--width $w} "$v" "$f" >"$tmp/generic"
            n=$((n + 1))
            if ! cmp -s "$tmp/fast" "$tmp/generic"; then
                echo "FAIL: view ${w:+--width $w }$v $(basename "$f"): fast path and generic path differ"
                diff "$tmp/fast" "$tmp/generic" | head -10
                fail=1
            fi
        done
    done
done
echo "$n outputs compared"
exit $fail
