#!/bin/sh
# The complete programs in the EXAMPLES sections of the library's manual
# pages compile against the built library (strict C11, no warnings) and
# run. libjfr.3's example prints one line per jdk.ExecutionSample: the
# test checks the count against `jfrtool summary` and the line format.
# jfr_profile.3's prints folded stacks: sorted, they must be those of
# `jfrtool folded --event exec`. jfr_leaks.3's runs on a leak recording
# and must name the candidates `jfrtool leaks` names. jfr_follow.3's follows
# the closed recording as a growing file: its events, counted flush by
# flush, are the events `jfrtool summary` counts, and it says the recording
# ended. jfr_assemble.3's joins the copied repository as `jfrtool assemble`
# does. Every example must run and print something.
#
# Environment (set by `make check`): JFR_TOP_SRCDIR, JFR_TOP_BUILDDIR,
# JFR_TESTDATA, JFRTOOL (optional), CC.
set -u
: "${JFR_TOP_SRCDIR:?set JFR_TOP_SRCDIR to the source tree}"
: "${JFR_TOP_BUILDDIR:?set JFR_TOP_BUILDDIR to the build tree}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
export TZ=UTC LC_ALL=C
cc=${CC:-cc}
libtool=$JFR_TOP_BUILDDIR/libtool
rec=$JFR_TESTDATA/recordings/cpu-jdk25.jfr

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-manex.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# The first literal display of the EXAMPLES section of page $1, with the
# roff escapes the pages use (\e, \&, \-) undone.
extract() {
    awk '/^\.Sh / { ex = ($0 == ".Sh EXAMPLES"); next }
         ex && /^\.Bd -literal/ && !done { on = 1; next }
         on && /^\.Ed/ { on = 0; done = 1; next }
         on { print }' "$1" | sed 's/\\e/\\/g; s/\\&//g; s/\\-/-/g'
}

# build NAME: compile $tmp/NAME.c into $tmp/NAME with libtool.
build() {
    # JFR_SAN_FLAGS: a sanitizer build's libjfr needs its runtime linked in
    # shellcheck disable=SC2086
    $libtool --mode=link --tag=CC $cc -std=c11 -pedantic -Wall -Wextra -Werror ${JFR_SAN_FLAGS:-} \
        -I"$JFR_TOP_BUILDDIR/include" -I"$JFR_TOP_SRCDIR/include" \
        -o "$tmp/$1" "$tmp/$1.c" "$JFR_TOP_BUILDDIR/libjfr/libjfr.la" >"$tmp/$1.log" 2>&1 || {
        echo "FAIL: the example of $1 does not build:"
        cat "$tmp/$1.log"
        fail=1
        return 1
    }
}

extract "$JFR_TOP_SRCDIR/doc/libjfr.3" >"$tmp/libjfr.3.c"
grep -q 'int main' "$tmp/libjfr.3.c" || { echo "FAIL: no program in libjfr.3 EXAMPLES"; exit 1; }
if build libjfr.3; then
    if ! $libtool --mode=execute "$tmp/libjfr.3" "$rec" >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: libjfr.3 example exited with $?: $(cat "$tmp/err")"
        fail=1
    fi
    bad=$(grep -cvE '^[0-9]+\.[0-9]{9}( \[[^]]*\])?( [^ ]+\.[^ ]+ line -?[0-9]+)?$' "$tmp/out")
    [ "$bad" -eq 0 ] || { echo "FAIL: $bad malformed lines from the libjfr.3 example"; fail=1; }
    n=$(wc -l <"$tmp/out")
    if [ -n "${JFRTOOL:-}" ] && [ -x "$JFRTOOL" ]; then
        want=$("$JFRTOOL" summary "$rec" | awk '$1 == "jdk.ExecutionSample" { print $2 }')
        [ "$n" = "$want" ] ||
            { echo "FAIL: libjfr.3 example printed $n samples, jfrtool summary counts $want"; fail=1; }
    fi
    [ "$n" -gt 0 ] || { echo "FAIL: libjfr.3 example printed nothing"; fail=1; }
fi

for page in "$JFR_TOP_SRCDIR"/doc/jfr_*.3; do
    [ -f "$page" ] || continue
    name=$(basename "$page")
    extract "$page" >"$tmp/$name.c"
    grep -q 'int main' "$tmp/$name.c" || continue
    build "$name" || continue
    input=$rec
    [ "$name" = jfr_leaks.3 ] && input=$JFR_TESTDATA/recordings/leak-jdk25.jfr
    $libtool --mode=execute "$tmp/$name" "$input" >"$tmp/out" 2>"$tmp/err" || {
        echo "FAIL: $name example exited with $?: $(cat "$tmp/err")"
        fail=1
    }
    [ -s "$tmp/out" ] || { echo "FAIL: $name example printed nothing"; fail=1; }
    if [ "$name" = jfr_profile.3 ] && [ -n "${JFRTOOL:-}" ] && [ -x "$JFRTOOL" ] &&
        "$JFRTOOL" folded --event exec "$rec" >"$tmp/folded" 2>/dev/null; then
        sort "$tmp/out" | cmp -s - "$tmp/folded" ||
            { echo "FAIL: jfr_profile.3 example differs from jfrtool folded --event exec"; fail=1; }
    fi
    if [ "$name" = jfr_writer.3 ] && [ -n "${JFRTOOL:-}" ] && [ -x "$JFRTOOL" ]; then
        # the copy holds every event but the execution samples
        "$JFRTOOL" summary "$input" | awk '/^=+$/ { t = 1; next }
            t && NF == 3 && $1 !~ /Metadata|Checkpoint/ { n += $2 }
            $1 == "jdk.ExecutionSample" { x = $2 }
            END { printf "%d of %d events in 1 chunks,", n - x, n }' >"$tmp/want"
        head -1 "$tmp/out" | grep -q "^$(cat "$tmp/want") [0-9]* bytes$" ||
            { echo "FAIL: jfr_writer.3 example: $(head -1 "$tmp/out"), want $(cat "$tmp/want")"; fail=1; }
        grep -q '^chunk 0: [0-9]* bytes$' "$tmp/out" ||
            { echo "FAIL: jfr_writer.3 example: its copy does not read back"; fail=1; }
    fi
    if [ "$name" = jfr_assemble.3 ] && [ -n "${JFRTOOL:-}" ] && [ -x "$JFRTOOL" ]; then
        # the copied repository, whose last chunk the JVM was writing
        set -- "$JFR_TESTDATA"/repository/*.jfr
        $libtool --mode=execute "$tmp/$name" "$@" >"$tmp/joined" 2>/dev/null
        "$JFRTOOL" assemble "$JFR_TESTDATA/repository" - 2>/dev/null >"$tmp/want"
        [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/joined" ||
            { echo "FAIL: jfr_assemble.3 example differs from jfrtool assemble"; fail=1; }
    fi
    if [ "$name" = jfr_leaks.3 ] && [ -n "${JFRTOOL:-}" ] && [ -x "$JFRTOOL" ]; then
        "$JFRTOOL" leaks --top 100000 "$input" 2>/dev/null | sed -n 's/^#[0-9]* //p' >"$tmp/want"
        sed -n 's/^[0-9]*\. \(.*\) keeps [0-9]* samples alive .*/\1/p' "$tmp/out" >"$tmp/got"
        [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got" ||
            { echo "FAIL: jfr_leaks.3 example's candidates differ from jfrtool leaks'"; fail=1; }
    fi
    if [ "$name" = jfr_follow.3 ] && [ -n "${JFRTOOL:-}" ] && [ -x "$JFRTOOL" ]; then
        want=$("$JFRTOOL" summary "$input" | awk '/^=/ { on = 1; next }
            on && $1 != "jdk.Metadata" && $1 != "jdk.Checkpoint" { n += $2 } END { print n }')
        last=$(tail -n 1 "$tmp/out")
        [ "$last" = "$want events; ended: finished" ] ||
            { echo "FAIL: jfr_follow.3 example: '$last', jfrtool summary counts $want events"; fail=1; }
    fi
done

[ "$fail" -eq 0 ] && echo "PASS: the manual's examples build and run"
exit "$fail"
