#!/bin/sh
# Self-test of tests/diff/jsoncmp: it must report real differences and
# forgive only what its two documented normalisations allow. Small JSON
# documents written here, no recordings needed.
#
# Environment: JSONCMP (default tests/diff/jsoncmp).
set -u
jsoncmp=${JSONCMP:-tests/diff/jsoncmp}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-jsoncmp.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# doc FILE EVENT...: a print --json document with these event objects.
doc() {
    f=$1
    shift
    {
        printf '{\n  "recording": {\n    "events": ['
        sep=""
        for e in "$@"; do
            printf '%s%s' "$sep" "$e"
            sep=", "
        done
        printf ']\n  }\n}\n'
    } > "$tmp/$f"
}

# expect STATUS LABEL [JSONCMP OPTIONS...]: compare ref.json with ours.json.
expect() {
    want=$1 label=$2
    shift 2
    "$jsoncmp" "$@" "$tmp/ref.json" "$tmp/ours.json" > "$tmp/out" 2>&1
    got=$?
    if [ "$got" = "$want" ]; then
        echo "ok: $label"
    else
        echo "FAIL: $label: exit $got, expected $want"
        sed 's/^/  /' "$tmp/out"
        fail=1
    fi
}

ev() { # TYPE VALUES-JSON
    printf '{"type": "%s", "values": %s}' "$1" "$2"
}
t0='"startTime": "2026-11-22T03:02:58.495462814Z"'
t5='"startTime": "2026-11-22T03:02:58.495467814Z"'   # +5 us
t20='"startTime": "2026-11-22T03:02:58.495482814Z"'  # +20 us

doc ref.json "$(ev a "{$t0, \"n\": 18446744073709551615, \"d\": 1.0E-4}")"
doc ours.json "$(ev a "{$t0, \"n\": 18446744073709551615, \"d\": 0.0001}")"
expect 0 "equal documents; 64-bit unsigned numbers; 1.0E-4 = 0.0001"

doc ours.json "$(ev a "{$t0, \"n\": 18446744073709551614, \"d\": 1.0E-4}")"
expect 1 "last digit of a 20-digit number differs"

doc ours.json "$(ev a "{$t0, \"n\": \"18446744073709551615\", \"d\": 1.0E-4}")"
expect 1 "number versus string"

doc ours.json "$(ev a "{\"n\": 18446744073709551615, $t0, \"d\": 1.0E-4}")"
expect 1 "fields in another order"

doc ours.json "$(ev b "{$t0, \"n\": 18446744073709551615, \"d\": 1.0E-4}")"
expect 1 "another event type"

doc ours.json "$(ev a "{$t0, \"n\": 18446744073709551615, \"d\": 1.0E-4}")" "$(ev a '{}')"
expect 1 "one event more"

doc ref.json "$(ev a '{"m": "x\ufffd\ufffdy"}')"
doc ours.json "$(ev a '{"m": "x\ud835\udefcy"}')"
expect 0 "(a) U+FFFD U+FFFD against one supplementary character"
grep -q 'cesu8 supplementary characters: 1 strings' "$tmp/out" || { echo "FAIL: (a) not counted"; fail=1; }

doc ours.json "$(ev a '{"m": "x\u00e9\u00e9y"}')"
expect 1 "(a) does not excuse other characters"

doc ref.json "$(ev a "{$t0}")" "$(ev a "{$t0}")"
doc ours.json "$(ev a "{$t0}")" "$(ev a "{$t5}")"
expect 1 "(b) no tolerance without --first-chunk-events"
expect 0 "(b) 5 us accepted after the first chunk" --first-chunk-events 1
grep -q 'time base: 1 timestamps (largest difference 5000 ns)' "$tmp/out" || { echo "FAIL: (b) not counted"; fail=1; }

doc ours.json "$(ev a "{$t5}")" "$(ev a "{$t0}")"
expect 1 "(b) no tolerance inside the first chunk" --first-chunk-events 1

doc ours.json "$(ev a "{$t0}")" "$(ev a "{$t20}")"
expect 1 "(b) 20 us is too much" --first-chunk-events 1

doc ref.json "$(ev a '{"x": 1}')"
doc part2.json "$(ev b '{"y": 2}')"
doc ref2.json "$(ev a '{"x": 1}')" "$(ev b '{"y": 2}')"
if "$jsoncmp" --ref-label parts "$tmp/ref.json" "$tmp/part2.json" -- "$tmp/ref2.json" > "$tmp/out"; then
    echo "ok: parts read as one event list"
else
    echo "FAIL: parts read as one event list"
    sed 's/^/  /' "$tmp/out"
    fail=1
fi
n=$("$jsoncmp" --count "$tmp/ref2.json")
[ "$n" = 2 ] && echo "ok: --count" || { echo "FAIL: --count says $n, expected 2"; fail=1; }
exit $fail
