#!/bin/sh
# jfrtool view memory-leaks-by-class / memory-leaks-by-site against the
# committed outputs of JDK 25's `jfr view` (testdata/jdk/R.view-V.txt and
# .w160.txt, made by tests/diff/regen-jdk-outputs.sh), at the default width
# and at --width 160. The title, header and dash lines must be identical;
# rows must be identical too, except that rows with the same allocation
# time are compared as a set (we order ties by name, the JDK by its hash
# map: the lead's rule, doc/views.md). With --jdk-order the whole output
# must be identical.
# Not compared: concat-17-25.jfr (the JDK reads only the first recording)
# and the unfinished-* files (the JDK never returns on them).
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
TZ=UTC LC_ALL=C
export TZ LC_ALL
tmp=${TMPDIR:-/tmp}/check-leak-views.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# lines 1-5 as they are; then the rows sorted by their first column (time)
# and, within one time, by the whole line
canonical() {
    head -n 5 "$1"
    tail -n +6 "$1" | sort -s -k1,1 -k2
}

for r in leak-jdk17 leak-jdk25 cpu-jdk17 cpu-jdk25 io-jdk25 multi-jdk25; do
    for v in memory-leaks-by-class memory-leaks-by-site; do
        for w in "" 160; do
            g=$JFR_TESTDATA/jdk/$r.jfr.view-$v${w:+.w$w}.txt
            if [ ! -f "$g" ]; then
                echo "FAIL: missing $g"; fail=1; continue
            fi
            n=$((n + 1))
            if ! "$JFRTOOL" view ${w:+--width $w} "$v" "$JFR_TESTDATA/recordings/$r.jfr" \
                >"$tmp/out" 2>"$tmp/err"; then
                echo "FAIL: view $v $r: exit status $?"; cat "$tmp/err"; fail=1; continue
            fi
            # with --jdk-order ties come in the JDK's order: byte for byte
            if ! "$JFRTOOL" view --jdk-order ${w:+--width $w} "$v" \
                "$JFR_TESTDATA/recordings/$r.jfr" 2>&1 | cmp -s - "$g"; then
                echo "FAIL: view --jdk-order ${w:+--width $w }$v $r differs from $(basename "$g")"
                fail=1
            fi
            canonical "$g" >"$tmp/want"
            canonical "$tmp/out" >"$tmp/got"
            if ! cmp -s "$tmp/want" "$tmp/got"; then
                echo "FAIL: view ${w:+--width $w }$v $r differs from $(basename "$g"):"
                diff "$tmp/want" "$tmp/got" | head -20
                fail=1
            fi
        done
    done
done
# JSON: one row per printed row, each with the promised fields
"$JFRTOOL" view --json memory-leaks-by-site "$JFR_TESTDATA/recordings/leak-jdk25.jfr" >"$tmp/j"
rows=$(grep -c '"applicationMethod"' "$tmp/j")
want=$(($(wc -l <"$JFR_TESTDATA/jdk/leak-jdk25.jfr.view-memory-leaks-by-site.txt") - 5))
if [ "$rows" -ne "$want" ] || ! grep -q '"heapUsage": 151' "$tmp/j"; then
    echo "FAIL: view --json memory-leaks-by-site: $rows rows, expected $want"; fail=1
fi
echo "$n outputs compared"
exit $fail
