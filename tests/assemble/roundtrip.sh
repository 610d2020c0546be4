#!/bin/sh
# jfrtool disassemble and assemble against the JDK's jfr, and the round trip:
#
# 1. For every case of testdata/jdk/assemble/disassemble.tsv (made by
#    tests/assemble/regen-jdk-assemble.sh with JDK 25's `jfr disassemble`):
#    our disassemble with the same options writes files of the same names
#    and sizes (so the same bytes: both are consecutive ranges of the
#    input), or exits with the same status and writes none. Corpus cases
#    skip, saying so, without ../shared.
# 2. Every test recording (and, when present, every corpus file of several
#    chunks), disassembled one chunk a file and assembled again, is the
#    input byte for byte (compressed inputs: their raw recording), and so is
#    the concatenation of the parts.
# 3. Our `print --json` of every assembled test recording and multi-chunk
#    corpus file equals that of the input byte for byte (under
#    JFR_TEST_QUICK, three recordings); for multi-jdk25.jfr jsoncmp also finds it
#    equal to JDK 25's `jfr print --json` of the input
#    (testdata/jdk/multi-jdk25.jfr.print.json.gz: the JDK's own assemble of
#    its own disassemble gave the input back when that file was made).
#    The unfinished recordings, assembled, print as the input does, without
#    the input's warning.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JFR_SHARED,
# JSONCMP (optional).
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
rec=$JFR_TESTDATA/recordings
corpus=${JFR_SHARED:-$JFR_TESTDATA/../../shared}/corpus/public
tsv=$JFR_TESTDATA/jdk/assemble/disassemble.tsv

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-assemble.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM
fail=0

failed() {
    echo "FAIL: $*"
    fail=1
}

# NAME:BYTES of the files in a folder, in name order
listing() {
    (cd "$1" && for f in $(ls | LC_ALL=C sort); do printf '%s:%s ' "$f" "$(wc -c < "$f" | tr -d ' ')"; done) |
        sed 's/ $//'
}

# ---- 1. the JDK's disassemble ---------------------------------------------------
tail -n +2 "$tsv" > "$tmp/cases"
while IFS='	' read -r name file options status files; do
    case $file in
        corpus/*)
            path=$corpus/${file#corpus/}
            if [ ! -f "$path" ]; then
                echo "skip: $name: no $path (the shared corpus is absent)"
                continue
            fi ;;
        *) path=$JFR_TESTDATA/$file ;;
    esac
    [ "$options" = - ] && options=""
    d=$tmp/dis-$name
    mkdir -p "$d"
    ours=0
    # shellcheck disable=SC2086
    "$JFRTOOL" disassemble $options --output "$d" "$path" > "$tmp/out" 2> "$tmp/err" ||
        ours=$?
    got=$(listing "$d")
    if [ "$ours" != "$status" ] || [ "${got:--}" != "$files" ]; then
        failed "$name: disassemble $options: exit $ours, files ${got:--};" \
            "JDK 25: exit $status, files $files ($(cat "$tmp/err"))"
        continue
    fi
    if [ -n "$got" ] && ! cat $(ls "$d"/* | LC_ALL=C sort) | cmp -s - "$path"; then
        failed "$name: the parts joined are not the input"
        continue
    fi
    echo "ok: $name: as the JDK's (exit $status, ${got:-no files})"
done < "$tmp/cases"

# ---- 2. assemble of disassemble is the input ------------------------------------------
raw_of() { # the raw recording a test recording decompresses to
    case $1 in
        *.jfr.gz | *.jfr.lz4) echo "${1%.*}" ;;
        */cpu-jdk17-gzip.jfr) echo "${1%/*}/cpu-jdk17.jfr" ;;
        *) echo "$1" ;;
    esac
}
roundtrip() { # NAME PATH RAW: parts of one chunk, joined again
    name=$1 path=$2 raw=$3
    d=$tmp/rt-$name
    mkdir -p "$d"
    rm -f "$tmp/joined.jfr"
    if ! "$JFRTOOL" disassemble --max-size 1 --output "$d" "$path" > /dev/null 2> "$tmp/err"; then
        failed "$name: disassemble failed: $(cat "$tmp/err")"
    elif ! "$JFRTOOL" assemble "$d" "$tmp/joined.jfr" 2> "$tmp/err" || [ -s "$tmp/err" ]; then
        failed "$name: assemble failed or warned: $(cat "$tmp/err")"
    elif ! cmp -s "$tmp/joined.jfr" "$raw"; then
        failed "$name: assemble of disassemble differs from the input"
    elif ! cat $(ls "$d"/* | LC_ALL=C sort) | cmp -s - "$raw"; then
        failed "$name: the parts joined are not the input"
    else
        echo "ok: $name: $(ls "$d" | wc -l | tr -d ' ') parts, assembled again byte for byte"
    fi
}
for r in "$rec"/*.jfr "$rec"/*.jfr.gz "$rec"/*.jfr.lz4; do
    name=$(basename "$r")
    case $name in unfinished-*) continue ;; esac
    roundtrip "$name" "$r" "$(raw_of "$r")"
done
# the corpus's files of several chunks that the JDK reads (gzip ones
# against what gzip -dc gives)
multi_corpus=""
if [ -f "$corpus/MANIFEST.tsv" ]; then
    multi_corpus=$(awk -F'\t' 'NR > 1 && $6 + 0 > 1 && $8 ~ /^yes/ { print $1 }' \
        "$corpus/MANIFEST.tsv")
    for f in $multi_corpus; do
        case $f in
            *.gz) gzip -dc "$corpus/$f" > "$tmp/raw-$f.jfr"; raw=$tmp/raw-$f.jfr ;;
            *) raw=$corpus/$f ;;
        esac
        roundtrip "corpus-$f" "$corpus/$f" "$raw"
    done
else
    echo "skip: corpus round trips: no $corpus (the shared corpus is absent)"
fi

# ---- 3. print --json of what was assembled --------------------------------------------
same_print() { # NAME INPUT ASSEMBLED
    "$JFRTOOL" print --json "$2" > "$tmp/in.json" 2> /dev/null
    if ! "$JFRTOOL" print --json "$3" > "$tmp/out.json" 2> "$tmp/err" || [ -s "$tmp/err" ]; then
        failed "$1: print --json of the assembled file failed or warned: $(cat "$tmp/err")"
    elif ! cmp -s "$tmp/in.json" "$tmp/out.json"; then
        failed "$1: print --json of the assembled file differs from the input's"
    else
        echo "ok: $1: print --json of the assembled file is the input's"
    fi
}
# every test recording (a sample under JFR_TEST_QUICK, the sanitizer pass)
# and the corpus's multi-chunk files, assembled from their parts
if [ -n "${JFR_TEST_QUICK:-}" ]; then
    printed="multi-jdk25.jfr concat-17-25.jfr unfinished-jdk25.jfr"
else
    printed=$(cd "$rec" && ls *.jfr *.jfr.gz *.jfr.lz4)
fi
for name in $printed; do
    rm -f "$tmp/a.jfr"
    case $name in
        unfinished-*)
            "$JFRTOOL" assemble "$rec/$name" "$tmp/a.jfr" 2> "$tmp/err"
            grep -q "not closed" "$tmp/err" || failed "$name: assemble did not say it finished a chunk"
            "$JFRTOOL" summary "$rec/$name" > /dev/null 2> "$tmp/err"
            grep -q "was not closed" "$tmp/err" || failed "$name: the input no longer warns" ;;
        *) "$JFRTOOL" assemble "$tmp/rt-$name" "$tmp/a.jfr" 2> /dev/null ;;
    esac
    same_print "$name" "$rec/$name" "$tmp/a.jfr"
done
if [ -z "${JFR_TEST_QUICK:-}" ]; then
    for f in $multi_corpus; do
        rm -f "$tmp/a.jfr"
        "$JFRTOOL" assemble "$tmp/rt-corpus-$f" "$tmp/a.jfr" 2> /dev/null
        same_print "corpus-$f" "$corpus/$f" "$tmp/a.jfr"
    done
fi
jdk_json=$JFR_TESTDATA/jdk/multi-jdk25.jfr.print.json.gz
if [ -n "${JSONCMP:-}" ] && [ -x "$JSONCMP" ] && [ -f "$jdk_json" ]; then
    d=$tmp/rt-multi-jdk25.jfr
    rm -f "$tmp/a.jfr"
    "$JFRTOOL" assemble "$d" "$tmp/a.jfr"
    first=$(head -c 252060 "$tmp/a.jfr" | "$JFRTOOL" print --json --stack-depth 2048 - |
        "$JSONCMP" --count -)
    "$JFRTOOL" print --json --stack-depth 2048 "$tmp/a.jfr" > "$tmp/a.json"
    if "$JSONCMP" --first-chunk-events "$first" "$jdk_json" "$tmp/a.json" > "$tmp/cmp" 2>&1; then
        echo "ok: multi-jdk25.jfr assembled: print --json equals JDK 25's"
    else
        failed "multi-jdk25.jfr assembled: print --json differs from JDK 25's: $(head -5 "$tmp/cmp")"
    fi
else
    echo "skip: jsoncmp against the JDK (built without zlib, or no JSONCMP)"
fi
exit $fail
