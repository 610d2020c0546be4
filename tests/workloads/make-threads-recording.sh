#!/bin/sh
# Remake testdata/threads/vthreads-jdk25.jfr.gz, the recording with
# thousands of virtual threads of the report's Threads section (maintainers
# only; `make check` never runs this, it needs JDK 21 or later):
#
#   wl.VirtualThreadsWorkload 5000 30 (tests/workloads/wl): 5,000 virtual
#   threads that sleep 30 ms, take one of eight permits and hash; two
#   platform threads hash beside them
#
# Usage: tests/workloads/make-threads-recording.sh [-o OUTDIR]
# Settings: the JDK's default ones (jdk.ThreadSleep over 20 ms: one per
# virtual thread). Java: $JAVA25_HOME, else Temurin 25. The file is gzipped
# (jfrtool reads it as it is): 395 KB become 147 KB.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/workloadlib.sh"
workload_start "$top/testdata/threads" 2,13 "$@"
workload_compile 21 "$here/wl/VirtualThreadsWorkload.java"
rm -f "$out/vthreads-jdk25.jfr" "$out/vthreads-jdk25.jfr.gz"
TZ=UTC LC_ALL=C "$java_home/bin/java" -Xmx128m -cp "$classes" \
    "-XX:StartFlightRecording=filename=$out/vthreads-jdk25.jfr" \
    wl.VirtualThreadsWorkload 5000 30 >/dev/null 2>&1
gzip -9n "$out/vthreads-jdk25.jfr"
ls -l "$out/vthreads-jdk25.jfr.gz"
