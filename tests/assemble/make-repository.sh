#!/bin/sh
# Make testdata/repository/: a copy of a running JVM's disk repository, as
# users copy one (maintainers only; `make check` never runs this: it needs
# JDK 25 and javac).
#
# Usage: tests/assemble/make-repository.sh [-o OUTDIR] [-w WORKLOADS] [-c SECONDS]
#   -o OUTDIR     where the copied chunk files go (default:
#                 testdata/repository of this checkout; emptied first)
#   -w WORKLOADS  the shared workloads directory holding src/wl/*.java
#                 (default: ../shared/workloads next to the checkout, or
#                 /work/shared/workloads)
#   -c SECONDS    when to copy the repository, in seconds after the JVM
#                 started (default 5.5)
#
# JDK 25 (wl.CpuWorkload, settings=default, disk=true, a repository of our
# own) with a short side recording, whose start and stop each rotate the
# repository's chunk, so that the copy holds several closed chunks and
# the one the JVM is still writing (state byte not 0, the header as of its
# last flush, maybe bytes of an unfinished flush after it). The JVM runs on
# after the copy and is stopped; its repository is thrown away.
# Afterwards run tests/assemble/regen-jdk-assemble.sh and update
# testdata/README.md ("repository/").
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=$top/testdata/repository
wl="" at=5.5
while getopts o:w:c: opt; do
    case $opt in
        o) out=$OPTARG ;;
        w) wl=$OPTARG ;;
        c) at=$OPTARG ;;
        *) sed -n '2,16p' "$0" >&2; exit 2 ;;
    esac
done
if [ -z "$wl" ]; then
    for d in "$top/../shared/workloads" /work/shared/workloads; do
        if [ -d "$d/src/wl" ]; then wl=$d; break; fi
    done
fi
[ -n "$wl" ] && [ -d "$wl/src/wl" ] || { echo "workload sources not found (use -w)" >&2; exit 1; }
jdk25=${JAVA25_HOME:-}
for d in "$jdk25" /usr/lib/jvm/*25*; do
    if [ -n "$d" ] && [ -x "$d/bin/java" ] && [ -x "$d/bin/javac" ]; then jdk25=$d; break; fi
done
[ -n "$jdk25" ] && [ -x "$jdk25/bin/java" ] || { echo "JDK 25 not found (set JAVA25_HOME)" >&2; exit 1; }
echo "JDK 25: $jdk25"

export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-repo.XXXXXX")
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM

"$jdk25/bin/javac" -encoding UTF-8 --release 17 -d "$tmp/classes" "$wl"/src/wl/*.java
repo=$tmp/repo
mkdir -p "$repo"
side="settings=default,duration=1s,filename=$tmp/side"
(cd "$tmp" && exec "$jdk25/bin/java" \
    "-XX:StartFlightRecording=name=main,settings=default,disk=true" \
    "-XX:StartFlightRecording=name=side,delay=1s,$side.jfr" \
    "-XX:FlightRecorderOptions:repository=$repo" \
    -cp "$tmp/classes" wl.CpuWorkload 60 1 > "$tmp/jvm.log" 2>&1) &
pid=$!
sleep "$at"
# the repository is one directory per JVM, <date>_<pid>, of chunk files
src=$(find "$repo" -mindepth 1 -maxdepth 1 -type d | head -n 1)
[ -n "$src" ] || { cat "$tmp/jvm.log" >&2; echo "no repository directory in $repo" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/*.jfr
cp "$src"/*.jfr "$out"/
kill "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
pid=""
for f in "$out"/*.jfr; do
    # chunkSize (bytes 8-15), state (byte 64), flags (bytes 66-67)
    printf '%s %s bytes, size %s, state %s, flags %s\n' "$(basename "$f")" \
        "$(stat -c %s "$f")" \
        "$(od -A n -t u8 --endian=big -j 8 -N 8 "$f" | tr -d ' ')" \
        "$(od -A n -t u1 -j 64 -N 1 "$f" | tr -d ' ')" \
        "$(od -A n -t u2 --endian=big -j 66 -N 2 "$f" | tr -d ' ')"
done
