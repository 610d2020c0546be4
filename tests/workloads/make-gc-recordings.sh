#!/bin/sh
# Remake testdata/gc/gc-{zgc,parallel,serial,shenandoah}-jdk25.jfr, one
# recording per collector of wl.CollectorsWorkload 3 (tests/workloads/wl):
# the GC views (gc, gc-pauses, gc-pause-phases, gc-concurrent-phases,
# gc-configuration, heap-configuration, ...) show different events for each
# (maintainers only; `make check` never runs this, it needs JDK 21 or later).
#
# Usage: tests/workloads/make-gc-recordings.sh [-o OUTDIR]
# Settings: the JDK's "profile", with jdk.CPUTimeSample every 5 ms; -Xmx128m.
# Java: $JAVA25_HOME, else Temurin 25. Then remake the JDK's outputs that
# the tests compare with: tests/views/regen-jdk-views.sh testdata/gc/*.jfr
# and the gc lines of testdata/jdk/print-digests.sha256
# (tests/views/regen-jdk-types.sh).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/workloadlib.sh"
workload_start "$top/testdata/gc" 7,8 "$@"
workload_compile 21 "$here/wl/CollectorsWorkload.java"
for gc in zgc parallel serial shenandoah; do
    name=gc-$gc-jdk25.jfr
    case $gc in
        zgc) flag=-XX:+UseZGC ;;
        parallel) flag=-XX:+UseParallelGC ;;
        serial) flag=-XX:+UseSerialGC ;;
        shenandoah) flag=-XX:+UseShenandoahGC ;;
    esac
    rm -f "$out/$name"
    TZ=UTC LC_ALL=C "$java_home/bin/java" -Xmx128m "$flag" -cp "$classes" \
        "-XX:StartFlightRecording=settings=profile,jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle=5ms,filename=$out/$name" \
        wl.CollectorsWorkload 3 >/dev/null 2>&1
    ls -l "$out/$name"
done
