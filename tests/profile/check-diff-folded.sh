#!/bin/sh
# jfrtool diff --folded: the differential graph of two folded-stack files
# (made with --normalize) carries the same tree and values as jfrtool diff
# of the two recordings (one box per method on both sides; the frame kinds,
# which folded text does not carry, are left out of the comparison).
# Folded text as written is normalised as recordings are (--no-normalize
# keeps it). Malformed lines are reported with their line number (exit 2).
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
rec=$JFR_TESTDATA/recordings
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-diff-folded.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
for kind in exec alloc; do
    "$JFRTOOL" folded --normalize --event $kind "$rec/cpu-jdk17.jfr" >"$tmp/b" &&
        "$JFRTOOL" folded --normalize --event $kind "$rec/cpu-jdk25.jfr" >"$tmp/n" ||
        exit 1
    [ -s "$tmp/b" ] && [ -s "$tmp/n" ] || { echo "FAIL: empty folded ($kind)"; exit 1; }
    "$JFRTOOL" diff --folded "$tmp/b" "$tmp/n" --title T -o "$tmp/from-folded.html" &&
        "$JFRTOOL" diff --event $kind "$rec/cpu-jdk17.jfr" "$rec/cpu-jdk25.jfr" \
            --title T -o "$tmp/from-recordings.html" || exit 1
    # the unit is the one thing folded text does not carry
    unit=samples
    [ $kind = alloc ] && unit=bytes
    "$JFRTOOL" diff --folded --unit $unit "$tmp/b" "$tmp/n" --title T -o "$tmp/from-folded.html"
    # frame kinds: folded text has none without --annotate, and a diff is
    # coloured by change, not by kind
    for f in from-folded from-recordings; do
        sed -E 's/"k":\[[0-9,]*\]//' "$tmp/$f.html" >"$tmp/$f.nokind"
    done
    if ! cmp -s "$tmp/from-folded.nokind" "$tmp/from-recordings.nokind"; then
        echo "FAIL: --event $kind: diff --folded differs from diff of the recordings"
        diff "$tmp/from-folded.html" "$tmp/from-recordings.html" | cut -c1-300 | head -8
        fail=1
    fi
    "$JFRTOOL" diff --folded --format svg "$tmp/b" "$tmp/n" -o "$tmp/d.svg" &&
        grep -q '<svg' "$tmp/d.svg" || { echo "FAIL: --format svg"; fail=1; }
done
# folded text as written (lambda and hidden-class names with their per-run
# numbers) is normalised as the recordings are: the same boxes with the same
# values as from normalised text (in another order: the input's), and
# --no-normalize keeps the names as written
boxes() { grep -o 'data-w="[0-9]*" data-d="[0-9]*" data-k="[0-9]*" data-name="[^"]*"><title>[^<]*' "$1" | sort; }
"$JFRTOOL" folded --annotate --event exec "$rec/cpu-jdk17.jfr" >"$tmp/raw-b" &&
    "$JFRTOOL" folded --annotate --event exec "$rec/cpu-jdk25.jfr" >"$tmp/raw-n" &&
    "$JFRTOOL" folded --annotate --normalize --event exec "$rec/cpu-jdk17.jfr" >"$tmp/norm-b" &&
    "$JFRTOOL" folded --annotate --normalize --event exec "$rec/cpu-jdk25.jfr" >"$tmp/norm-n" ||
    exit 1
grep -q 'Lambda[$.+/][0-9]' "$tmp/raw-b" || { echo "FAIL: cpu-jdk17 has no numbered lambda"; exit 1; }
"$JFRTOOL" diff --folded --format svg "$tmp/raw-b" "$tmp/raw-n" --title T -o "$tmp/raw.svg" &&
    "$JFRTOOL" diff --folded --format svg "$tmp/norm-b" "$tmp/norm-n" --title T -o "$tmp/norm.svg" &&
    "$JFRTOOL" diff --folded --no-normalize --format svg "$tmp/raw-b" "$tmp/raw-n" --title T \
        -o "$tmp/kept.svg" || exit 1
boxes "$tmp/raw.svg" >"$tmp/raw.boxes"
boxes "$tmp/norm.svg" >"$tmp/norm.boxes"
if [ ! -s "$tmp/raw.boxes" ] || ! cmp -s "$tmp/raw.boxes" "$tmp/norm.boxes"; then
    echo "FAIL: diff --folded of folded text as written differs from normalised text"
    diff "$tmp/raw.boxes" "$tmp/norm.boxes" | cut -c1-200 | head -6
    fail=1
fi
grep -q 'data-name="[^"]*Lambda[$.+/][0-9]' "$tmp/kept.svg" ||
    { echo "FAIL: --no-normalize: the lambda names lost their numbers"; fail=1; }
printf 'a;b 3\nnot a line\n' >"$tmp/bad"
"$JFRTOOL" diff --folded "$tmp/bad" "$tmp/n" -o "$tmp/x.html" 2>"$tmp/err"
st=$?
if [ $st -ne 2 ] || ! grep -q "bad:2: not a folded stack" "$tmp/err"; then
    echo "FAIL: a malformed line: status $st, $(cat "$tmp/err")"
    fail=1
fi
"$JFRTOOL" diff --folded --unit parsecs "$tmp/b" "$tmp/n" >/dev/null 2>&1
[ $? -eq 1 ] || { echo "FAIL: a bad --unit is not a usage error"; fail=1; }
[ $fail -eq 0 ] && echo "ok: diff --folded draws what diff of the recordings draws"
exit $fail
