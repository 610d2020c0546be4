#!/bin/sh
# Chunks decoded in threads (--jobs N, jfr_recording_decode_chunks) give
# exactly the output and the messages of the sequential read (--jobs 1), on
# multi-chunk recordings: folded with every shaping option, SVG and HTML
# flame graphs, a diff, the views by top frame and the GC phase statistics,
# the views that run SQL (their records listed in the threads), and
# summary. The
# JFRTOOL_TRACE_JOBS line proves the threads were used.
# A damaged file falls back to the sequential read, with the same result;
# a chunk whose metadata cannot be read is reported and skipped by both.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to testdata/}"
rec=$JFR_TESTDATA/recordings
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-jobs.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# four chunks of three JVMs: JDK 25 CPU time, JDK 25 I/O, JDK 17 and 25
cat "$rec/cpu-jdk25.jfr" "$rec/io-jdk25.jfr" "$rec/concat-17-25.jfr" >"$tmp/five.jfr"
# cut inside its last chunk: not eligible for threads
size=$(wc -c <"$tmp/five.jfr")
head -c $((size - 5000)) "$tmp/five.jfr" >"$tmp/cut.jfr"

same() { # NAME ARGS...: --jobs 1 and --jobs 3 agree; the threads ran
    name=$1
    shift
    JFRTOOL_TRACE_JOBS=1 "$JFRTOOL" "$@" --jobs 1 >"$tmp/one.out" 2>"$tmp/one.err"
    s1=$?
    JFRTOOL_TRACE_JOBS=1 "$JFRTOOL" "$@" --jobs 3 >"$tmp/par.out" 2>"$tmp/par.err"
    s3=$?
    grep -v ' threads$' "$tmp/par.err" >"$tmp/par.msg"
    if [ "$s1" != "$s3" ]; then
        echo "FAIL: $name: exit $s1 with --jobs 1, $s3 with --jobs 3"
        fail=1
    elif ! cmp -s "$tmp/one.out" "$tmp/par.out"; then
        echo "FAIL: $name: output differs between --jobs 1 and --jobs 3"
        diff "$tmp/one.out" "$tmp/par.out" | head -5
        fail=1
    elif ! cmp -s "$tmp/one.err" "$tmp/par.msg"; then
        echo "FAIL: $name: messages differ between --jobs 1 and --jobs 3"
        diff "$tmp/one.err" "$tmp/par.msg" | head -5
        fail=1
    elif [ ! -s "$tmp/one.out" ]; then
        echo "FAIL: $name: no output"
        fail=1
    else
        echo "ok: $name ($(wc -c <"$tmp/one.out") bytes)"
    fi
}

threads_used() { # NAME FILE: the trace line says the file was shared out
    if grep -q "$2: chunks in [0-9]* threads" "$tmp/par.err"; then
        echo "ok: $1 used threads"
    else
        echo "FAIL: $1: no threads used ($(cat "$tmp/par.err"))"
        fail=1
    fi
}

for f in "$tmp/five.jfr" "$rec/multi-jdk25.jfr"; do
    b=$(basename "$f")
    same "folded $b" folded --event exec "$f"
    threads_used "folded $b" "$f"
    same "folded alloc $b" folded --event alloc --threads --lines --annotate "$f"
    same "flame svg reversed $b" flame --event alloc --reverse --format svg "$f"
done
same "folded cpu period" folded --event cpu --weight period --lines "$tmp/five.jfr"
same "folded exec, two files" folded --event exec --lines "$tmp/five.jfr" "$rec/multi-jdk25.jfr"
same "flame html cpu" flame --event cpu --format html "$tmp/five.jfr"
same "diff html" diff --format html "$rec/concat-17-25.jfr" "$tmp/five.jfr"
same "two files" folded --event exec --threads "$rec/multi-jdk25.jfr" "$tmp/five.jfr"
for v in hot-methods cpu-time-hot-methods native-methods allocation-by-site \
    gc-parallel-phases; do
    same "view $v" view "$v" "$tmp/five.jfr"
    threads_used "view $v" "$tmp/five.jfr"
done
# the views that run SQL list their types' records in the threads first
for v in gc tlabs object-statistics exception-by-site gc-pauses thread-allocation; do
    same "view $v" view "$v" "$tmp/five.jfr"
    same "view $v, damaged" view "$v" "$tmp/cut.jfr"
done
same "view json" view --json --weight period cpu-time-hot-methods "$tmp/five.jfr"
same "view two files" view hot-methods "$rec/multi-jdk25.jfr" "$tmp/five.jfr"
same "summary" summary "$tmp/five.jfr"
threads_used "summary" "$tmp/five.jfr"
same "summary two files" summary "$rec/multi-jdk25.jfr" "$tmp/five.jfr"
same "damaged" folded --event exec "$tmp/cut.jfr"
if grep -q 'threads$' "$tmp/par.err"; then
    echo "FAIL: a cut file was shared out among threads"
    fail=1
fi
grep -q 'cut' "$tmp/one.err" || { echo "FAIL: the cut was not reported"; fail=1; }

# A chunk with a sound header but unreadable metadata (its metadata offset
# set to 12345) is still shared out; the threads must report and skip it as
# the sequential read does (the merge once took its missing result and
# crashed). First, middle and last chunk of five.jfr.
put_offset() { # FILE CHUNK-START: metadata offset (bytes 24..32) := 12345
    printf '\000\000\000\000\000\000\060\071' |
        dd of="$1" bs=1 seek=$(($2 + 24)) conv=notrunc 2>/dev/null
}
cpu_size=$(wc -c <"$rec/cpu-jdk25.jfr")
io_size=$(wc -c <"$rec/io-jdk25.jfr")
for at in 0 $cpu_size $((cpu_size + io_size)); do
    cp "$tmp/five.jfr" "$tmp/bad-meta.jfr"
    put_offset "$tmp/bad-meta.jfr" "$at"
    for cmd in summary "view hot-methods" "view cpu-time-hot-methods" \
        "view allocation-by-site" "folded --event exec" "flame --format svg"; do
        # shellcheck disable=SC2086
        same "metadata unreadable at $at: $cmd" $cmd "$tmp/bad-meta.jfr"
        threads_used "metadata unreadable at $at: $cmd" "$tmp/bad-meta.jfr"
        grep -q 'not metadata' "$tmp/one.err" ||
            { echo "FAIL: $cmd: the unreadable metadata was not reported"; fail=1; }
    done
    same "diff, metadata unreadable at $at" diff "$rec/multi-jdk25.jfr" "$tmp/bad-meta.jfr"
    same "view gc, metadata unreadable at $at" view gc "$tmp/bad-meta.jfr"
done

# the option is checked
if "$JFRTOOL" folded --jobs 0 "$rec/multi-jdk25.jfr" >/dev/null 2>"$tmp/err" ||
    ! grep -q -- '--jobs' "$tmp/err"; then
    echo "FAIL: --jobs 0 was accepted"
    fail=1
fi
exit $fail
