#!/bin/sh
# Differential test of `jfrtool summary` against the JDK 25 `jfr summary`
# output committed in testdata/jdk/R.summary.txt, plus the input front ends:
#
# 1. Single-JVM recordings: our summary equals the JDK's byte for byte.
# 2. concat-17-25.jfr (cat cpu-jdk17.jfr cpu-jdk25.jfr): the JDK is wrong
#    here. Both chunks carry metadata id 1, so its reader reuses the first
#    chunk's type model for the second chunk; `jfr summary` then counts
#    events per numeric type id and names them after the JDK 17 chunk's
#    types, so JDK 25 events land under wrong names (jfr-format.md §14,
#    gotchas 1 and 22). The right answer is the sum of the parts: every
#    type's count and size must equal the sum of the JDK's own summaries of
#    cpu-jdk17.jfr and cpu-jdk25.jfr.
# 3. unfinished-*.jfr: JDK 25 refuses them; JDK 17 reads them, so the
#    per-type counts must equal JDK 17's (R.summary17.txt, which calls the
#    checkpoint pseudo-event jdk.CheckPoint where we say jdk.Checkpoint).
# 4. Compressed copies (cpu-jdk25.jfr.gz, cpu-jdk25.jfr.lz4, and gzip data
#    named cpu-jdk17-gzip.jfr) give exactly the summary and print --json of
#    the raw file, and so does standard input: redirected from a file
#    (seekable) and from a pipe (not seekable), raw and gzip.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
rec=$JFR_TESTDATA/recordings
jdk=$JFR_TESTDATA/jdk

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-summary.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM
fail=0

failed() {
    echo "FAIL: $*"
    fail=1
}

# "TYPE COUNT SIZE" lines of a summary's table, sorted by type; $2 renames
# JDK 17's checkpoint pseudo-event when set.
counts() {
    awk -v jdk17="${2:-}" '
        /^=+$/ { table = 1; next }
        table && NF == 3 {
            name = $1
            if (jdk17 != "" && name == "jdk.CheckPoint") name = "jdk.Checkpoint"
            print name, $2, $3
        }' "$1" | LC_ALL=C sort
}

# ---- 1. byte for byte against JDK 25 ---------------------------------------
for r in "$rec"/*; do
    name=$(basename "$r")
    ref=$jdk/$name.summary.txt
    [ -f "$ref" ] || continue
    [ "$name" = concat-17-25.jfr ] && continue
    if ! "$JFRTOOL" summary "$r" > "$tmp/ours" 2> "$tmp/err"; then
        failed "$name: jfrtool summary failed: $(cat "$tmp/err")"
    elif cmp -s "$ref" "$tmp/ours"; then
        echo "ok: $name: summary equals the JDK's"
    else
        failed "$name: summary differs from the JDK's (- jdk, + ours):"
        diff -u "$ref" "$tmp/ours" | sed 's/^/  /'
    fi
done

# ---- 2. the concatenation is the sum of the parts --------------------------
sum_counts() { # summaries... -> summed "TYPE COUNT SIZE", sorted
    for f in "$@"; do counts "$f"; done |
        awk '{ c[$1] += $2; s[$1] += $3 } END { for (t in c) print t, c[t], s[t] }' |
        LC_ALL=C sort
}
sum_counts "$jdk/cpu-jdk17.jfr.summary.txt" "$jdk/cpu-jdk25.jfr.summary.txt" > "$tmp/parts"
if ! "$JFRTOOL" summary "$rec/concat-17-25.jfr" > "$tmp/ours" 2> "$tmp/err"; then
    failed "concat-17-25.jfr: jfrtool summary failed: $(cat "$tmp/err")"
else
    counts "$tmp/ours" > "$tmp/ours.counts"
    if [ ! -s "$tmp/parts" ]; then
        failed "concat-17-25.jfr: no counts in the JDK summaries of the parts"
    elif cmp -s "$tmp/parts" "$tmp/ours.counts"; then
        echo "ok: concat-17-25.jfr: counts and sizes are the sum of cpu-jdk17 and cpu-jdk25 (JDK's)"
    else
        failed "concat-17-25.jfr: counts are not the sum of the parts (- parts, + ours):"
        diff -u "$tmp/parts" "$tmp/ours.counts" | sed 's/^/  /'
    fi
    if ! grep -qx ' Chunks: 2' "$tmp/ours"; then
        failed "concat-17-25.jfr: summary does not say Chunks: 2"
    fi
fi

# ---- 3. unfinished recordings against JDK 17 -------------------------------
for r in "$rec"/unfinished-*.jfr; do
    name=$(basename "$r")
    ref=$jdk/$name.summary17.txt
    [ -f "$ref" ] || continue
    if ! "$JFRTOOL" summary "$r" > "$tmp/ours" 2> "$tmp/err"; then
        failed "$name: jfrtool summary failed: $(cat "$tmp/err")"
        continue
    fi
    counts "$ref" jdk17 | cut -d' ' -f1,2 > "$tmp/ref.counts"
    counts "$tmp/ours" | cut -d' ' -f1,2 > "$tmp/ours.counts"
    if cmp -s "$tmp/ref.counts" "$tmp/ours.counts"; then
        echo "ok: $name: counts equal JDK 17's"
    else
        failed "$name: counts differ from JDK 17's (- jdk17, + ours):"
        diff -u "$tmp/ref.counts" "$tmp/ours.counts" | sed 's/^/  /'
    fi
done

# ---- 4. compressed copies and standard input -------------------------------
# same_output NAME RAW CMD...: CMD's stdout and status equal those of
# jfrtool on RAW with the same subcommand arguments.
same_output() {
    label=$1 expected=$2
    shift 2
    if ! "$@" > "$tmp/got" 2> "$tmp/err"; then
        failed "$label: failed: $(cat "$tmp/err")"
    elif cmp -s "$expected" "$tmp/got"; then
        echo "ok: $label"
    else
        failed "$label: output differs from the raw file's"
        diff -u "$expected" "$tmp/got" | head -n 20 | sed 's/^/  /'
    fi
}
for raw in cpu-jdk25.jfr cpu-jdk17.jfr; do
    "$JFRTOOL" summary "$rec/$raw" > "$tmp/$raw.summary" || failed "summary $raw"
    "$JFRTOOL" print --json "$rec/$raw" > "$tmp/$raw.json" || failed "print --json $raw"
done
# A build without zlib or liblz4 cannot read those copies (its --version
# says "gzip no" / "lz4 no"); say so instead of failing.
features=$("$JFRTOOL" --version)
readable() { # FILE
    case $1 in
        *.lz4) case $features in *"lz4 yes"*) return 0 ;; esac ;;
        *.gz | *-gzip.jfr) case $features in *"gzip yes"*) return 0 ;; esac ;;
        *) return 0 ;;
    esac
    echo "skipped: $1: this jfrtool is built without its decompressor ($features)"
    return 1
}
for pair in cpu-jdk25.jfr.gz:cpu-jdk25.jfr cpu-jdk25.jfr.lz4:cpu-jdk25.jfr cpu-jdk17-gzip.jfr:cpu-jdk17.jfr; do
    copy=${pair%%:*} raw=${pair#*:}
    readable "$copy" || continue
    same_output "$copy: summary" "$tmp/$raw.summary" "$JFRTOOL" summary "$rec/$copy"
    same_output "$copy: print --json" "$tmp/$raw.json" "$JFRTOOL" print --json "$rec/$copy"
done
for input in cpu-jdk25.jfr cpu-jdk25.jfr.gz cpu-jdk25.jfr.lz4; do
    readable "$input" || continue
    same_output "summary - < $input" "$tmp/cpu-jdk25.jfr.summary" \
        sh -c '"$1" summary - < "$2"' sh "$JFRTOOL" "$rec/$input"
    same_output "cat $input | summary -" "$tmp/cpu-jdk25.jfr.summary" \
        sh -c 'cat "$2" | "$1" summary -' sh "$JFRTOOL" "$rec/$input"
done
if readable cpu-jdk17-gzip.jfr; then
    same_output "cat cpu-jdk17-gzip.jfr | print --json -" "$tmp/cpu-jdk17.jfr.json" \
        sh -c 'cat "$2" | "$1" print --json -' sh "$JFRTOOL" "$rec/cpu-jdk17-gzip.jfr"
fi
exit $fail
