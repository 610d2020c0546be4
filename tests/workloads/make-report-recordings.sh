#!/bin/sh
# Remake the recordings of `jfrtool report`'s tests (maintainers only;
# `make check` never runs this, it needs JDK 25):
#
#   testdata/report/seeded-jdk25.jfr  wl.SeededWorkload 4 (tests/workloads/wl):
#       lock contention, an allocation burst, a growing static collection
#   testdata/report/quiet-jdk25.jfr   wl.QuietWorkload 2: a little steady
#       work and nothing planted; its report must find nothing alarming
#
# Usage: tests/workloads/make-report-recordings.sh [-o OUTDIR]
# Settings: settings=profile, path-to-gc-roots=true (jdk.OldObjectSample
# with stack traces and an unlimited cutoff, so leak chains exist),
# jdk.JavaMonitorEnter#threshold=1 ms. Java: $JAVA25_HOME, else Temurin 25.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/workloadlib.sh"
workload_start "$top/testdata/report" 2,14 "$@"
workload_compile 17 "$here/wl/SeededWorkload.java" "$here/wl/QuietWorkload.java"
record() { # NAME CLASS ARGS...
    name=$1
    shift
    rm -f "$out/$name.jfr"
    TZ=UTC LC_ALL=C "$java_home/bin/java" -Xmx128m -cp "$classes" \
        "-XX:StartFlightRecording=settings=profile,path-to-gc-roots=true,jdk.JavaMonitorEnter#threshold=1ms,filename=$out/$name.jfr" \
        "$@" >/dev/null
    ls -l "$out/$name.jfr"
}
record seeded-jdk25 wl.SeededWorkload 4
record quiet-jdk25 wl.QuietWorkload 2
