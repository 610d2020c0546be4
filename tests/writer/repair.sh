#!/bin/sh
# jfrtool repair on the damaged files of tests/writer/variants.py (every
# file of testdata/corrupt, the unfinished recordings, cuts inside and
# between the chunks of multi-jdk25.jfr, mutated bytes, damaged headers,
# records of size 0):
# - exit status 2 exactly when jfrtool summary has nothing to read (and no
#   output is written), else 0 or 3, 3 exactly when something was left out;
# - the output is read with --strict (no warning), and its summary counts
#   are what jfrtool summary salvaged from the input, less the damaged
#   events repair names as left out;
# - the output is the one (sha256) whose JDK 25 `jfr summary` counts are
#   committed in testdata/writer/jdk/repair.tsv.gz, and those are the same
#   counts: the JDK reads every repaired file and finds what we salvaged;
# - nothing JDK 25's text jfr print stops at is written (jdk_printable.py:
#   a frame without its method, a class without its name, ...), but for
#   what the input had of its own (regen-jdk-outputs.sh prints them all);
# - repairing the output again writes the same bytes: nothing is kept
#   that only a left-out entry referred to.
#
# Environment (set by make check): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
here=$(dirname "$0")
. "$here/writerlib.sh"
make_scratch
gzip -dc "$JFR_TESTDATA/writer/jdk/repair.tsv.gz" >"$tmp/jdk.tsv"
python3 "$here/variants.py" "$JFR_TESTDATA" "$tmp/var" >"$tmp/names" ||
    { fail "variants.py"; finish repair; }
n=0
while read -r name; do
    n=$((n + 1))
    in=$tmp/var/$name.jfr
    rm -f "$tmp/out.jfr"
    status=0
    "$JFRTOOL" repair "$in" "$tmp/out.jfr" 2>"$tmp/err" || status=$?
    jdk=$(awk -F'\t' -v n="$name" '$1 == n' "$tmp/jdk.tsv")
    [ -n "$jdk" ] || { fail "$name: not in repair.tsv.gz"; continue; }
    [ "$status" = "$(echo "$jdk" | cut -f2)" ] ||
        fail "$name: exit status $status, $(echo "$jdk" | cut -f2) when JDK 25 read it"
    sstatus=0
    "$JFRTOOL" summary "$in" >/dev/null 2>&1 || sstatus=$?
    case $status in
        2) [ "$sstatus" = 2 ] || fail "$name: repair found nothing, summary did"
           [ -e "$tmp/out.jfr" ] && fail "$name: an output was written"
           continue ;;
        0) grep -q "left out" "$tmp/err" && fail "$name: exit 0, but: $(grep "left out" "$tmp/err")" ;;
        3) grep -q "left out" "$tmp/err" || fail "$name: exit 3 without saying what was left out" ;;
        *) fail "$name: exit status $status: $(head -3 "$tmp/err")"; continue ;;
    esac
    # what lost pool entries left without what JDK 25's text print needs
    # is left out (testdata/corrupt is made from a recording whose frames
    # refer to no method: that is its own, and kept)
    case $name in
        corrupt-*) ;;
        *) "$JFRTOOL" print --json "$tmp/out.jfr" | python3 "$here/jdk_printable.py" >"$tmp/jp" ||
               fail "$name: the JDK's text print would stop: $(head -1 "$tmp/jp")" ;;
    esac
    if ! "$JFRTOOL" --strict summary "$tmp/out.jfr" >"$tmp/sum" 2>"$tmp/serr" ||
        [ -s "$tmp/serr" ]; then
        fail "$name: the output is not read without a warning: $(head -2 "$tmp/serr")"
    fi
    summary_counts <"$tmp/sum" >"$tmp/ours"
    counts_less_left_out "$in" "$tmp/err" >"$tmp/salvaged"
    cmp -s "$tmp/ours" "$tmp/salvaged" ||
        fail "$name: output counts are not what summary salvaged: $(diff "$tmp/salvaged" "$tmp/ours" | head -4 | tr '\n' ';')"
    "$JFRTOOL" repair "$tmp/out.jfr" "$tmp/again.jfr" 2>/dev/null &&
        cmp -s "$tmp/out.jfr" "$tmp/again.jfr" ||
        fail "$name: a second repair does not write the same bytes"
    [ "$(sha_of "$tmp/out.jfr")" = "$(echo "$jdk" | cut -f3)" ] ||
        fail "$name: the output changed since JDK 25 read it (tests/writer/regen-jdk-outputs.sh)"
    echo "$jdk" | cut -f4 | tr ',' '\n' | tr '=' ' ' | grep . | LC_ALL=C sort >"$tmp/jdkc"
    cmp -s "$tmp/jdkc" "$tmp/salvaged" ||
        fail "$name: JDK 25's counts are not what summary salvaged: $(diff "$tmp/salvaged" "$tmp/jdkc" | head -4 | tr '\n' ';')"
done <"$tmp/names"
[ "$n" -ge 60 ] || fail "only $n damaged files"
finish "repair ($n damaged files)"
