#!/bin/sh
# Regenerate testdata/jdk/ (what the JDK's own `jfr` tool says about each
# committed recording) from testdata/recordings/. Maintainers only: the tests
# compare against the committed outputs, so `make check` needs no JDK.
#
# Usage: tests/diff/regen-jdk-outputs.sh [-r RECDIR] [-o OUTDIR] [NAME.jfr...]
#   -r RECDIR   recordings to read (default: testdata/recordings)
#   -o OUTDIR   where to write (default: testdata/jdk)
#   NAME.jfr    only these recordings (default: every *.jfr in RECDIR)
#
# JDK 25 (the reference tool) and JDK 17 are looked up in $JAVA25_HOME,
# $JAVA17_HOME, $JAVA_HOME, /usr/lib/jvm/* and the java on PATH. Every JDK
# command runs with TZ=UTC LC_ALL=C. For each recording R it writes:
#   R.summary.txt            jfr summary                      (JDK 25)
#   R.summary17.txt          jfr summary                      (JDK 17)
#   R.print.json.gz          jfr print --json --stack-depth 2048, gzip -9 -n
#   R.print.txt.gz           jfr print --stack-depth 64, gzip -9 -n
#   R.metadata.txt           jfr metadata
#   R.metadata-events.txt, R.metadata-both.txt  jfr metadata --events
#                            (--categories) of three recordings (below)
#   R.view-V.txt             jfr view V            (default width)
#   R.view-V.w160.txt        jfr view --width 160 V
#   R.print17.txt.gz         jfr print --stack-depth 64 by JDK 17, only for
#                            unfinished-*.jfr (JDK 25 refuses those files;
#                            the JDK 17 JSON is left out to save space)
# When a command fails its stdout is dropped and its stderr is kept in the
# same name with .err in place of the output suffix (R.print.err for both
# print forms, R.view-V.err / R.view-V.w160.err, R.summary.err, ...), with
# the recordings directory removed from file paths in the messages.
# JDK 25 `jfr view` treats an unfinished chunk as a live recording and waits
# forever for it to be completed, so every command runs under `timeout`:
# $JFR_TIMEOUT seconds (default 120), or $JFR_VIEW_TIMEOUT (default 15) for
# views of unfinished-*.jfr; a timeout is noted in the .err file.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rec=$top/testdata/recordings
out=$top/testdata/jdk
while getopts r:o: opt; do
    case $opt in
        r) rec=$OPTARG ;;
        o) out=$OPTARG ;;
        *) sed -n '2,28p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
mkdir -p "$out"
rec_abs=$(cd "$rec" && pwd -P)
limit=${JFR_TIMEOUT:-120}
view_limit=${JFR_VIEW_TIMEOUT:-15}

views="hot-methods cpu-time-hot-methods native-methods cpu-time-statistics
memory-leaks-by-class memory-leaks-by-site allocation-by-class allocation-by-site"

# ---- locate the JDKs -----------------------------------------------------
spec_version() { # $1 = JDK home -> feature version, e.g. 17 or 25
    "$1/bin/java" -XshowSettings:properties -version 2>&1 |
        sed -n 's/^ *java\.specification\.version = //p' | head -n 1
}
homes=""
for d in "${JAVA25_HOME:-}" "${JAVA17_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    if [ -n "$d" ] && [ -x "$d/bin/jfr" ]; then homes="$homes $d"; fi
done
if command -v jfr >/dev/null 2>&1; then
    p=$(readlink -f "$(command -v jfr)" 2>/dev/null || command -v jfr)
    homes="$homes $(dirname "$(dirname "$p")")"
fi
jdk17="" jdk25=""
for d in $homes; do
    case $(spec_version "$d") in
        17) [ -n "$jdk17" ] || jdk17=$d ;;
        25) [ -n "$jdk25" ] || jdk25=$d ;;
    esac
done
[ -n "$jdk25" ] || { echo "JDK 25 not found (set JAVA25_HOME)" >&2; exit 1; }
[ -n "$jdk17" ] || echo "warning: JDK 17 not found, skipping the *17 outputs" >&2
echo "JDK 25: $jdk25"
echo "JDK 17: ${jdk17:-none}"

export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-regen.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

have_timeout=0
if command -v timeout >/dev/null 2>&1; then have_timeout=1; fi
secs=$limit

# tool OUT ERR GZIP HOME ARGS...: run HOME/bin/jfr ARGS; on success store its
# stdout in OUT (gzip -9 -n when GZIP is 1) and remove ERR, on failure store
# its stderr in ERR and remove OUT.
tool() {
    o=$1 e=$2 z=$3 h=$4
    shift 4
    if [ "$have_timeout" = 1 ]; then set -- timeout "$secs" "$h/bin/jfr" "$@"; else set -- "$h/bin/jfr" "$@"; fi
    if "$@" > "$tmp/stdout" 2> "$tmp/stderr"; then
        if [ "$z" = 1 ]; then
            gzip -9 -n -c "$tmp/stdout" > "$o"
        else
            cp "$tmp/stdout" "$o"
        fi
        rm -f "$e"
    else
        rc=$?
        {
            # drop the recordings directory from messages, which the JDK
            # prints as absolute paths, so that .err files do not depend on
            # where the checkout is
            sed "s|$rec_abs/||g" "$tmp/stderr"
            if [ "$have_timeout" = 1 ] && [ "$rc" = 124 ]; then
                echo "[killed after $secs s without finishing; stdout so far: $(wc -c < "$tmp/stdout") bytes]"
            else
                echo "[exit status $rc]"
            fi
        } > "$e"
        rm -f "$o"
        echo "   failed ($rc): $* -> $(basename "$e")"
    fi
}

if [ $# -eq 0 ]; then
    set -- "$rec"/*.jfr
fi
for name in "$@"; do
    name=$(basename "$name")
    r=$rec/$name
    [ -f "$r" ] || { echo "no such recording: $r" >&2; exit 1; }
    b=$out/$name
    echo "== $name"
    rm -f "$b".*
    tool "$b.summary.txt" "$b.summary.err" 0 "$jdk25" summary "$r"
    if [ -n "$jdk17" ]; then
        tool "$b.summary17.txt" "$b.summary17.err" 0 "$jdk17" summary "$r"
    fi
    tool "$b.metadata.txt" "$b.metadata.err" 0 "$jdk25" metadata "$r"
    case $name in # filtered, for tests/cli/metadata-vs-jdk.sh
    cpu-jdk25.jfr) tool "$b.metadata-events.txt" "$tmp/metadata.err" 0 "$jdk25" metadata \
        --events 'jdk.GC*,ThreadPark' "$r" ;;
    cpu-jdk17.jfr) tool "$b.metadata-both.txt" "$tmp/metadata.err" 0 "$jdk25" metadata \
        --categories 'GC,Java Application' --events 'jdk.*Allocation*,FileRead' "$r" ;;
    mini-jfr10.jfr) tool "$b.metadata-events.txt" "$tmp/metadata.err" 0 "$jdk25" metadata \
        --events ExecutionSample "$r" ;;
    esac
    tool "$b.print.json.gz" "$b.print.err" 1 "$jdk25" print --json --stack-depth 2048 "$r"
    # the text form fails the same way as JSON when it fails; keep one .err
    if [ -f "$b.print.err" ]; then
        tool "$b.print.txt.gz" "$tmp/print-txt.err" 1 "$jdk25" print --stack-depth 64 "$r"
    else
        tool "$b.print.txt.gz" "$b.print.err" 1 "$jdk25" print --stack-depth 64 "$r"
    fi
    case $name in unfinished-*) secs=$view_limit ;; esac
    for v in $views; do
        tool "$b.view-$v.txt" "$b.view-$v.err" 0 "$jdk25" view "$v" "$r"
        tool "$b.view-$v.w160.txt" "$b.view-$v.w160.err" 0 "$jdk25" view --width 160 "$v" "$r"
    done
    secs=$limit
    case $name in
        unfinished-*)
            if [ -n "$jdk17" ]; then
                tool "$b.print17.txt.gz" "$b.print17.err" 1 "$jdk17" print --stack-depth 64 "$r"
            fi
            ;;
    esac
done
du -sh "$out"
