#!/bin/sh
# examples/split-chunks (jfr_assemble(3)) agrees with jfrtool disassemble:
# for multi-jdk25.jfr and concat-17-25.jfr at one and two chunks a file, it
# writes files of the same names and sizes, and joined they are the input.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JFR_EXAMPLES.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
: "${JFR_EXAMPLES:?set JFR_EXAMPLES to the built examples directory}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-split-example.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
for f in multi-jdk25.jfr concat-17-25.jfr; do
    for n in 1 2; do
        rm -rf "$tmp/ex" "$tmp/tool"
        mkdir "$tmp/ex" "$tmp/tool"
        if ! "$JFR_EXAMPLES/split-chunks" "$n" "$JFR_TESTDATA/recordings/$f" "$tmp/ex" \
                > "$tmp/out" 2>&1; then
            echo "FAIL: split-chunks $n $f: $(cat "$tmp/out")"
            fail=1
            continue
        fi
        "$JFRTOOL" disassemble --max-size 1G --max-chunks "$n" --output "$tmp/tool" \
            "$JFR_TESTDATA/recordings/$f" > /dev/null
        (cd "$tmp/tool" && for p in $(ls | LC_ALL=C sort); do echo "$p $(wc -c < "$p")"; done) \
            > "$tmp/want"
        if ! cmp -s "$tmp/out" "$tmp/want"; then
            echo "FAIL: split-chunks $n $f: not jfrtool disassemble's files:"
            diff "$tmp/want" "$tmp/out"
            fail=1
        elif ! cat $(ls "$tmp/ex"/* | LC_ALL=C sort) | cmp -s - "$JFR_TESTDATA/recordings/$f"; then
            echo "FAIL: split-chunks $n $f: the files joined are not the input"
            fail=1
        else
            echo "ok: split-chunks $n $f: $(wc -l < "$tmp/out" | tr -d ' ') files, as jfrtool's"
        fi
    done
done
exit $fail
