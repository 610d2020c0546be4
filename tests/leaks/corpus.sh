#!/bin/sh
# jfrtool leaks on the public corpus files whose old-object samples carry
# reference chains (MANIFEST.tsv): each must yield candidates, valid JSON
# and exit status 0. A file without chains must say so and rank instead.
# Skipped when ../shared/corpus is absent.
: "${JFRTOOL:?}"
TZ=UTC LC_ALL=C
export TZ LC_ALL
corpus=${JFR_SHARED:-}/corpus/public
if [ -z "$JFR_SHARED" ] || [ ! -d "$corpus" ]; then
    echo "SKIP: the public corpus (../shared/corpus/public) is not present"
    exit 77
fi
check=${JFRTOOL%/jfrtool/jfrtool}/tests/leaks/leaks-json-check
tmp=${TMPDIR:-/tmp}/check-leaks-corpus.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

for name in sjk-jfr_11_mc.jfr ddtrace-test-recording.jfr jmc-flight_recording_17eaMonitoredVM10440_3.jfr; do
    f=$corpus/$name
    if [ ! -f "$f" ]; then
        echo "SKIP: $name not in the corpus"; continue
    fi
    if ! "$JFRTOOL" leaks --json "$f" >"$tmp/out.json" 2>"$tmp/err"; then
        echo "FAIL: leaks --json $name: exit status $?"; cat "$tmp/err"; fail=1; continue
    fi
    if ! "$check" --min-candidates 1 "$tmp/out.json"; then
        echo "FAIL: leaks --json $name: no candidate or bad fields"; fail=1
    fi
    if ! "$JFRTOOL" leaks "$f" >"$tmp/out.txt" 2>"$tmp/err" || ! grep -q '^#1 ' "$tmp/out.txt"; then
        echo "FAIL: leaks $name: no candidate in the text output"; fail=1
    fi
done

# no chains: said, and ranked by class and site
f=$corpus/greystone-recording.jfr
if [ -f "$f" ]; then
    "$JFRTOOL" leaks "$f" >"$tmp/out.txt" 2>"$tmp/err"
    if ! grep -q '^No reference chains' "$tmp/out.txt" || ! grep -q '^By class:' "$tmp/out.txt" ||
       ! grep -q '^By allocation site:' "$tmp/out.txt"; then
        echo "FAIL: leaks $(basename "$f"): the fallback ranking is missing"; fail=1
    fi
    "$JFRTOOL" leaks --json "$f" >"$tmp/out.json"
    if ! "$check" "$tmp/out.json" || ! grep -q '"byClass"' "$tmp/out.json"; then
        echo "FAIL: leaks --json $(basename "$f"): no ranking"; fail=1
    fi
fi
exit $fail
