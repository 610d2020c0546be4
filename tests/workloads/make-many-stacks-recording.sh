#!/bin/sh
# Make the benchmark input of many distinct CPU-time stacks (issue 31):
# wl.ManyStacksWorkload (tests/workloads/wl) on two threads for SECONDS
# (default 200), recorded by JDK 25 with the `profile` settings, the
# CPU-time sampler at one sample per ms of CPU time, and chunks rotated at
# 12 MB. Kept outside the tree (maintainers only; `make check` never runs
# this): `make bench BENCH_FILE=OUTDIR/many-stacks-jdk25.jfr`.
# 420 seconds on the 2-core machine, other work beside it, made 66 MB in 6
# chunks: 140,332 CPU-time samples, 137,072 distinct stacks. The samples
# follow the CPU the two threads get; issue 31's kind (100+ MB, 150 k
# stacks): 800 seconds at load 6 to 10 made 139 MB in 11 chunks, 298,067
# CPU-time samples on 290,716 distinct stacks (doc/performance.md).
#
# Usage: tests/workloads/make-many-stacks-recording.sh [-o OUTDIR] [SECONDS]
# Java: $JAVA25_HOME, else Temurin 25. Default OUTDIR: /work/bench.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
. "$here/workloadlib.sh"
workload_start /work/bench 2,11 "$@"
shift $((OPTIND - 1))
seconds=${1:-200}
workload_compile 17 "$here/wl/ManyStacksWorkload.java"
"$java_home/bin/jfr" configure --input profile --output "$tmp/many.jfc" \
    +jdk.CPUTimeSample#enabled=true +jdk.CPUTimeSample#throttle=1ms >/dev/null
rm -f "$out/many-stacks-jdk25.jfr"
(cd "$tmp" && TZ=UTC LC_ALL=C "$java_home/bin/java" -Xmx256m -cp "$tmp/classes" \
    "-XX:StartFlightRecording=settings=$tmp/many.jfc,maxsize=0,filename=$out/many-stacks-jdk25.jfr" \
    -XX:FlightRecorderOptions=maxchunksize=12m \
    wl.ManyStacksWorkload "$seconds" 2 >/dev/null)
ls -l "$out/many-stacks-jdk25.jfr"
