#!/bin/sh
# Every view of `jfrtool view --jdk-order` against the committed JDK 25
# `jfr view` outputs (testdata/jdk/R.view-V.txt and R.view-V.w160.txt, made
# by tests/diff/regen-jdk-outputs.sh): the output must be identical, except
# that the honest CPU-time lines jfrtool adds after the table of the
# CPU-time views are cut off first (and checked to be there). Without
# --jdk-order, equal rows are ordered by name: check_views.py ties checks
# that against the same files.
#
# Files the JDK gets wrong are compared with what it should have printed:
#   cpu-jdk17-gzip.jfr  gzip data; JDK 25 reads nothing ("No events found")
#                       -> the views of cpu-jdk17.jfr
#   cpu-jdk25.jfr.gz, cpu-jdk25.jfr.lz4 (no JDK outputs) -> cpu-jdk25.jfr's
# concat-17-25.jfr (the JDK shows only the first recording) and the
# unfinished-* files (the JDK never returns) are checked by check-json.sh.
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
TZ=UTC LC_ALL=C
export TZ LC_ALL
rec=$JFR_TESTDATA/recordings
jdk=$JFR_TESTDATA/jdk
tmp=${TMPDIR:-/tmp}/check-views.$$
mkdir -p "$tmp" || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
views="hot-methods cpu-time-hot-methods native-methods cpu-time-statistics allocation-by-class allocation-by-site"

# The JDK's part of our output: everything before the honest CPU-time lines.
jdk_part() {
    awk '/^All sampled CPU time \(JEP 509\)/ { exit }
         { if (held) print ""; held = 0; if ($0 == "") held = 1; else print }' "$1"
}

check() { # FILE GOLDEN-PREFIX
    for v in $views; do
        for w in "" 160; do
            g=$2.view-$v${w:+.w$w}.txt
            if [ ! -f "$g" ]; then
                echo "missing golden $g"; fail=1; continue
            fi
            "$JFRTOOL" view --jdk-order ${w:+--width $w} "$v" "$1" >"$tmp/out" 2>"$tmp/err"
            rc=$?
            if [ $rc -ne 0 ]; then
                echo "FAIL: view $v $1 ${w:+--width $w}: exit status $rc"; cat "$tmp/err"; fail=1
                continue
            fi
            jdk_part "$tmp/out" >"$tmp/table"
            n=$((n + 1))
            if ! cmp -s "$tmp/table" "$g"; then
                echo "FAIL: view --jdk-order ${w:+--width $w }$v $(basename "$1") differs from $(basename "$g"):"
                diff "$g" "$tmp/table" | head -20
                fail=1
            fi
            # CPU-time views with samples carry the honest lines, whose
            # lost count is the JDK's "Lost Samples".
            case $v in cpu-time-*)
                if grep -q "^Lost Samples: [0-9]" "$2.view-cpu-time-statistics.txt"; then
                    lost=$(sed -n 's/^Lost Samples: //p' "$2.view-cpu-time-statistics.txt")
                    if ! grep -q "^  Lost samples  *$lost " "$tmp/out"; then
                        echo "FAIL: view $v $(basename "$1"): no honest CPU-time line 'Lost samples $lost'"
                        fail=1
                    fi
                fi
            esac
        done
    done
}

for f in "$rec"/*.jfr; do
    b=$(basename "$f")
    case $b in
    concat-*|unfinished-*) continue ;;
    cpu-jdk17-gzip.jfr) check "$f" "$jdk/cpu-jdk17.jfr" ;;
    *) check "$f" "$jdk/$b" ;;
    esac
done
for f in "$rec"/cpu-jdk25.jfr.gz "$rec"/cpu-jdk25.jfr.lz4; do
    [ -f "$f" ] && check "$f" "$jdk/cpu-jdk25.jfr"
done
echo "$n view outputs compared with JDK 25's"
exit $fail
