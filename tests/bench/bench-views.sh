#!/usr/bin/env bash
# make bench-views: every view of JDK 25's `jfr view`, timed with jfrtool and
# with the JDK tool on one recording, side by side.
#
# Usage: bench-views.sh [-n RUNS] [-j JFRTOOL] FILE
#   -n RUNS    runs of jfrtool per view; the median is reported (default 3).
#              The JDK tool runs once per view (it takes seconds each).
#   -j JFRTOOL the jfrtool binary (default: jfrtool/jfrtool of this build)
#
# Needs JDK 25 (JAVA25_HOME, else the first /usr/lib/jvm/*25*). Prints one
# line per view: wall and CPU seconds of both tools and the ratios, then the
# smallest wall ratio and the views under 10x. A benchmark, not a test:
# nothing is asserted. On a 125 MB file the JDK part takes about 15 minutes.
set -euo pipefail

runs=3 tool=""
while getopts n:j: opt; do
    case $opt in
        n) runs=$OPTARG ;;
        j) tool=$OPTARG ;;
        *) sed -n '4,12p' "$0" >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ -n "$tool" ] || tool=${JFRTOOL:-$top/jfrtool/jfrtool}
file=${1:-${BENCH_FILE:-}}
[ -n "$file" ] && [ -r "$file" ] || { sed -n '4,12p' "$0" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench needs GNU time (/usr/bin/time)" >&2; exit 1; }
jdk_jfr=""
for d in "${JAVA25_HOME:-}" /usr/lib/jvm/*25*; do
    [ -n "$d" ] && [ -x "$d/bin/jfr" ] && { jdk_jfr=$d/bin/jfr; break; }
done
[ -n "$jdk_jfr" ] || { echo "no JDK 25 jfr found: set JAVA25_HOME" >&2; exit 1; }

echo "input: $file ($(awk -v b="$(stat -c %s "$file")" 'BEGIN{printf "%.1f", b/1e6}') MB)"
echo "machine: $(nproc) cores, $(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)," \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date: $(date -u +%Y-%m-%d)   jfrtool runs per view: $runs (median); jfr: 1 run"
echo "JDK: $jdk_jfr"
echo

# time_of CMD... -> "wall cpu" of one run
time_of() {
    local tf
    tf=$(mktemp)
    /usr/bin/time -o "$tf" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
    awk 'END { printf "%.3f %.3f\n", $1, $2 + $3 }' "$tf"
    rm -f "$tf"
}

median_of() {
    local i
    for ((i = 0; i < runs; i++)); do time_of "$@"; done |
        sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)'
}

views=$("$jdk_jfr" help view |
    awk '/views:$/ { on = 1; next } /^$/ { on = 0 } on { for (i = 1; i <= NF; i++) print $i }')
printf '%-34s %9s %9s %9s %9s %8s %8s\n' view ours_wall ours_cpu jfr_wall jfr_cpu wall_x cpu_x
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for v in $views; do
    read -r ow oc < <(median_of "$tool" view "$v" "$file")
    read -r jw jc < <(time_of "$jdk_jfr" view "$v" "$file")
    awk -v v="$v" -v ow="$ow" -v oc="$oc" -v jw="$jw" -v jc="$jc" 'BEGIN {
        printf "%-34s %9.3f %9.3f %9.3f %9.3f %7.1fx %7.1fx\n", v, ow, oc, jw, jc,
               jw / (ow > 0 ? ow : 0.001), jc / (oc > 0 ? oc : 0.001) }' | tee -a "$rows"
done
awk '{ n++; if (min == "" || $6 + 0 < min) { min = $6 + 0; at = $1 }
       if ($6 + 0 < 10) slow = slow " " $1 }
     END { printf "\n%d views; smallest wall ratio %.1fx (%s); under 10x:%s\n", n, min, at,
                  slow == "" ? " none" : slow }' "$rows"
