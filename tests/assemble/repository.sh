#!/bin/sh
# jfrtool assemble of a copied JVM repository whose last chunk the JVM was
# still writing (testdata/repository, tests/assemble/make-repository.sh),
# of the damaged copies tests/assemble/finish.py makes of it (bytes of an
# unflushed flush after the last one, a header being rewritten, a copy cut
# inside a flush or before the first, a closed chunk cut short) and of the
# killed-JVM files testdata/recordings/unfinished-jdk17.jfr and -jdk25.jfr:
#
# 1. the output is what finish.py, written from the format alone, says it
#    must be: JDK 27's rule for a consistent header (state byte 0, cut at
#    the header's size), else the last complete flush, byte for byte;
# 2. it is the file JDK 25 read when testdata/jdk/assemble was made (same
#    SHA-256), and our summary of it equals JDK 25's `jfr summary` of it
#    byte for byte, and our print --json has the events, type by type, that
#    JDK 25's `jfr print --json` decoded from it;
# 3. our reader reads it with no warning at all (summary and print --json
#    exit 0 with nothing on standard error), where the input warns;
# 4. the command line: directories and files together, '-' for standard
#    output, an existing OUT refused, a directory that holds OUT's name,
#    inputs that are not recordings.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
here=$(cd "$(dirname "$0")" && pwd)
jdk=$JFR_TESTDATA/jdk/assemble
python=${JFR_PYTHON:-python3}
command -v "$python" > /dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-repository.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM
fail=0

failed() {
    echo "FAIL: $*"
    fail=1
}

sha256() {
    sha256sum < "$1" | awk '{ print $1 }'
}

# check NAME INPUT...: assemble the inputs and hold the output to 1-3
check() {
    name=$1
    shift
    out=$tmp/$name.jfr
    rm -f "$out"
    if ! "$JFRTOOL" assemble "$@" "$out" 2> "$tmp/err"; then
        failed "$name: assemble failed: $(cat "$tmp/err")"
        return
    fi
    files=""
    for a in "$@"; do
        if [ -d "$a" ]; then files="$files $(ls "$a"/*.jfr | LC_ALL=C sort | tr '\n' ' ')"
        else files="$files $a"; fi
    done
    # shellcheck disable=SC2086
    JFR_TESTDATA=$JFR_TESTDATA "$python" "$here/finish.py" expect "$tmp/expected.jfr" $files
    if ! cmp -s "$out" "$tmp/expected.jfr"; then
        failed "$name: not what finish.py expects ($(wc -c < "$out") bytes," \
            "expected $(wc -c < "$tmp/expected.jfr"))"
        return
    fi
    if [ "$(sha256 "$out")" != "$(cat "$jdk/$name.sha256")" ]; then
        failed "$name: not the file JDK 25 read for testdata/jdk/assemble"
        return
    fi
    if ! "$JFRTOOL" summary "$out" > "$tmp/summary" 2> "$tmp/err" || [ -s "$tmp/err" ]; then
        failed "$name: summary of the output failed or warned: $(cat "$tmp/err")"
    elif ! cmp -s "$tmp/summary" "$jdk/$name.summary.txt"; then
        failed "$name: summary differs from JDK 25's (- jdk, + ours):"
        diff -u "$jdk/$name.summary.txt" "$tmp/summary" | sed 's/^/  /'
    elif ! "$JFRTOOL" print --json "$out" > "$tmp/json" 2> "$tmp/err" || [ -s "$tmp/err" ]; then
        failed "$name: print --json of the output failed or warned: $(cat "$tmp/err")"
    elif ! "$python" "$here/print-counts.py" < "$tmp/json" |
            cmp -s - "$jdk/$name.print-counts.txt"; then
        failed "$name: print --json has other events than JDK 25's"
    else
        echo "ok: $name: $(wc -c < "$out" | tr -d ' ') bytes, as expected; read by JDK 25" \
            "and by us without a warning"
    fi
}

JFR_TESTDATA=$JFR_TESTDATA "$python" "$here/finish.py" variants "$tmp/variants" ||
    { echo "FAIL: finish.py variants"; exit 1; }
for v in "$tmp"/variants/*; do
    check "$(basename "$v")" "$v"
done
for v in 17 25; do
    r=$JFR_TESTDATA/recordings/unfinished-jdk$v.jfr
    "$JFRTOOL" summary "$r" > /dev/null 2> "$tmp/err"
    grep -q "was not closed" "$tmp/err" || failed "unfinished-jdk$v.jfr: the input does not warn"
    check "unfinished-jdk$v" "$r"
done

# ---- 4. the command line ---------------------------------------------------------
repo=$JFR_TESTDATA/repository
want=$tmp/as-copied.jfr
last=$(ls "$repo"/*.jfr | LC_ALL=C sort | tail -n 1)
rm -f "$tmp/mixed.jfr"
"$JFRTOOL" assemble "$repo" "$tmp/mixed.jfr" 2> /dev/null
# a directory and files together, in the order given
first=$(ls "$repo"/*.jfr | LC_ALL=C sort | head -n 1)
mkdir -p "$tmp/some"
for f in $(ls "$repo"/*.jfr | LC_ALL=C sort | sed '1d'); do cp "$f" "$tmp/some/"; done
rm -f "$tmp/mixed2.jfr"
"$JFRTOOL" assemble "$first" "$tmp/some" "$tmp/mixed2.jfr" 2> /dev/null
cmp -s "$tmp/mixed2.jfr" "$want" || failed "FILE DIR: not the directory's assembly"
# standard output into a pipe
"$JFRTOOL" assemble "$repo" - 2> /dev/null | cat > "$tmp/piped.jfr"
cmp -s "$tmp/piped.jfr" "$want" || failed "OUT '-': not the file's bytes"
# an existing OUT is left alone
echo keep > "$tmp/exists.jfr"
"$JFRTOOL" assemble "$repo" "$tmp/exists.jfr" 2> "$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(cat "$tmp/exists.jfr")" = keep ] && grep -q "exists already" "$tmp/err" ||
    failed "existing OUT: exit $st, $(cat "$tmp/err")"
# OUT in the directory assembled: it is not one of its inputs
mkdir -p "$tmp/self"
cp "$repo"/*.jfr "$tmp/self/"
(cd "$tmp/self" && "$JFRTOOL" assemble . all.jfr 2> /dev/null)
cmp -s "$tmp/self/all.jfr" "$want" || failed "DIR holding OUT: OUT read as an input"
# a file that is not a recording: reported, exit 2, the rest written
mkdir -p "$tmp/junk"
cp "$repo"/*.jfr "$tmp/junk/"
: > "$tmp/junk/0000_empty.jfr"
echo "not a recording" > "$tmp/junk/zzzz.jfr"
rm -f "$tmp/junk.jfr"
"$JFRTOOL" assemble "$tmp/junk" "$tmp/junk.jfr" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] && cmp -s "$tmp/junk.jfr" "$want" && [ "$(grep -c . "$tmp/err")" -eq 3 ] ||
    failed "inputs that are not recordings: exit $st, $(cat "$tmp/err")"
# nothing to assemble: exit 2 and no OUT
mkdir -p "$tmp/empty"
"$JFRTOOL" assemble "$tmp/empty" "$tmp/none.jfr" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/none.jfr" ] || failed "empty directory: exit $st, $(cat "$tmp/err")"
# the live chunk alone before its first flush: left out, nothing written
"$JFRTOOL" assemble "$tmp/variants/early/$(basename "$last")" "$tmp/early1.jfr" 2> "$tmp/err"
st=$?
[ $st -eq 2 ] && [ ! -e "$tmp/early1.jfr" ] && grep -q "left out" "$tmp/err" ||
    failed "a chunk with no flush alone: exit $st, $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "ok: the command line (directories and files, '-', OUT, junk)"
exit $fail
