#!/bin/sh
# Regenerate what JDK 25's `jfr view EVENT-TYPE` and `jfr print` say about
# every event type of the test recordings and of the public corpus, for
# tests/views/check_view_types.py and tests/cli/check_print_digests.py
# (maintainers only; needs JDK 25).
#
# Usage: tests/views/regen-jdk-types.sh [-w WORKDIR] [-c CORPUSDIR]
#   -w WORKDIR   keep the JDK's full outputs there, and reuse the ones it
#                already holds (default: a temporary directory, removed)
#   -c CORPUSDIR the public corpus (default: ../shared/corpus/public)
#
# Writes, with TZ=UTC (and LC_ALL=C.UTF-8 for views, C for print, as the
# tests run):
#   testdata/jdk/R.view-all-events.txt.gz  `jfr view all-events` of the JDK 25
#       recordings R of testdata/{recordings,views,kinds,report} (cpu-jdk25 and
#       io-jdk25 keep their plain .txt, which check-all-events.sh reads too)
#   testdata/jdk/park-jdk25.jfr.view-ThreadPark.txt and .print-parks.txt
#       `jfr view jdk.ThreadPark` and `jfr print --events
#       jdk.ThreadPark,jdk.JavaMonitorWait` of testdata/views/park-jdk25.jfr
#   testdata/jdk/R.view-types.txt.gz  for the JDK 17 recordings, on which
#       `jfr view all-events` fails: "=== TYPE" and `jfr view TYPE` for each
#       type with events (the JDK fails on jdk.ThreadStart and jdk.Shutdown
#       of JDK 17 files: left out)
#   testdata/jdk/corpus/view-all-events.sha1  per corpus file the JDK reads,
#       one line per section of its `jfr view all-events`: FILE INDEX SHA1
#       TITLE (the corpus is not copied, nor are outputs this large)
#   testdata/jdk/print-digests.sha256  FILE SHA256 of `jfr print` of every
#       corpus file the JDK reads (of each chunk alone, FILE#N, when it has
#       several: the JDK times later chunks by the first one's clock) and of
#       the recordings of testdata/{views,kinds,report}
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
corpus=$top/../shared/corpus/public
work=
while getopts w:c: opt; do
    case $opt in
        w) work=$OPTARG ;;
        c) corpus=$OPTARG ;;
        *) sed -n '2,30p' "$0" >&2; exit 2 ;;
    esac
done
jfr=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jfr
[ -x "$jfr" ] || { echo "JDK 25 jfr not found (set JAVA25_HOME)" >&2; exit 1; }
if [ -z "$work" ]; then
    work=$(mktemp -d "${TMPDIR:-/tmp}/jfr-types.XXXXXX")
    trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
td=$top/testdata
out=$td/jdk
export TZ=UTC

# run OUTPUT COMMAND...: the command's standard output into OUTPUT, unless
# OUTPUT is there already; 1 when the command failed (OUTPUT.failed says so
# for the next run: the JDK stops with an exception on some files).
run() {
    o=$1
    shift
    [ -s "$o" ] && return 0
    [ -f "$o.failed" ] && return 1
    if timeout 600 "$@" >"$o.tmp" 2>/dev/null; then
        mv "$o.tmp" "$o"
    else
        rm -f "$o.tmp"
        : >"$o.failed"
        return 1
    fi
}

# ---- test recordings -----------------------------------------------------------
for f in "$td"/recordings/leak-jdk25.jfr "$td"/recordings/multi-jdk25.jfr \
    "$td"/views/identity-jdk25.jfr "$td"/kinds/wait-jdk25.jfr \
    "$td"/report/seeded-jdk25.jfr "$td"/report/quiet-jdk25.jfr \
    "$td"/views/park-jdk25.jfr; do
    r=$(basename "$f")
    LC_ALL=C.UTF-8 run "$work/$r.all-events" "$jfr" view all-events "$f"
    gzip -9 -n -c "$work/$r.all-events" >"$out/$r.view-all-events.txt.gz"
done
for f in "$td"/recordings/cpu-jdk17.jfr "$td"/recordings/leak-jdk17.jfr \
    "$td"/views/identity-jdk17.jfr "$td"/kinds/wait-jdk17.jfr; do
    r=$(basename "$f")
    : >"$work/$r.types"
    for t in $("$top/jfrtool/jfrtool" summary "$f" |
        awk 'NR > 8 && $2 > 0 && $1 != "jdk.Metadata" && $1 != "jdk.Checkpoint" { print $1 }' |
        sort); do
        LC_ALL=C.UTF-8 run "$work/$r.type-$t" "$jfr" view "$t" "$f" || continue
        printf '=== %s\n' "$t" >>"$work/$r.types"
        cat "$work/$r.type-$t" >>"$work/$r.types"
    done
    gzip -9 -n -c "$work/$r.types" >"$out/$r.view-types.txt.gz"
done

# @MemoryAddress, small and zero (tests/views/check-memory-address.sh): the
# parks of testdata/views/park-jdk25.jfr as view and print show them
f=$td/views/park-jdk25.jfr
LC_ALL=C.UTF-8 "$jfr" view jdk.ThreadPark "$f" >"$out/park-jdk25.jfr.view-ThreadPark.txt"
LC_ALL=C "$jfr" print --events jdk.ThreadPark,jdk.JavaMonitorWait "$f" \
    >"$out/park-jdk25.jfr.print-parks.txt"

# ---- the corpus and the other recordings: digests -------------------------------------
# split FILE: each chunk of FILE as FILE.chunkN.jfr; prints the number
split_chunks() {
    python3 - "$1" <<'PY'
import struct, sys
f = sys.argv[1]
d = open(f, "rb").read()
off = k = 0
while off + 68 <= len(d) and d[off:off + 4] == b"FLR\0":
    size = struct.unpack(">q", d[off + 8:off + 16])[0]
    if size <= 0:
        break
    open(f"{f}.chunk{k}.jfr", "wb").write(d[off:off + size])
    off += size
    k += 1
print(k)
PY
}
: >"$work/view.sha1"
: >"$work/print.sha256"
if [ -f "$corpus/MANIFEST.tsv" ]; then
    for name in $(awk -F'\t' 'NR > 1 && $8 ~ /^yes/ { print $1 }' "$corpus/MANIFEST.tsv"); do
        plain=$work/${name%.gz}
        [ -f "$plain" ] || { gzip -dc "$corpus/$name" 2>/dev/null || cat "$corpus/$name"; } >"$plain"
        if LC_ALL=C.UTF-8 run "$work/$name.all-events" "$jfr" view all-events "$plain"; then
            python3 - "$name" "$work/$name.all-events" >>"$work/view.sha1" <<'PY'
import hashlib, re, sys
name, path = sys.argv[1:3]
text = open(path, encoding="utf-8", errors="surrogateescape").read()
for i, block in enumerate(re.split(r"\n\n(?=\n)", text)):
    title = next((l.strip() for l in block.split("\n") if l.strip()), "")
    digest = hashlib.sha1(block.encode("utf-8", "surrogateescape")).hexdigest()
    print(name, i, digest, title)
PY
        fi
        n=$(split_chunks "$plain")
        if [ "$n" -le 1 ]; then
            LC_ALL=C run "$work/$name.print" "$jfr" print "$plain" &&
                echo "$name $(sha256sum <"$work/$name.print" | cut -d' ' -f1)" >>"$work/print.sha256"
        else
            k=0
            while [ "$k" -lt "$n" ]; do
                LC_ALL=C run "$work/$name.$k.print" "$jfr" print "$plain.chunk$k.jfr" &&
                    echo "$name#$k $(sha256sum <"$work/$name.$k.print" | cut -d' ' -f1)" >>"$work/print.sha256"
                k=$((k + 1))
            done
        fi
    done
    cp "$work/view.sha1" "$out/corpus/view-all-events.sha1"
fi
for f in "$td"/views/*.jfr "$td"/kinds/*.jfr "$td"/report/*.jfr "$td"/gc/*.jfr; do
    r=$(basename "$f")
    LC_ALL=C run "$work/$r.print" "$jfr" print "$f" &&
        echo "$r $(sha256sum <"$work/$r.print" | cut -d' ' -f1)" >>"$work/print.sha256"
done
# contexts (JDK 25's @Contextual MethodTrace) of events whose type --events
# leaves out
f=$td/views/identity-jdk25.jfr ev=jdk.ThreadSleep,jdk.JavaMonitorEnter
LC_ALL=C run "$work/identity-events.print" "$jfr" print --events "$ev" "$f" &&
    echo "identity-jdk25.jfr?events=$ev $(sha256sum <"$work/identity-events.print" | cut -d' ' -f1)" >>"$work/print.sha256"
cp "$work/print.sha256" "$out/print-digests.sha256"
