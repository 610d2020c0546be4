#!/usr/bin/env bash
# make bench: time jfrtool's commands on a recording, next to JDK 25's jfr.
#
# Usage: bench.sh [-n RUNS] [-b SECONDS] [-j JFRTOOL] [FILE]
#   FILE        the recording to measure (default: $BENCH_FILE, else one made
#               with ../shared/workloads/make-recordings.sh -B -b SECONDS)
#   -n RUNS     runs per command; the median is reported (default 3)
#   -b SECONDS  length of the recording to make when no FILE is given
#               (default 600; 2000 s gave 138 MB on a busy 2-core machine)
#   -j JFRTOOL  the jfrtool binary (default: jfrtool/jfrtool of this build)
#
# Then the varint floor of FILE (tests/bench/varint-floor.c, built with
# ${CC:-cc}) and folded --event cpu's CPU time as a multiple of it.
# Then disassemble and assemble (the recording split one chunk a file and
# joined again), next to JDK 25's jfr disassemble and jfr assemble.
# Then the same stack-carrying commands on a recording with many distinct
# deep stacks ($BENCH_DEEP_FILE, else one made by make-deep-recording.sh
# when a JDK 25 is there), next to `jfr print --json` at the same depth and,
# when ASYNC_CONVERTER names async-profiler's converter.jar, its collapsed
# and HTML output of the same samples (CPU-time samples there, execution
# and native-method samples on FILE).
#
# Prints, per command: median wall time, CPU time (user+sys) and peak RSS of
# that run, throughput in MB/s and events/s, and for the commands the JDK
# tool has, the same for JDK 25's `jfr` and the ratio. This is a benchmark,
# not a test: nothing is asserted. Results belong in doc/performance.md with
# the machine, the input and the date.
set -euo pipefail

runs=3 secs=600 tool=""
while getopts n:b:j: opt; do
    case $opt in
        n) runs=$OPTARG ;;
        b) secs=$OPTARG ;;
        j) tool=$OPTARG ;;
        *) sed -n '4,12p' "$0" >&2; exit 1 ;;
    esac
done
shift $((OPTIND - 1))
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
[ -n "$tool" ] || tool=${JFRTOOL:-$top/jfrtool/jfrtool}
file=${1:-${BENCH_FILE:-}}

if [ -z "$file" ]; then
    make_rec=$top/../shared/workloads/make-recordings.sh
    [ -f "$make_rec" ] || { echo "no FILE and no $make_rec to make one" >&2; exit 1; }
    out=${TMPDIR:-/tmp}/jfrtool-bench
    file=$out/big-cpu-jdk25.jfr
    if [ ! -s "$file" ]; then
        echo "making a ${secs}s recording in $out (this takes about ${secs}s)" >&2
        sh "$make_rec" -B -b "$secs" "$out" >&2
    fi
fi
[ -r "$file" ] || { echo "cannot read $file" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench needs GNU time (/usr/bin/time)" >&2; exit 1; }

jdk_jfr=""
for d in "${JAVA25_HOME:-}" /usr/lib/jvm/*25*; do
    [ -n "$d" ] && [ -x "$d/bin/jfr" ] && { jdk_jfr=$d/bin/jfr; break; }
done

bytes=$(stat -c %s "$file")
events=$("$tool" summary "$file" 2>/dev/null |
    awk '/^=+$/{t=1; next} t && NF>=3 && $(NF-1) ~ /^[0-9]+$/ {n+=$(NF-1)} END{print n+0}')
mb=$(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}')
echo "input: $file ($mb MB, $events records)"
echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
     "$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)"
echo "date: $(date -u +%Y-%m-%d)   runs per command: $runs (median)"
echo

# measure LABEL CMD... -> "wall cpu rss_mb" of the median-wall run
measure() {
    local i results=() tf
    tf=$(mktemp)
    for ((i = 0; i < runs; i++)); do
        /usr/bin/time -o "$tf" -f '%e %U %S %M' "$@" >/dev/null 2>&1 || true
        results+=("$(tail -n 1 "$tf")")
    done
    rm -f "$tf"
    printf '%s\n' "${results[@]}" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) {
        printf "%.3f %.3f %.1f\n", $1, $2 + $3, $4 / 1024 }'
}

printf '%-34s %8s %8s %9s %9s %12s\n' command wall_s cpu_s rss_MB MB/s events/s
row() { # LABEL wall cpu rss
    awk -v l="$1" -v w="$2" -v c="$3" -v r="$4" -v b="$bytes" -v e="$events" 'BEGIN {
        ws = w > 0 ? w : 0.001
        printf "%-34s %8.3f %8.3f %9.1f %9.0f %12.0f\n", l, w, c, r, b / 1e6 / ws, e / ws }'
}

# vs_converter FLAG EVENT KEY: async-profiler's converter with FLAG, collapsed
# and HTML, next to our folded and flame of EVENT measured under KEY + spec
vs_converter() {
    local flag=$1 event=$2 key=$3 pair fmt ourspec w c r ow oc
    local out=${TMPDIR:-/tmp}/jfrtool-bench
    mkdir -p "$out"
    echo "async-profiler's converter $flag ($ASYNC_CONVERTER):"
    printf '%-34s %8s %8s %9s %9s %12s\n' command wall_s cpu_s rss_MB MB/s events/s
    for pair in "collapsed folded --event $event" "html flame --format html --event $event"; do
        read -r fmt ourspec <<<"$pair"
        read -r w c r < <(measure "$jdk_java" -cp "$ASYNC_CONVERTER" one.convert.Main \
            "$flag" -o "$fmt" "$file" "$out/conv.$fmt")
        row "converter $fmt $flag" "$w" "$c" "$r"
        read -r ow oc _ <<<"${ours[$key$ourspec]}"
        awk -v w="$w" -v c="$c" -v ow="$ow" -v oc="$oc" 'BEGIN { printf "%-34s %8.1fx %7.1fx\n",
            "  converter / jfrtool (wall, cpu)", w / (ow > 0 ? ow : 0.001), c / (oc > 0 ? oc : 0.001) }'
    done
}

declare -A ours
# the profile commands use every core by default; --jobs 1 is one thread
for spec in "summary" "view hot-methods" "view hot-methods --jobs 1" \
            "view cpu-time-hot-methods" "view cpu-time-hot-methods --jobs 1" \
            "folded --event exec" "folded --event exec --jobs 1" \
            "folded --event cpu" "folded --event cpu --jobs 1" \
            "flame --format html --event cpu" "flame --format html --event cpu --jobs 1" \
            "folded --event wall" "flame --format html --event wall" \
            "leaks" "print --json --stack-depth 5" \
            "view gc" "view gc-pauses" "view jvm-flags" "view exception-by-type" \
            "view --generic hot-methods"; do
    # shellcheck disable=SC2086
    set -- $spec
    [ "$1" = print ] && [ "$bytes" -gt 200000000 ] && continue
    read -r w c r < <(measure "$tool" "$@" "$file")
    ours[$spec]="$w $c $r"
    row "jfrtool $spec" "$w" "$c" "$r"
done

# the varint floor (tests/bench/varint-floor.c: every byte decoded as a
# LEB128 varint), which issue 31 asks folded --event cpu to stay within 3x
# of in CPU; built here when a C compiler is found
floor_bin=${TMPDIR:-/tmp}/jfrtool-bench/varint-floor
mkdir -p "$(dirname "$floor_bin")"
if "${CC:-cc}" -O2 -o "$floor_bin" "$here/varint-floor.c" 2>/dev/null; then
    read -r w c r < <(measure "$floor_bin" "$file")
    row "varint floor" "$w" "$c" "$r"
    read -r _ oc _ <<<"${ours[folded --event cpu]}"
    awk -v c="$c" -v oc="$oc" 'BEGIN { printf "%-34s %17.1fx\n",
        "  folded --event cpu / floor (cpu)", oc / (c > 0 ? c : 0.001) }'
else
    echo "varint floor: no C compiler (${CC:-cc}), skipped"
fi

# writing (libjfr's writer): scrub and repair write a whole recording, so
# their rows include writing it (to $TMPDIR); next to jfr scrub below
wdir=${TMPDIR:-/tmp}/jfrtool-bench
mkdir -p "$wdir"
for spec in "scrub" "scrub --exclude-events jdk.ExecutionSample" "scrub --redact" "repair"; do
    # shellcheck disable=SC2086
    set -- $spec
    cmd=$1
    shift
    read -r w c r < <(measure "$tool" "$cmd" "$@" "$file" "$wdir/written.jfr")
    ours[$spec]="$w $c $r"
    row "jfrtool $spec" "$w" "$c" "$r"
done
rm -f "$wdir/written.jfr"

# SQL (jfrtool sql, when built with SQLite): the GROUP BY that gives the
# rows of the two top-frame views, next to those views
if "$tool" sql --help >/dev/null 2>&1; then
    echo
    printf '%-34s %8s %8s %9s %9s %12s\n' "sql query (same rows as the view)" wall_s cpu_s \
        rss_MB MB/s events/s
    for pair in "cpu-time-hot-methods CPUTimeSample" "hot-methods ExecutionSample"; do
        read -r view table <<<"$pair"
        q="SELECT coalesce(\"stackTrace.topFrame\", 'N/A') AS method, count(*) AS samples
           FROM $table GROUP BY method ORDER BY samples DESC, method LIMIT 25"
        read -r w c r < <(measure "$tool" sql "$q" "$file")
        row "jfrtool sql $table" "$w" "$c" "$r"
        read -r vw vc vr <<<"${ours[view $view]}"
        row "jfrtool view $view" "$vw" "$vc" "$vr"
        awk -v w="$w" -v vw="$vw" 'BEGIN { printf "%-34s %8.1fx\n", "  sql / view (wall)",
            w / (vw > 0 ? vw : 0.001) }'
    done
fi

# a small file: what starting up costs (the JVM tools need 0.2-0.8 s)
small=$top/testdata/recordings/cpu-jdk25.jfr
if [ -r "$small" ]; then
    echo
    echo "small file: $small ($(stat -c %s "$small") bytes), best of 20 runs"
    for spec in "summary" "view hot-methods"; do
        # shellcheck disable=SC2086
        set -- $spec
        best=$(for ((i = 0; i < 20; i++)); do
            s0=$(date +%s%N)
            "$tool" "$@" "$small" >/dev/null 2>&1 || true
            echo $(($(date +%s%N) - s0))
        done | sort -n | head -n 1)
        awk -v l="jfrtool $spec" -v ns="$best" 'BEGIN { printf "%-34s %8.1f ms\n", l, ns / 1e6 }'
    done
fi

if [ -n "$jdk_jfr" ]; then
    echo
    echo "JDK: $jdk_jfr"
    jdk_java=$(dirname "$jdk_jfr")/java
    printf '%-34s %8s %8s %9s %10s %9s\n' command wall_s cpu_s rss_MB wall_ratio cpu_ratio
    # the generic views (sql/view_list.c, run on SQLite) next to the JDK's too
    for spec in "summary" "view hot-methods" "view cpu-time-hot-methods" \
                "view gc" "view gc-pauses" "view jvm-flags" "view exception-by-type"; do
        # shellcheck disable=SC2086
        set -- $spec
        read -r w c r < <(measure "$jdk_jfr" "$@" "$file")
        read -r ow oc _ <<<"${ours[$spec]}"
        awk -v l="jfr $spec" -v w="$w" -v c="$c" -v r="$r" -v ow="$ow" -v oc="$oc" 'BEGIN {
            printf "%-34s %8.3f %8.3f %9.1f %9.1fx %8.1fx\n", l, w, c, r,
                   w / (ow > 0 ? ow : 0.001), c / (oc > 0 ? oc : 0.001) }'
    done
    # jfr scrub, no filter and one event type left out, next to ours
    for spec in "scrub" "scrub --exclude-events jdk.ExecutionSample"; do
        # shellcheck disable=SC2086
        set -- $spec
        shift
        read -r w c r < <(measure "$jdk_jfr" scrub "$@" "$file" "$wdir/jdk-written.jfr")
        read -r ow oc _ <<<"${ours[$spec]}"
        awk -v l="jfr $spec" -v w="$w" -v c="$c" -v r="$r" -v ow="$ow" -v oc="$oc" 'BEGIN {
            printf "%-34s %8.3f %8.3f %9.1f %9.1fx %8.1fx\n", l, w, c, r,
                   w / (ow > 0 ? ow : 0.001), c / (oc > 0 ? oc : 0.001) }'
    done
    rm -f "$wdir/jdk-written.jfr"
    # the converter's --wall is the JDK's execution and native-method
    # samples, our --event wall; its --cpu keeps only samples in
    # async-profiler's own STATE_DEFAULT thread state, none of a JDK's
    [ -n "${ASYNC_CONVERTER:-}" ] && vs_converter --wall wall ""
else
    echo "(no JDK 25 jfr found: set JAVA25_HOME to compare)"
fi

# ---- disassemble and assemble: chunks copied, next to the JDK's ------------------
# measure_fresh DIR CMD...: measure, with DIR emptied before each run (not
# timed), as the commands refuse to overwrite what the run before wrote
measure_fresh() {
    local dir=$1 i results=() tf
    shift
    tf=$(mktemp)
    for ((i = 0; i < runs; i++)); do
        rm -rf "$dir" && mkdir -p "$dir"
        /usr/bin/time -o "$tf" -f '%e %U %S %M' "$@" >/dev/null 2>&1 || true
        results+=("$(tail -n 1 "$tf")")
    done
    rm -f "$tf"
    printf '%s\n' "${results[@]}" | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2) {
        printf "%.3f %.3f %.1f\n", $1, $2 + $3, $4 / 1024 }'
}
copies=${TMPDIR:-/tmp}/jfrtool-bench/copies
mkdir -p "$copies"
rm -rf "$copies/parts" && mkdir -p "$copies/parts"
"$tool" disassemble --max-size 1 --output "$copies/parts" "$file" >/dev/null
echo
echo "disassemble (default: 5 chunks a file) and assemble ($(ls "$copies/parts" | wc -l) chunk files)"
printf '%-34s %8s %8s %9s %9s %12s\n' command wall_s cpu_s rss_MB MB/s events/s
read -r dw dc dr < <(measure_fresh "$copies/out" "$tool" disassemble --output "$copies/out" "$file")
row "jfrtool disassemble" "$dw" "$dc" "$dr"
read -r aw ac ar < <(measure_fresh "$copies/out" "$tool" assemble "$copies/parts" "$copies/out/a.jfr")
row "jfrtool assemble" "$aw" "$ac" "$ar"
if [ -n "$jdk_jfr" ]; then
    read -r w c r < <(measure_fresh "$copies/out" "$jdk_jfr" disassemble --output "$copies/out" "$file")
    row "jfr disassemble" "$w" "$c" "$r"
    awk -v w="$w" -v c="$c" -v ow="$dw" -v oc="$dc" 'BEGIN { printf "%-34s %8.1fx %7.1fx\n",
        "  jfr / jfrtool (wall, cpu)", w / (ow > 0 ? ow : 0.001), c / (oc > 0 ? oc : 0.001) }'
    read -r w c r < <(measure_fresh "$copies/out" "$jdk_jfr" assemble "$copies/parts" "$copies/out/a.jfr")
    row "jfr assemble" "$w" "$c" "$r"
    awk -v w="$w" -v c="$c" -v ow="$aw" -v oc="$ac" 'BEGIN { printf "%-34s %8.1fx %7.1fx\n",
        "  jfr / jfrtool (wall, cpu)", w / (ow > 0 ? ow : 0.001), c / (oc > 0 ? oc : 0.001) }'
fi
rm -rf "$copies"

# ---- many distinct deep stacks -------------------------------------------------
deep=${BENCH_DEEP_FILE:-}
if [ -z "$deep" ] && [ -n "$jdk_jfr" ]; then
    deep=${TMPDIR:-/tmp}/jfrtool-bench/deep-jdk25.jfr
    if [ ! -s "$deep" ]; then
        mkdir -p "$(dirname "$deep")"
        echo "making $deep (120 s)" >&2
        sh "$here/make-deep-recording.sh" "$deep" 120 >&2 || deep=""
    fi
fi
[ -n "$deep" ] && [ -r "$deep" ] || { echo "(no deep-stack recording: set BENCH_DEEP_FILE)"; exit 0; }
file=$deep
bytes=$(stat -c %s "$file")
events=$("$tool" summary "$file" 2>/dev/null |
    awk '/^=+$/{t=1; next} t && NF>=3 && $(NF-1) ~ /^[0-9]+$/ {n+=$(NF-1)} END{print n+0}')
echo
echo "deep stacks: $file ($(awk -v b="$bytes" 'BEGIN{printf "%.1f", b/1e6}') MB, $events records," \
     "$("$tool" folded --event cpu "$file" 2>/dev/null | wc -l) distinct CPU-time stacks)"
printf '%-34s %8s %8s %9s %9s %12s\n' command wall_s cpu_s rss_MB MB/s events/s
for spec in "folded --event cpu" "folded --event cpu --jobs 1" "flame --format html --event cpu" \
            "print --json --stack-depth 64"; do
    # shellcheck disable=SC2086
    set -- $spec
    read -r w c r < <(measure "$tool" "$@" "$file")
    ours[deep $spec]="$w $c $r"
    row "jfrtool $spec" "$w" "$c" "$r"
done
if [ -n "$jdk_jfr" ]; then
    read -r w c r < <(measure "$jdk_jfr" print --json --stack-depth 64 "$file")
    row "jfr print --json --stack-depth 64" "$w" "$c" "$r"
    read -r ow oc _ <<<"${ours[deep print --json --stack-depth 64]}"
    awk -v w="$w" -v c="$c" -v ow="$ow" -v oc="$oc" 'BEGIN { printf "%-34s %8.1fx %7.1fx\n",
        "  jfr / jfrtool (wall, cpu)", w / (ow > 0 ? ow : 0.001), c / (oc > 0 ? oc : 0.001) }'
fi
if [ -n "${ASYNC_CONVERTER:-}" ] && [ -n "$jdk_jfr" ]; then
    vs_converter --cpu-time cpu "deep "
else
    echo "(async-profiler's converter not compared: set ASYNC_CONVERTER to its converter.jar)"
fi
