#!/bin/sh
# Remake testdata/writer/secret-jdk25.jfr, the recording of the redaction
# test (tests/writer/redact.sh), with our CPU workload (maintainers only;
# needs JDK 25 and, on PATH, javac 17+): one secret value in an environment variable,
# a system property given as a JVM argument (-D), and two program
# arguments (--api-token=SECRET, --password SECRET).
#
# Usage: tests/writer/make-secret-recording.sh [-w WORKLOADS] [OUT]
#   -w WORKLOADS  the shared workloads directory holding src/wl/*.java
#                 (default: ../shared/workloads next to the checkout, or
#                 /work/shared/workloads)
#   OUT           default: testdata/writer/secret-jdk25.jfr of this checkout
#
# The JDK is $JAVA25_HOME or /usr/lib/jvm/*25*. The secret is the SECRET
# variable of tests/writer/writerlib.sh. After remaking, run
# tests/writer/regen-jdk-outputs.sh and update testdata/README.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/writerlib.sh"
wl=""
while getopts w: opt; do
    case $opt in
        w) wl=$OPTARG ;;
        *) sed -n '2,18p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
out=${1:-$top/testdata/writer/secret-jdk25.jfr}
for d in "$wl" "$top/../shared/workloads" /work/shared/workloads; do
    if [ -n "$d" ] && [ -d "$d/src/wl" ]; then wl=$d; break; fi
done
java25=$(find_jdk25) || { echo "no JDK 25 (set JAVA25_HOME)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-secret.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
javac --release 17 -d "$tmp/classes" "$wl"/src/wl/*.java
cd "$tmp"
# settings=default records the start-up events (environment, properties,
# JVM information, processes) and little else: the file stays small
env MYAPP_SECRET="$SECRET" TZ=UTC LC_ALL=C \
    "$java25/bin/java" "-Dapp.db.password=$SECRET" \
    "-XX:StartFlightRecording=settings=default,filename=$tmp/secret.jfr" \
    -cp "$tmp/classes" wl.CpuWorkload 1 1 "--api-token=$SECRET" --password "$SECRET" \
    >/dev/null
cp "$tmp/secret.jfr" "$out"
echo "wrote $out ($(wc -c <"$out") bytes)"
