#!/bin/sh
# The scrub cases of testdata/writer/scrub-cases.tsv against JDK 25, without
# a JDK: jfrtool scrub's output must be the very bytes whose `jfr print`
# tests/writer/regen-jdk-outputs.sh found equal to the reference (the
# sha256 in testdata/writer/jdk/scrub.tsv), and the reference's digest is
# checked here: the input's `jfr print` (testdata/jdk/R.print.txt.gz) for a
# round trip, the print of JDK 25's own `jfr scrub` output
# (testdata/writer/jdk/NAME.jdk-scrub.print.txt.gz) otherwise. A round
# trip's `jfr summary` equals the input's but for the jdk.Checkpoint row
# (one checkpoint instead of many).
#
# Environment (set by make check): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
. "$(dirname "$0")/writerlib.sh"
make_scratch
rec=$JFR_TESTDATA/recordings
jdk=$JFR_TESTDATA/writer/jdk
n=0

grep -v '^#' "$JFR_TESTDATA/writer/scrub-cases.tsv" >"$tmp/cases"
while IFS='	' read -r name file opts; do
    n=$((n + 1))
    want=$(awk -F'\t' -v n="$name" '$1 == n' "$jdk/scrub.tsv")
    [ -n "$want" ] || { fail "$name: not in $jdk/scrub.tsv"; continue; }
    # shellcheck disable=SC2086 # the options are words
    if ! "$JFRTOOL" scrub $opts "$rec/$file" "$tmp/out.jfr" 2>"$tmp/err"; then
        fail "$name: jfrtool scrub failed: $(cat "$tmp/err")"
        continue
    fi
    [ "$(sha_of "$tmp/out.jfr")" = "$(echo "$want" | cut -f2)" ] ||
        fail "$name: the output changed since JDK 25 read it; check it with tests/writer/regen-jdk-outputs.sh"
    if [ -z "$opts" ]; then
        ref=$rec/../jdk/$file.print.txt.gz
    else
        ref=$jdk/$name.jdk-scrub.print.txt.gz
    fi
    [ "$(gzip -dc "$ref" | sha256sum | cut -d' ' -f1)" = "$(echo "$want" | cut -f3)" ] ||
        fail "$name: JDK 25's print of our output is not $(basename "$ref")"
    if [ -z "$opts" ]; then
        grep -v jdk.Checkpoint "$rec/../jdk/$file.summary.txt" >"$tmp/in"
        grep -v jdk.Checkpoint "$jdk/$name.summary.txt" | diff "$tmp/in" - >"$tmp/d" ||
            fail "$name: jfr summary of the output differs from the input's: $(head -5 "$tmp/d")"
    fi
done <"$tmp/cases"
[ "$n" -ge 14 ] || fail "only $n cases"
finish "vs-jdk ($n cases)"
