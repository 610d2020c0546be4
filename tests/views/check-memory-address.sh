#!/bin/sh
# @MemoryAddress as the JDK prints it: "0x%08X", at least eight upper-case
# hex digits, so 0 is 0x00000000 and an address below 0x10000000 keeps its
# leading zero. testdata/views/park-jdk25.jfr (tests/workloads/
# make-park-recording.sh) holds jdk.ThreadPark events of address 0 (no
# blocker object) and of a blocker below 0x10000000, and jdk.JavaMonitorWait
# events; `view jdk.ThreadPark` and `print --events
# jdk.ThreadPark,jdk.JavaMonitorWait` must be JDK 25's outputs byte for byte
# (testdata/jdk/park-jdk25.jfr.view-ThreadPark.txt and .print-parks.txt,
# tests/views/regen-jdk-types.sh). Larger addresses (0x19ADE34DA08, eleven
# digits) are checked on the corpus by check_view_types.py.
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
export TZ=UTC
rec=$JFR_TESTDATA/views/park-jdk25.jfr
jdk=$JFR_TESTDATA/jdk/park-jdk25.jfr
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-address.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
# the recording still covers both cases (a remade one might not)
grep -q ' 0x00000000 ' "$jdk.view-ThreadPark.txt" &&
    grep -q ' 0x0[0-9A-F]\{7\} ' "$jdk.view-ThreadPark.txt" &&
    grep -q ' 0x0[1-9A-F][0-9A-F]\{6\} ' "$jdk.view-ThreadPark.txt" || {
    echo "FAIL: $jdk.view-ThreadPark.txt lacks address 0 or one below 0x10000000"
    fail=1
}
# compare NAME WANT COMMAND...: the command's output must be WANT's bytes
compare() {
    name=$1 want=$2
    shift 2
    if ! "$@" >"$tmp/got" 2>"$tmp/err"; then
        echo "FAIL: $name: exit status $?: $(cat "$tmp/err")"
        fail=1
    elif ! cmp -s "$want" "$tmp/got"; then
        echo "FAIL: $name differs from JDK 25's:"
        diff "$want" "$tmp/got" | head -10
        fail=1
    else
        echo "ok: $name"
    fi
}
if "$JFRTOOL" sql --help >/dev/null 2>&1; then
    LC_ALL=C.UTF-8 compare "view jdk.ThreadPark" "$jdk.view-ThreadPark.txt" \
        "$JFRTOOL" view jdk.ThreadPark "$rec"
else
    echo "note: jfrtool built without SQLite: view not checked"
fi
LC_ALL=C compare "print --events jdk.ThreadPark,jdk.JavaMonitorWait" "$jdk.print-parks.txt" \
    "$JFRTOOL" print --events jdk.ThreadPark,jdk.JavaMonitorWait "$rec"
exit $fail
