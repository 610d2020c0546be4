#!/bin/bash
# Every profile kind and format of jfrtool against async-profiler's
# converter, as issue 31's target puts it (doc/performance.md): folded,
# HTML, SVG (against the converter's HTML: it writes no SVG) and pprof,
# for CPU time, wall clock, lock and allocation, each a farm-bench run of
# alternating pairs, both writing to files. Maintainers only (needs
# farm-bench, a JDK and the converter; `make check` never runs it).
#
# Usage: tests/bench/converter-all.sh [-n PAIRS] CONVERTER_JAR FILE.jfr...
# Environment: JFRTOOL (default jfrtool/jfrtool), JAVA (default JDK 25's).
set -eu
pairs=5
[ "${1:-}" = -n ] && { pairs=$2; shift 2; }
[ $# -ge 2 ] || { sed -n '8,9p' "$0" >&2; exit 1; }
jar=$1
shift
tool=${JFRTOOL:-jfrtool/jfrtool}
java=${JAVA:-$(ls -d /usr/lib/jvm/*25*/bin/java 2>/dev/null | head -n 1)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/converter-all.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# medians of farm-bench's report: ours, the converter's, the ratios
summarize() {
    awk '/^A cpu s/{ac=$5} /^B cpu s/{bc=$5} /^A wall s/{aw=$5} /^B wall s/{bw=$5}
         /^A\/B cpu/{rc=$4} /^A\/B wall/{rw=$4}
         END{printf "ours %s/%s s, converter %s/%s s (CPU/wall): %.1fx CPU, %.1fx wall\n",
             ac, aw, bc, bw, 1/rc, 1/rw}'
}

for f in "$@"; do
    for kind in cpu-time:cpu wall:wall lock:lock alloc:alloc; do
        theirs=${kind%%:*} ours=${kind##*:}
        for fmt in folded:collapsed html:html svg:html pprof:pb.gz; do
            format=${fmt%%:*} ext=${fmt##*:}
            if [ "$format" = folded ]; then
                cmd=("$tool" folded --event "$ours" -o "$tmp/ours.folded" "$f")
            else
                cmd=("$tool" flame --event "$ours" --format "$format" -o "$tmp/ours.$format" "$f")
            fi
            printf '%s %s %s: ' "$(basename "$f")" "$ours" "$format"
            farm-bench -n "$pairs" --timeout 900 \
                --vs "$java -cp $jar one.convert.Main --$theirs $f $tmp/theirs.$ext" -- \
                "${cmd[@]}" 2>&1 | summarize
        done
    done
done
