#!/bin/sh
# Remake testdata/views/park-jdk25.jfr, the recording of @MemoryAddress
# formatting (maintainers only; `make check` never runs this, it needs
# JDK 25):
#
#   wl.ParkWorkload 3 (tests/workloads/wl) on a 16 MB heap placed at
#   16 MB (-XX:HeapBaseMinAddress=0x1000000, serial GC), so that the
#   blocker object's address is below 0x10000000 (7 hex digits, printed
#   zero-padded to 8); the parks without a blocker have address 0. Only
#   jdk.ThreadPark and jdk.JavaMonitorWait are on (threshold 0 ms, stack
#   traces), with settings made by `jfr configure --input none`.
#
# Afterwards run tests/views/regen-jdk-types.sh (the JDK's view and print
# outputs of it) and update testdata/README.md.
#
# Usage: tests/workloads/make-park-recording.sh [-o OUTDIR]
# Java: $JAVA25_HOME, else Temurin 25.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/workloadlib.sh"
workload_start "$top/testdata/views" 2,17 "$@"
workload_compile 17 "$here/wl/ParkWorkload.java"
"$java_home/bin/jfr" configure --input none --output "$tmp/park.jfc" \
    +jdk.ThreadPark#enabled=true +jdk.ThreadPark#threshold=0ms \
    +jdk.ThreadPark#stackTrace=true +jdk.JavaMonitorWait#enabled=true \
    +jdk.JavaMonitorWait#threshold=0ms +jdk.JavaMonitorWait#stackTrace=true >/dev/null
rm -f "$out/park-jdk25.jfr"
(cd "$tmp" && TZ=UTC LC_ALL=C "$java_home/bin/java" -XX:+UseSerialGC -Xmx16m \
    -XX:HeapBaseMinAddress=0x1000000 -cp "$tmp/classes" \
    "-XX:StartFlightRecording=settings=$tmp/park.jfc,filename=$out/park-jdk25.jfr" \
    wl.ParkWorkload 3 >/dev/null)
ls -l "$out/park-jdk25.jfr"
