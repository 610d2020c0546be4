#!/bin/sh
# Remake the committed test recordings in testdata/recordings/ (maintainers
# only; `make check` never runs this, it needs JDK 17 and JDK 25).
#
# Usage: tests/diff/make-test-recordings.sh [-o OUTDIR] [-w WORKLOADS] [NAME...]
#   -o OUTDIR     where to write (default: testdata/recordings of this checkout)
#   -w WORKLOADS  the shared workloads directory holding src/wl/*.java
#                 (default: ../shared/workloads next to the checkout, or
#                 /work/shared/workloads)
#   NAME...       only these recordings (e.g. cpu-jdk17 leak-jdk25); the
#                 derived files (concat, .gz, .lz4) are remade when their
#                 inputs exist
#
# JDKs are looked up in $JAVA17_HOME, $JAVA25_HOME, $JAVA_HOME, /usr/lib/jvm/*
# and the java on PATH. Run one recording at a time (each JVM takes a core or
# two). Afterwards run tests/diff/regen-jdk-outputs.sh and update
# testdata/README.md (sizes and counts change from run to run).
#
# Needs: javac 17+, gzip, lz4. The workloads are compiled into a temporary
# directory, never into the tree.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/testdata/recordings
wl=""
while getopts o:w: opt; do
    case $opt in
        o) out=$OPTARG ;;
        w) wl=$OPTARG ;;
        *) sed -n '2,20p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
only=" $* "

if [ -z "$wl" ]; then
    for d in "$top/../shared/workloads" /work/shared/workloads; do
        if [ -d "$d/src/wl" ]; then wl=$d; break; fi
    done
fi
if [ -z "$wl" ] || [ ! -d "$wl/src/wl" ]; then
    echo "workload sources not found (use -w)" >&2
    exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

wanted() { # $1 = recording name without .jfr
    [ "$only" = "  " ] && return 0
    case $only in *" $1 "*) return 0 ;; esac
    return 1
}

# ---- locate the JDKs -----------------------------------------------------
spec_version() { # $1 = JDK home -> feature version, e.g. 17 or 25
    "$1/bin/java" -XshowSettings:properties -version 2>&1 |
        sed -n 's/^ *java\.specification\.version = //p' | head -n 1
}
homes=""
for d in "${JAVA17_HOME:-}" "${JAVA25_HOME:-}" "${JAVA_HOME:-}" /usr/lib/jvm/*; do
    if [ -n "$d" ] && [ -x "$d/bin/java" ]; then homes="$homes $d"; fi
done
if command -v java >/dev/null 2>&1; then
    p=$(readlink -f "$(command -v java)" 2>/dev/null || command -v java)
    homes="$homes $(dirname "$(dirname "$p")")"
fi
jdk17="" jdk25="" javac_home=""
for d in $homes; do
    v=$(spec_version "$d")
    case $v in
        17) [ -n "$jdk17" ] || jdk17=$d ;;
        25) [ -n "$jdk25" ] || jdk25=$d ;;
    esac
    if [ -z "$javac_home" ] && [ -x "$d/bin/javac" ]; then
        case $v in 17|2[0-9]) javac_home=$d ;; esac
    fi
done
[ -n "$jdk17" ] || { echo "JDK 17 not found (set JAVA17_HOME)" >&2; exit 1; }
[ -n "$jdk25" ] || { echo "JDK 25 not found (set JAVA25_HOME)" >&2; exit 1; }
[ -n "$javac_home" ] || { echo "no javac found" >&2; exit 1; }
echo "JDK 17: $jdk17"
echo "JDK 25: $jdk25"

export TZ=UTC LC_ALL=C

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-testrec.XXXXXX")
cleanup() { rm -rf "$tmp"; }
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

"$javac_home/bin/javac" -encoding UTF-8 --release 17 -d "$tmp/classes" "$wl"/src/wl/*.java \
    "$top"/tests/workloads/wl/*.java

# Settings for the JDK 25 CPU/IO runs: profile + 1 ms execution sampling +
# CPU-time sampling (JEP 509) throttled to one sample per ms per thread.
jfc=$out/cpu-jdk25.jfc
"$jdk25/bin/jfr" configure --input profile \
    jdk.ExecutionSample#period=1ms \
    jdk.CPUTimeSample#enabled=true jdk.CPUTimeSample#throttle=1ms \
    --output "$jfc" > /dev/null

# run_rec HOME NAME RECORDING-OPTIONS [JVM options and main class + args]
# The JVM runs inside $tmp so that its disk repository and logs stay there.
# The file goes to $dest when set (testdata/kinds), else to $out.
run_rec() {
    home=$1 name=$2 opts=$3
    shift 3
    wanted "$name" || return 0
    file=${dest:-$out}/$name.jfr
    echo "== $name.jfr"
    rm -f "$file"
    if ! (cd "$tmp" && "$home/bin/java" "-XX:StartFlightRecording=$opts,filename=$file" \
            -cp "$tmp/classes" "$@" > "$tmp/$name.log" 2>&1); then
        cat "$tmp/$name.log" >&2
        echo "$name failed" >&2
        exit 1
    fi
    ls -l "$file"
}

# kill_rec HOME NAME SECONDS RECORDING-OPTIONS MAIN [ARGS]: start a recording
# to a disk repository, kill -9 the JVM after SECONDS, keep the chunk file.
kill_rec() {
    home=$1 name=$2 secs=$3 opts=$4
    shift 4
    wanted "$name" || return 0
    echo "== $name.jfr (killed after $secs s)"
    repo=$tmp/repo-$name
    rm -rf "$repo"
    mkdir -p "$repo"
    (cd "$tmp" && exec "$home/bin/java" "-XX:StartFlightRecording=$opts,disk=true" \
        "-XX:FlightRecorderOptions:repository=$repo" \
        -cp "$tmp/classes" "$@" > "$tmp/$name.log" 2>&1) &
    pid=$!
    sleep "$secs"
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    # One JVM, one recording, no rotation: expect exactly one chunk file.
    n=0
    for f in $(find "$repo" -name '*.jfr' | sort); do
        n=$((n + 1))
        chunk=$f
    done
    [ "$n" -eq 1 ] || { echo "$name: expected one chunk in $repo, found $n" >&2; exit 1; }
    cp "$chunk" "$out/$name.jfr"
    ls -l "$out/$name.jfr"
    # header: chunkSize (bytes 8-15), state (byte 64), flags (bytes 66-67)
    od -A d -t u1 -j 8 -N 8 "$out/$name.jfr" | head -n 1
    od -A d -t u1 -j 64 -N 4 "$out/$name.jfr" | head -n 1
}

# Run lengths are short on purpose: `jfr print --json` of these files (kept
# in testdata/jdk/) grows by roughly 0.25-0.5 MB (gzipped) per second of CPU
# sampling, and testdata/ should stay around 12 MB.
run_rec "$jdk17" cpu-jdk17 "settings=profile,jdk.ExecutionSample#period=1ms" \
    wl.CpuWorkload 3 1
run_rec "$jdk25" cpu-jdk25 "settings=$jfc" \
    wl.CpuWorkload 2 1
run_rec "$jdk25" io-jdk25 "settings=$jfc" \
    wl.IoMixedWorkload 3
run_rec "$jdk17" leak-jdk17 "settings=profile,path-to-gc-roots=true" \
    -Xmx256m wl.LeakWorkload 5
run_rec "$jdk25" leak-jdk25 "settings=profile,path-to-gc-roots=true" \
    -Xmx256m wl.LeakWorkload 5
# Several chunks in one small file: a second recording (same settings, so the
# effective settings do not change) starts after 1 s and stops after another
# 1 s; each start and stop rotates the repository chunk, so the main
# recording's dump holds three chunks. The second recording's own file is
# thrown away. Plain "profile" (10/20 ms execution sampling) keeps it small:
# every chunk repeats the metadata and the constant pools it needs.
run_rec "$jdk25" multi-jdk25 "name=main,settings=profile" \
    "-XX:StartFlightRecording=name=side,settings=profile,delay=1s,duration=1s,filename=$tmp/side.jfr" \
    wl.CpuWorkload 3 1
kill_rec "$jdk17" unfinished-jdk17 5 "settings=profile" wl.CpuWorkload 60 1
kill_rec "$jdk25" unfinished-jdk25 5 "settings=profile" wl.CpuWorkload 60 1
# Threads that wait: monitors, parks, Object.wait, socket and file I/O and
# exceptions, every one recorded (threshold 0 ms), for the per-kind folded
# goldens (tests/profile/regen-kind-goldens.sh). Kept apart in
# testdata/kinds/ so that the JDK-output tests do not need their outputs.
waits="settings=profile,jdk.JavaMonitorEnter#threshold=0ms,jdk.ThreadPark#threshold=0ms"
waits="$waits,jdk.JavaMonitorWait#threshold=0ms,jdk.SocketRead#threshold=0ms"
waits="$waits,jdk.SocketWrite#threshold=0ms,jdk.FileRead#threshold=0ms"
waits="$waits,jdk.FileWrite#threshold=0ms,jdk.JavaExceptionThrow#enabled=true"
dest=$top/testdata/kinds
mkdir -p "$dest"
run_rec "$jdk17" wait-jdk17 "$waits" wl.WaitWorkload 2
run_rec "$jdk25" wait-jdk25 "$waits" wl.WaitWorkload 2
# Allocation by TLAB events on a JDK that declares jdk.ObjectAllocationSample
# but records none (the alloc kind must read the TLAB events there), and
# exceptions with errors traced twice (both throw events enabled).
run_rec "$jdk17" alloc-tlab-jdk17 "settings=default,jdk.ObjectAllocationSample#enabled=false,jdk.ObjectAllocationInNewTLAB#enabled=true,jdk.ObjectAllocationOutsideTLAB#enabled=true" \
    -Xmx256m wl.KindsWorkload 2 4
run_rec "$jdk25" throws-jdk25 "settings=default,jdk.JavaExceptionThrow#enabled=true" \
    -Xmx256m wl.KindsWorkload 2 4
dest=""
# Things of one name that are not one thing (two unnamed threads, two
# "worker" threads, a class and its error defined by two instances of one
# class loader), for the views that group by identity: contended monitors
# and monitor inflation recorded at 0 ms, thread CPU load and allocation
# every second, and with JDK 25 every call of wl.Twin.work traced and
# timed. In testdata/views/ with their JDK outputs
# (tests/views/regen-jdk-views.sh).
idents="settings=profile,jdk.JavaMonitorEnter#threshold=0ms,jdk.ThreadCPULoad#period=1s"
idents="$idents,jdk.ThreadAllocationStatistics#period=1s"
idents="$idents,jdk.JavaMonitorInflate#enabled=true,jdk.JavaMonitorInflate#threshold=0ms"
dest=$top/testdata/views
mkdir -p "$dest"
run_rec "$jdk17" identity-jdk17 "$idents" wl.IdentityWorkload 3
run_rec "$jdk25" identity-jdk25 \
    "$idents,jdk.MethodTrace#filter=wl.Twin::work,jdk.MethodTiming#filter=wl.Twin::work" \
    wl.IdentityWorkload 3
dest=""

# ---- derived files ---------------------------------------------------------
if [ -f "$out/cpu-jdk17.jfr" ] && [ -f "$out/cpu-jdk25.jfr" ]; then
    echo "== concat-17-25.jfr, compressed copies"
    cat "$out/cpu-jdk17.jfr" "$out/cpu-jdk25.jfr" > "$out/concat-17-25.jfr"
fi
if [ -f "$out/cpu-jdk25.jfr" ]; then
    gzip -9 -n -c "$out/cpu-jdk25.jfr" > "$out/cpu-jdk25.jfr.gz"
    rm -f "$out/cpu-jdk25.jfr.lz4"
    lz4 -q -9 "$out/cpu-jdk25.jfr" "$out/cpu-jdk25.jfr.lz4"
fi
if [ -f "$out/cpu-jdk17.jfr" ]; then
    gzip -9 -n -c "$out/cpu-jdk17.jfr" > "$out/cpu-jdk17-gzip.jfr"
fi
ls -l "$out"
