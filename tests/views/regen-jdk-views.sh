#!/bin/sh
# Regenerate the JDK 25 `jfr view` outputs of every view (the differential
# test tests/views/check-all-views.sh compares with them). Maintainers only.
#
# Usage: tests/views/regen-jdk-views.sh [-o OUTDIR] FILE.jfr...
#        tests/views/regen-jdk-views.sh -c [-o OUTDIR]
#   -c  only the cases of tests/views/options-cases.txt (views with --width,
#       --cell-height, --truncate): OUTDIR/RECORDING.opts-NAME.txt
#   default FILEs: testdata/recordings/{cpu,io,leak,multi}-jdk*.jfr,
#   testdata/views/identity-jdk{17,25}.jfr, testdata/gc/*.jfr and, when
#   present, ../shared/recordings/io-mixed-jdk{17,25}.jfr and the JFR 1.0
#   (JDK 9) files ../shared/corpus/public/jmc-{9u0,wls-medrec-jdk9}.jfr
#   (read, never copied), and multi-jdk25-reversed.jfr: multi-jdk25.jfr's
#   chunks in reverse order, made in a scratch folder as
#   tests/views/check_all_views.py makes it
#
# For each FILE R and each view V that `jfr help view` lists (plus the
# event-type forms GarbageCollection, jdk.GarbageCollection, all-events and
# types) it writes OUTDIR/R.view-V.txt (stdout), or OUTDIR/R.view-V.err when
# the JDK fails. Every command runs with TZ=UTC LC_ALL=C, as the test does.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/testdata/jdk
cases=
while getopts co: opt; do
    case $opt in
        c) cases=1 ;;
        o) out=$OPTARG ;;
        *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
jfr=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jfr
[ -x "$jfr" ] || { echo "JDK 25 jfr not found (set JAVA25_HOME)" >&2; exit 1; }
export TZ=UTC LC_ALL=C
if [ -n "$cases" ]; then
    mkdir -p "$out"
    grep -v '^#' "$here/options-cases.txt" | while read -r name rec rest; do
        [ -n "$name" ] || continue
        # shellcheck disable=SC2086
        "$jfr" view $(echo "$rest" | sed 's/--jdk-order //') "$top/testdata/recordings/$rec" \
            >"$out/$rec.opts-$name.txt" 2>&1
    done
    exit 0
fi
if [ $# -eq 0 ]; then
    set -- "$top"/testdata/recordings/cpu-jdk17.jfr "$top"/testdata/recordings/cpu-jdk25.jfr \
        "$top"/testdata/recordings/io-jdk25.jfr "$top"/testdata/recordings/leak-jdk17.jfr \
        "$top"/testdata/recordings/leak-jdk25.jfr "$top"/testdata/recordings/multi-jdk25.jfr \
        "$top"/testdata/recordings/mini-jfr10.jfr \
        "$top"/testdata/views/identity-jdk17.jfr "$top"/testdata/views/identity-jdk25.jfr \
        "$top"/testdata/gc/*.jfr
    for f in "$top"/../shared/recordings/io-mixed-jdk17.jfr "$top"/../shared/recordings/io-mixed-jdk25.jfr \
        "$top"/../shared/corpus/public/jmc-9u0.jfr "$top"/../shared/corpus/public/jmc-wls-medrec-jdk9.jfr; do
        [ -f "$f" ] && set -- "$@" "$f"
    done
    scratch=$(mktemp -d "${TMPDIR:-/tmp}/regen-jdk-views.XXXXXX")
    trap 'rm -rf "$scratch"' EXIT
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import check_all_views as c
c.reversed_chunks(sys.argv[2], sys.argv[3])' "$here" \
        "$top/testdata/recordings/multi-jdk25.jfr" "$scratch/multi-jdk25-reversed.jfr"
    set -- "$@" "$scratch/multi-jdk25-reversed.jfr"
fi
views=$("$jfr" help view | awk '/views:$/ { on = 1; next } /^$/ { on = 0 } on { for (i = 1; i <= NF; i++) print $i }')
views="$views GarbageCollection jdk.GarbageCollection all-events types"
mkdir -p "$out"
for f in "$@"; do
    r=$(basename "$f")
    for v in $views; do
        # all-events of the corpus files is not tested (large, mostly others' data)
        case $r:$v in jmc-*:all-events | mini-*:all-events | gc-*:all-events | *-reversed.jfr:all-events) continue ;; esac
        echo "$r $v"
    done
done | xargs -P "${JOBS:-2}" -n 2 sh -c '
    f=$0 v=$1
    for p in '"$(printf "%s " "$@")"'; do case $p in */"$f") path=$p ;; esac; done
    if timeout 120 "'"$jfr"'" view "$v" "$path" >"'"$out"'/$f.view-$v.txt" 2>"'"$out"'/$f.view-$v.err"; then
        rm -f "'"$out"'/$f.view-$v.err"
    else
        rm -f "'"$out"'/$f.view-$v.txt"
    fi'
