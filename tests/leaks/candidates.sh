#!/bin/sh
# jfrtool leaks on the leak workload's recordings (JDK 17 and 25, made by
# tests/diff/make-test-recordings.sh; also ../shared/recordings when
# present): the top candidate must grow through
# LeakWorkload$SessionCache.SESSIONS and the second through
# LeakWorkload$EventBus.LISTENERS, in the text and in the JSON output, and
# the JSON must hold every promised field (leaks-json-check).
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
TZ=UTC LC_ALL=C
export TZ LC_ALL
check=${JFRTOOL%/jfrtool/jfrtool}/tests/leaks/leaks-json-check
tmp=${TMPDIR:-/tmp}/check-leaks.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
first='LeakWorkload$SessionCache.SESSIONS'
second='LeakWorkload$EventBus.LISTENERS'

one() { # FILE
    n=$((n + 1))
    if ! "$JFRTOOL" leaks --json "$1" >"$tmp/out.json" 2>"$tmp/err"; then
        echo "FAIL: leaks --json $1: exit status $?"; cat "$tmp/err"; fail=1; return
    fi
    if [ -s "$tmp/err" ]; then
        echo "FAIL: leaks --json $1 warned:"; cat "$tmp/err"; fail=1
    fi
    if ! "$check" --min-candidates 2 --expect "$first" --expect "$second" "$tmp/out.json"; then
        echo "FAIL: leaks --json $1: candidates or fields wrong"; fail=1
    fi
    if ! "$JFRTOOL" leaks --top 2 "$1" >"$tmp/out.txt" 2>"$tmp/err"; then
        echo "FAIL: leaks $1: exit status $?"; cat "$tmp/err"; fail=1; return
    fi
    got=$(sed -n 's/^#\([12]\) //p' "$tmp/out.txt" | tr '\n' ' ')
    case $got in
    *"$first "*"$second "*) ;;
    *) echo "FAIL: leaks $1: candidates are '$got'"; fail=1 ;;
    esac
    # the path from the GC root ends at the candidate, with the growth site on it
    if ! grep -q 'the leak grows here' "$tmp/out.txt" || ! grep -q '^  GC root: ' "$tmp/out.txt"; then
        echo "FAIL: leaks $1: no path or GC root in the text output"; fail=1
    fi
    if ! grep -q '^Warm-up (' "$tmp/out.txt"; then
        echo "FAIL: leaks $1: the warm-up rule is not reported"; fail=1
    fi
}

for f in "$JFR_TESTDATA"/recordings/leak-jdk17.jfr "$JFR_TESTDATA"/recordings/leak-jdk25.jfr; do
    one "$f"
done
if [ -n "$JFR_SHARED" ] && [ -d "$JFR_SHARED/recordings" ]; then
    for f in "$JFR_SHARED"/recordings/leak-jdk17.jfr "$JFR_SHARED"/recordings/leak-jdk25.jfr; do
        [ -f "$f" ] && one "$f"
    done
else
    echo "SKIP: ../shared/recordings not present"
fi

# a bad --top is a usage error
"$JFRTOOL" leaks --top 0 "$JFR_TESTDATA/recordings/leak-jdk25.jfr" >/dev/null 2>&1
rc=$?
if [ $rc -ne 1 ]; then
    echo "FAIL: leaks --top 0: exit status $rc, expected 1"; fail=1
fi
# --top limits the candidates
"$JFRTOOL" leaks --json --top 1 "$JFR_TESTDATA/recordings/leak-jdk25.jfr" >"$tmp/one.json"
if ! "$check" --expect "$first" "$tmp/one.json" ||
   [ "$(grep -c '"growsThrough"' "$tmp/one.json")" -ne 1 ]; then
    echo "FAIL: leaks --json --top 1 does not give exactly the top candidate"; fail=1
fi
# two recordings: the trees never merge across them, so each has its two
# candidates, named with their file
"$JFRTOOL" leaks --json "$JFR_TESTDATA/recordings/leak-jdk17.jfr" \
    "$JFR_TESTDATA/recordings/leak-jdk25.jfr" >"$tmp/two.json"
"$JFRTOOL" leaks "$JFR_TESTDATA/recordings/leak-jdk17.jfr" \
    "$JFR_TESTDATA/recordings/leak-jdk25.jfr" >"$tmp/two.txt"
if ! "$check" --min-candidates 4 "$tmp/two.json" ||
   [ "$(grep -c "^#[0-9] .*$first\$" "$tmp/two.txt")" -ne 2 ] ||
   [ "$(grep -c "^#[0-9] .*$second\$" "$tmp/two.txt")" -ne 2 ] ||
   [ "$(grep -c '^  in .*leak-jdk[12][57].jfr$' "$tmp/two.txt")" -ne 4 ]; then
    echo "FAIL: leaks on two recordings: not two candidates each, with their files"; fail=1
fi
echo "$n recordings checked"
exit $fail
