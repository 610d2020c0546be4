#!/bin/sh
# Remake testdata/rules/jdk/NAME.events.json.gz (maintainers only; needs
# JDK 25): what JDK 25's `jfr print --json` prints of the events the
# rules read, for the recordings of testdata/jdk/ lacks them, the oracle
# of tests/rules/check_rules.py. Stacks are cut to one frame (the rules
# read none).
#
# Usage: tests/rules/regen-jdk-events.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
jfr=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jfr
out=$top/testdata/rules/jdk
events=jdk.GarbageCollection,jdk.JavaMonitorEnter,jdk.Deoptimization,jdk.ExceptionStatistics,jdk.CPUTimeSample,jdk.CPUTimeSamplesLost
mkdir -p "$out"
for rec in "$top/testdata/report/seeded-jdk25.jfr" "$top/testdata/report/quiet-jdk25.jfr" \
    "$top/testdata/rules/deopt-jdk25.jfr" "$top/testdata/kinds/wait-jdk17.jfr" \
    "$top/testdata/kinds/wait-jdk25.jfr"; do
    name=$(basename "$rec")
    TZ=UTC LC_ALL=C "$jfr" print --json --stack-depth 1 --events "$events" "$rec" |
        gzip -9 -n >"$out/$name.events.json.gz"
    ls -l "$out/$name.events.json.gz"
done
