#!/bin/sh
# fuzz.sh TARGET [RUNS] - run one libFuzzer target of a tree configured with
# --enable-fuzzers (CC=clang), niced, one process, on a scratch corpus seeded
# from tests/fuzz/corpus/TARGET. Crashes land in $FUZZ_WORK/TARGET/ as
# crash-*; copy a reproducer to tests/fuzz/regressions/TARGET/ with a name
# that says what it found, and record the run in doc/robustness.md.
#
#   FUZZ_WORK   scratch folder (default ${TMPDIR:-/tmp}/jfr-fuzz)
#   FUZZ_ARGS   extra libFuzzer options (e.g. -max_total_time=3600)
set -eu
target=${1:?usage: fuzz.sh TARGET [RUNS]}
runs=${2:-10000000}
here=$(cd "$(dirname "$0")" && pwd)
bin=${FUZZ_BIN:-./tests/fuzz/fuzz_$target}
work=${FUZZ_WORK:-${TMPDIR:-/tmp}/jfr-fuzz}/$target
[ -x "$bin" ] || { echo "fuzz.sh: no $bin (configure --enable-fuzzers CC=clang; make)" >&2; exit 2; }
mkdir -p "$work/corpus"
# small inputs keep the rate high; the library's limits are set low by the
# targets themselves (fuzz_common.h)
exec nice -n 10 "$bin" -runs="$runs" -max_len=8192 -rss_limit_mb=2048 -timeout=20 \
    -print_final_stats=1 -artifact_prefix="$work/" ${FUZZ_ARGS:-} \
    "$work/corpus" "$here/corpus/$target"
