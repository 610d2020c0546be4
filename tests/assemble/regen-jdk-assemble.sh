#!/bin/sh
# Remake testdata/jdk/assemble/ (maintainers only; `make check` reads these
# files and needs no JDK). Needs JDK 25's jfr, python3 and a built jfrtool.
#
# Usage: tests/assemble/regen-jdk-assemble.sh [-j JFRTOOL] [-s SHARED]
#   -j JFRTOOL  our jfrtool (default: $JFRTOOL, else jfrtool/jfrtool here)
#   -s SHARED   the shared directory with corpus/public (default: ../shared
#               next to the checkout); its multi-chunk raw files that the
#               JDK reads are disassembled too
#
# Writes:
#   disassemble.tsv    what JDK 25's `jfr disassemble` does for each case:
#                      CASE, FILE (testdata-relative, or corpus/NAME), its
#                      options, its exit status and the files it wrote
#                      (NAME:BYTES, in name order; "-" for none); the script
#                      also checks that JDK 25's `jfr assemble` of those
#                      files gives the input back byte for byte
#   NAME.sha256        for each copied-repository case (tests/assemble/
#                      finish.py variants) and unfinished-jdk17/25.jfr: the
#                      SHA-256 of OUR `jfrtool assemble` output ...
#   NAME.summary.txt   ... and JDK 25's `jfr summary` of that output (its
#                      stderr and exit status in NAME.summary.err if it
#                      failed: it must not)
#   NAME.print-counts.txt
#                      the events of JDK 25's `jfr print --json` of that
#                      output (every value decoded), counted per type:
#                      TYPE COUNT lines in byte order (tests/assemble/
#                      print-counts.py)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tool=${JFRTOOL:-$top/jfrtool/jfrtool}
shared=$top/../shared
while getopts j:s: opt; do
    case $opt in
        j) tool=$OPTARG ;;
        s) shared=$OPTARG ;;
        *) sed -n '2,12p' "$0" >&2; exit 2 ;;
    esac
done
jfr=""
for d in "${JAVA25_HOME:-}" /usr/lib/jvm/*25*; do
    if [ -n "$d" ] && [ -x "$d/bin/jfr" ]; then jfr=$d/bin/jfr; break; fi
done
[ -n "$jfr" ] || { echo "JDK 25 jfr not found (set JAVA25_HOME)" >&2; exit 1; }
[ -x "$tool" ] || { echo "no jfrtool at $tool (build it, or -j)" >&2; exit 1; }
testdata=$top/testdata
out=$testdata/jdk/assemble
mkdir -p "$out"
export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-regen-assemble.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM
echo "JDK: $jfr ($("$jfr" version 2>&1 | head -n 1))"

# ---- the JDK's disassemble ---------------------------------------------------
# case FILE OPTIONS...: FILE relative to testdata/ or corpus/NAME
tsv=$tmp/disassemble.tsv
printf 'case\tfile\toptions\tstatus\tfiles\n' > "$tsv"
jdk_case() {
    name=$1 file=$2
    shift 2
    case $file in
        corpus/*) path=$shared/corpus/public/${file#corpus/} ;;
        *) path=$testdata/$file ;;
    esac
    d=$tmp/dis-$name
    mkdir -p "$d"
    # the JDK names parts after the input's name: give it the real name
    mkdir -p "$d/in" "$d/parts"
    cp "$path" "$d/in/$(basename "$file")"
    status=0
    "$jfr" disassemble "$@" --output "$d/parts" "$d/in/$(basename "$file")" \
        > "$d/log" 2>&1 || status=$?
    files=$(cd "$d/parts" && for f in $(ls | LC_ALL=C sort); do
        printf '%s:%s ' "$f" "$(stat -c %s "$f")"; done)
    files=${files% }
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$file" "${*:--}" "$status" "${files:--}" >> "$tsv"
    if [ -n "$files" ]; then
        "$jfr" assemble "$d/parts" "$d/joined.jfr" > /dev/null
        cmp -s "$d/joined.jfr" "$path" ||
            { echo "$name: jfr assemble of jfr disassemble differs from the input" >&2; exit 1; }
    fi
    echo "$name: exit $status, ${files:-no files}"
}
jdk_case multi-1 recordings/multi-jdk25.jfr --max-chunks 1
jdk_case multi-2 recordings/multi-jdk25.jfr --max-chunks 2
jdk_case multi-default recordings/multi-jdk25.jfr
jdk_case multi-s300000 recordings/multi-jdk25.jfr --max-size 300000
jdk_case multi-s600000 recordings/multi-jdk25.jfr --max-size 600000
jdk_case multi-s1000000 recordings/multi-jdk25.jfr --max-size 1000000
jdk_case concat-1 recordings/concat-17-25.jfr --max-chunks 1
jdk_case single-default recordings/cpu-jdk25.jfr
jdk_case single-s1 recordings/cpu-jdk25.jfr --max-size 1
manifest=$shared/corpus/public/MANIFEST.tsv
if [ -f "$manifest" ]; then
    # raw, several chunks, read by the JDK
    for f in $(awk -F'\t' 'NR > 1 && $4 == "raw" && $6 + 0 > 1 && $8 ~ /^yes/ { print $1 }' \
            "$manifest"); do
        jdk_case "corpus-${f%.jfr}" "corpus/$f" --max-chunks 1
    done
else
    echo "no $manifest: corpus cases not made" >&2
fi
cp "$tsv" "$out/disassemble.tsv"

# ---- JDK 25 reads what our assemble makes -----------------------------------------
jdk_reads() { # NAME INPUT...: assemble INPUT... with ours, summarise with the JDK
    name=$1
    shift
    rm -f "$tmp/$name.jfr"
    "$tool" assemble "$@" "$tmp/$name.jfr" 2> "$tmp/$name.log" || true
    sha256sum < "$tmp/$name.jfr" | awk '{ print $1 }' > "$out/$name.sha256"
    rm -f "$out/$name.summary.err"
    if ! "$jfr" summary "$tmp/$name.jfr" > "$out/$name.summary.txt" 2> "$tmp/$name.err"; then
        { cat "$tmp/$name.err"; echo "exit status: failed"; } > "$out/$name.summary.err"
        rm -f "$out/$name.summary.txt"
        echo "$name: JDK 25 could not read our output" >&2
    fi
    "$jfr" print --json "$tmp/$name.jfr" | python3 "$here/print-counts.py" \
        > "$out/$name.print-counts.txt"
    echo "$name: $(stat -c %s "$tmp/$name.jfr") bytes"
}
JFR_TESTDATA=$testdata python3 "$here/finish.py" variants "$tmp/variants"
for v in "$tmp"/variants/*; do
    jdk_reads "$(basename "$v")" "$v"
done
jdk_reads unfinished-jdk17 "$testdata/recordings/unfinished-jdk17.jfr"
jdk_reads unfinished-jdk25 "$testdata/recordings/unfinished-jdk25.jfr"
ls -l "$out"
