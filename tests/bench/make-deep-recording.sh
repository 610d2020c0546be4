#!/bin/sh
# Make the benchmark recording with many distinct deep stacks (issue 17):
# tests/workloads/wl/DeepWorkload.java run by JDK 25 with CPU-time and
# execution sampling every 10 ms, stacks up to 512 frames, chunks rotated
# every 1 MB so that there
# are several. Not committed: make bench makes it when it is missing.
#
#   make-deep-recording.sh OUT.jfr [SECONDS]
set -eu
out=$1
secs=${2:-120}
here=$(cd "$(dirname "$0")" && pwd)
java=""
for d in "${JAVA25_HOME:-}" /usr/lib/jvm/*25*; do
    [ -n "$d" ] && [ -x "$d/bin/java" ] && { java=$d/bin; break; }
done
[ -n "$java" ] || { echo "no JDK 25 (set JAVA25_HOME)" >&2; exit 1; }
classes=$(mktemp -d "${TMPDIR:-/tmp}/jfr-deep.XXXXXX")
trap 'rm -rf "$classes"' EXIT
"$java/javac" -d "$classes" "$here/../workloads/wl/DeepWorkload.java"
"$java/java" -cp "$classes" \
    -XX:FlightRecorderOptions:stackdepth=512 \
    -XX:StartFlightRecording=filename="$out",settings=profile,maxchunksize=1m,jdk.ExecutionSample#period=10ms,jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle=10ms \
    wl.DeepWorkload "$secs" 2 >/dev/null
