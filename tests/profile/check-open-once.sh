#!/bin/sh
# Each input is opened once per command (issue 11): folded, flame, the
# views and summary open a multi-chunk recording once, whatever --jobs and
# --from ask (threads share the bytes the library read; the start behind
# --from is read from the same handle), counted with strace. And a
# recording on a pipe works with --from, as the same file does.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to testdata/}"
rec=$JFR_TESTDATA/recordings
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-open.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

cat "$rec/cpu-jdk25.jfr" "$rec/io-jdk25.jfr" "$rec/concat-17-25.jfr" >"$tmp/five.jfr"
gzip -c "$tmp/five.jfr" >"$tmp/five.jfr.gz"

if ! command -v strace >/dev/null 2>&1 ||
    ! strace -f -o /dev/null true 2>/dev/null; then
    echo "SKIP: strace is missing or cannot trace here: opens not counted"
    skip_strace=1
else
    skip_strace=0
fi

opens() { # ARGS...: how often the input was opened
    strace -f -e trace=open,openat -o "$tmp/trace" "$JFRTOOL" "$@" >/dev/null 2>&1
    grep -c 'five.jfr' "$tmp/trace"
}

if [ "$skip_strace" = 0 ]; then
    for f in five.jfr five.jfr.gz; do
        for args in "folded --jobs 2" "folded --jobs 2 --from 1s --event exec" \
            "flame --jobs 2" "view hot-methods --jobs 2" "summary --jobs 2" \
            "folded --jobs 1 --to 5s"; do
            # shellcheck disable=SC2086
            n=$(opens $args "$tmp/$f")
            if [ "$n" != 1 ]; then
                echo "FAIL: jfrtool $args $f opened its input $n times"
                fail=1
            else
                echo "ok: $args $f opened once"
            fi
        done
    done
fi

# standard input, read once: --from and threads work on a pipe
for args in "--from 10s --event exec" "--to 5s" "--jobs 3"; do
    # shellcheck disable=SC2086
    "$JFRTOOL" folded $args "$tmp/five.jfr" >"$tmp/file.out" 2>/dev/null
    # shellcheck disable=SC2086
    cat "$tmp/five.jfr" | "$JFRTOOL" folded $args - >"$tmp/pipe.out" 2>/dev/null
    if [ ! -s "$tmp/file.out" ] || ! cmp -s "$tmp/file.out" "$tmp/pipe.out"; then
        echo "FAIL: folded $args: a pipe gives other stacks than the file"
        fail=1
    else
        echo "ok: folded $args - (a pipe)"
    fi
done
exit $fail
