#!/bin/sh
# jfr view's options (--width, --cell-height, --truncate) on generic views:
# each case of options-cases.txt against JDK 25's output for it
# (testdata/jdk/RECORDING.opts-NAME.txt), byte for byte.
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
TZ=UTC LC_ALL=C
export TZ LC_ALL
"$JFRTOOL" view --generic hot-methods "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" >/dev/null 2>&1 ||
    { echo "SKIP: no generic views (built without SQLite)"; exit 77; }
here=$(dirname "$0")
tmp=${TMPDIR:-/tmp}/check-options.$$
trap 'rm -f "$tmp"' EXIT
fail=0 n=0
grep -v '^#' "$here/options-cases.txt" | {
    while read -r name rec rest; do
        [ -n "$name" ] || continue
        # shellcheck disable=SC2086
        "$JFRTOOL" view $rest "$JFR_TESTDATA/recordings/$rec" >"$tmp" 2>&1
        n=$((n + 1))
        if ! cmp -s "$tmp" "$JFR_TESTDATA/jdk/$rec.opts-$name.txt"; then
            echo "FAIL: view $rest $rec differs from $rec.opts-$name.txt:"
            diff "$JFR_TESTDATA/jdk/$rec.opts-$name.txt" "$tmp" | head -10
            fail=1
        fi
    done
    echo "$n cases"
    exit $fail
}
