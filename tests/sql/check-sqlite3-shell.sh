#!/bin/sh
# The jfrsql extension in the sqlite3 shell (doc/sql.md, "The SQLite
# extension"): .load, CREATE VIRTUAL TABLE ... USING jfr(FILE..., TYPE),
# and the rows jfrtool sql gives for the same query. Skipped without
# SQLite at configure time or without the sqlite3 shell.
#
# Environment (set by make check): JFRTOOL, JFR_TESTDATA, JFRSQL_EXT (the
# extension without its .so suffix; empty when it was not built).
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
ext=${JFRSQL_EXT:-}
[ -n "$ext" ] && [ -f "$ext.so" ] ||
    { echo "SKIP: the jfrsql extension was not built (no SQLite, or --disable-shared)"; exit 77; }
# built with sanitizers, it needs their run-time, which the host lacks
if nm -D --undefined-only "$ext.so" 2>/dev/null | grep -qE ' (__asan|__ubsan|__sanitizer)_'; then
    echo "SKIP: the jfrsql extension is built with sanitizers: it cannot load into an"
    echo "      uninstrumented sqlite3 or python3 (jfrtool sql is tested by check_sql.py)"
    exit 77
fi
command -v sqlite3 >/dev/null 2>&1 ||
    { echo "SKIP: no sqlite3 shell (Debian: apt-get install sqlite3)"; exit 77; }
rec=$JFR_TESTDATA/recordings/cpu-jdk25.jfr
fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-sqlite3.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

top='SELECT coalesce("stackTrace.topFrame", '"'N/A'"') AS m, count(*) AS n
     FROM ExecutionSample GROUP BY m ORDER BY n DESC, m LIMIT 10'
sqlite3 -batch -csv :memory: ".load $ext" \
    "CREATE VIRTUAL TABLE ExecutionSample USING jfr('$rec', 'jdk.ExecutionSample');" \
    "$top;" >"$tmp/shell" 2>"$tmp/err" ||
    { echo "FAIL: sqlite3 exited with $?:"; cat "$tmp/err"; exit 1; }
"$JFRTOOL" sql --csv "$top" "$rec" | tr -d '\r' | sed 1d >"$tmp/tool"
[ -s "$tmp/shell" ] || { echo "FAIL: the sqlite3 shell printed no rows"; fail=1; }
cmp -s "$tmp/shell" "$tmp/tool" ||
    { echo "FAIL: sqlite3 and jfrtool sql differ:"; diff "$tmp/shell" "$tmp/tool"; fail=1; }

# several files are one table; the short name finds the type
n=$(sqlite3 -batch :memory: ".load $ext" \
    "CREATE VIRTUAL TABLE s USING jfr('$rec', '$rec.gz', 'ExecutionSample');" \
    "SELECT count(*), median(chunk) FROM s;")
[ "$n" = "344|0" ] || { echo "FAIL: two files: '$n', want '344|0'"; fail=1; }

# jfr_attach: every type at once, by full and short name
n=$(sqlite3 -batch :memory: ".load $ext" "SELECT jfr_attach('$rec', '$rec.gz') > 100;" \
    "SELECT count(*) FROM ExecutionSample;" 'SELECT count(*) FROM "jdk.CPUTimeSample";')
want=$(printf '1\n344\n730')
[ "$n" = "$want" ] || { echo "FAIL: jfr_attach: '$n', want '$want'"; fail=1; }
sqlite3 -batch :memory: ".load $ext" "SELECT jfr_attach('$tmp/absent.jfr');" \
    >/dev/null 2>"$tmp/err"
grep -q 'jfr_attach: .*absent.jfr' "$tmp/err" ||
    { echo "FAIL: jfr_attach of a missing file:"; cat "$tmp/err"; fail=1; }

# a table that names files is not usable from a view (a stored schema
# must not make the reader open files)
sqlite3 -batch :memory: ".load $ext" \
    "CREATE VIRTUAL TABLE s USING jfr('$rec', 'ExecutionSample');" \
    "CREATE VIEW v AS SELECT * FROM s;" "SELECT count(*) FROM v;" >/dev/null 2>"$tmp/err"
grep -q 'unsafe use of virtual table' "$tmp/err" ||
    { echo "FAIL: a view over a jfr table was allowed:"; cat "$tmp/err"; fail=1; }

# an unknown type or an unreadable file is an error, not a crash
for args in "'$rec', 'NoSuchType'" "'$tmp/absent.jfr', 'ExecutionSample'" "'$rec'"; do
    sqlite3 -batch :memory: ".load $ext" "CREATE VIRTUAL TABLE s USING jfr($args);" \
        >/dev/null 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne 1 ] || ! grep -q 'jfr' "$tmp/err"; then
        echo "FAIL: USING jfr($args): exit $rc:"; cat "$tmp/err"; fail=1
    fi
done
# the connection the extension is loaded into takes double quotes as names
# only: a mistyped column is an error (it was one row of the text and 365)
sqlite3 -batch :memory: ".load $ext" \
    "CREATE VIRTUAL TABLE s USING jfr('$rec', 'CPUTimeSample');" \
    'SELECT "eventThread.javaNam", count(*) FROM s GROUP BY 1;' >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 1 ] || [ -s "$tmp/out" ] || ! grep -q 'no such column: eventThread.javaNam' "$tmp/err"; then
    echo "FAIL: a mistyped quoted column: exit $rc, rows '$(cat "$tmp/out")':"; cat "$tmp/err"; fail=1
fi
# an unknown type names the nearest types
sqlite3 -batch :memory: ".load $ext" "CREATE VIRTUAL TABLE s USING jfr('$rec', 'ExecutionSampl');" \
    >/dev/null 2>"$tmp/err"
grep -q "no event type 'ExecutionSampl' in the files (did you mean jdk.ExecutionSample?)" "$tmp/err" ||
    { echo "FAIL: an unknown type suggests nothing:"; cat "$tmp/err"; fail=1; }
[ "$fail" -eq 0 ] && echo "PASS: the sqlite3 shell loads jfrsql and queries a recording"
exit "$fail"
