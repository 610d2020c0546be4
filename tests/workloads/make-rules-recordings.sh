#!/bin/sh
# Remake the recording of `jfrtool rules`' tests (maintainers only; `make
# check` never runs this, it needs JDK 25):
#
#   testdata/rules/deopt-jdk25.jfr   wl.DeoptWorkload 400 (tests/workloads/wl)
#       with -Xbatch: 400 copies of one class, each compiled for Integers
#       and then given a String, about 400 jdk.Deoptimization events in two
#       seconds: the "deoptimization-storm" rule fires on it
#
# Usage: tests/workloads/make-rules-recordings.sh [-o OUTDIR]
# Settings: default (jdk.Deoptimization is on in default.jfc). Java:
# $JAVA25_HOME, else Temurin 25.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/workloadlib.sh"
workload_start "$top/testdata/rules" 2,13 "$@"
workload_compile 17 "$here/wl/DeoptWorkload.java"
rm -f "$out/deopt-jdk25.jfr"
TZ=UTC LC_ALL=C "$java_home/bin/java" -Xbatch -Xmx128m -cp "$classes" \
    "-XX:StartFlightRecording=settings=default,filename=$out/deopt-jdk25.jfr" \
    wl.DeoptWorkload 400 >/dev/null
ls -l "$out/deopt-jdk25.jfr"
