#!/bin/sh
# Golden tests of the jfrtool command line (after zstd's tests/cli-tests).
#
# Each case is a small shell script tests/cli/cases/CASE.sh that runs jfrtool
# (found on PATH as plain `jfrtool`, so messages show that name). It runs
# under TZ=UTC LC_ALL=C with the testdata directory as its working directory
# (so it names recordings as recordings/NAME.jfr and messages hold no
# absolute paths) and $WORK, an empty writable directory of its own, for any
# file it needs to make. Its standard output, standard error and exit status
# must equal testdata/expected/CASE.out, CASE.err and CASE.status exactly.
#
# Usage: tests/cli/run.sh [CASE...]        (default: every case)
# With UPDATE_GOLDEN=1 in the environment (`make check UPDATE_GOLDEN=1`) the
# expected files are rewritten from the current output instead; review the
# diff before committing it. To add a case, write tests/cli/cases/CASE.sh
# and run `make check UPDATE_GOLDEN=1 TESTS=tests/cli/run.sh`.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
cases=$(cd "$(dirname "$0")/cases" && pwd) || exit 99
expected=$JFR_TESTDATA/expected
update=${UPDATE_GOLDEN:-}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM
case $JFRTOOL in /*) ;; *) JFRTOOL=$(pwd)/$JFRTOOL ;; esac
mkdir "$tmp/bin"
ln -s "$JFRTOOL" "$tmp/bin/jfrtool" || exit 99

if [ $# -eq 0 ]; then
    set -- "$cases"/*.sh
fi
fail=0 n=0
for c in "$@"; do
    name=$(basename "$c" .sh)
    script=$cases/$name.sh
    [ -f "$script" ] || { echo "FAIL: no such case: $name"; fail=1; continue; }
    n=$((n + 1))
    rm -rf "$tmp/work"
    mkdir "$tmp/work"
    (
        cd "$JFR_TESTDATA" || exit 99
        PATH=$tmp/bin:$PATH WORK=$tmp/work TZ=UTC LC_ALL=C
        export PATH WORK TZ LC_ALL
        exec sh "$script" < /dev/null
    ) > "$tmp/out" 2> "$tmp/err"
    echo $? > "$tmp/status"
    if [ "$update" = 1 ]; then
        for s in out err status; do
            if ! cmp -s "$tmp/$s" "$expected/$name.$s"; then
                cp "$tmp/$s" "$expected/$name.$s" || exit 99
                echo "updated: $name.$s"
            fi
        done
        continue
    fi
    ok=1
    for s in status out err; do
        if [ ! -f "$expected/$name.$s" ]; then
            echo "FAIL: $name: no $expected/$name.$s (run make check UPDATE_GOLDEN=1)"
            ok=0
        elif ! cmp -s "$expected/$name.$s" "$tmp/$s"; then
            echo "FAIL: $name: $s differs (- expected, + actual):"
            diff -u "$expected/$name.$s" "$tmp/$s" | sed -n '3,40p' | sed 's/^/  /'
            ok=0
        fi
    done
    if [ "$ok" = 1 ]; then
        echo "ok: $name"
    else
        fail=1
    fi
done
echo "$n cases"
[ "$n" -gt 0 ] || fail=1
exit $fail
