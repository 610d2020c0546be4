#!/bin/sh
# jfrtool scrub with no filter keeps everything: on every test recording
# (and, with ../shared, every public corpus file jfrtool reads), our own
# `print --json` and summary counts of the output equal the input's; the
# output is read with --strict (no warning: complete chunks, whole pools);
# its pools hold exactly the entries its events reach, each once
# (tests/writer/poolcheck). Damaged events that scrub leaves out, saying
# so, are not counted. With JFR_CORPUS_JDK=1 and JDK 25 found
# ($JAVA25_HOME or /usr/lib/jvm/*25*), the corpus files JDK 25 reads
# (MANIFEST.tsv) are also checked with `jfr print` and `jfr summary` (but
# its metadata and checkpoint rows); that takes minutes of JVM start-ups,
# so make check skips it, saying so. The JDK outputs of the test
# recordings are checked by vs-jdk.sh.
#
# Environment (set by make check): JFRTOOL, POOLCHECK, JFR_TESTDATA,
# JFR_SHARED (optional).
set -u
: "${JFRTOOL:?}" "${POOLCHECK:?}" "${JFR_TESTDATA:?}"
. "$(dirname "$0")/writerlib.sh"
make_scratch
n=0

# check FILE [JDK]: scrub FILE and compare (JDK: also with jfr print/summary)
check() {
    f=$1
    name=$(basename "$f")
    n=$((n + 1))
    rm -f "$tmp/out.jfr"
    if ! "$JFRTOOL" scrub "$f" "$tmp/out.jfr" 2>"$tmp/err"; then
        fail "$name: scrub failed: $(head -3 "$tmp/err")"
        return
    fi
    cp "$tmp/err" "$tmp/scrub.err"
    "$JFRTOOL" print --json "$f" >"$tmp/in.json" 2>/dev/null
    if ! "$JFRTOOL" --strict print --json "$tmp/out.jfr" >"$tmp/out.json" 2>"$tmp/err" ||
        [ -s "$tmp/err" ]; then
        fail "$name: the output is not read without a warning: $(head -3 "$tmp/err")"
    fi
    # the damaged events scrub leaves out (and says so) are not counted
    counts_less_left_out "$f" "$tmp/scrub.err" >"$tmp/in.c"
    "$JFRTOOL" summary "$tmp/out.jfr" | summary_counts >"$tmp/out.c"
    cmp -s "$tmp/in.c" "$tmp/out.c" || fail "$name: summary counts differ"
    if grep -q "left out" "$tmp/scrub.err"; then
        : # print --json of the input shows them (as far as they can be read)
    else
        cmp -s "$tmp/in.json" "$tmp/out.json" || fail "$name: print --json differs"
    fi
    "$POOLCHECK" entries "$tmp/out.jfr" | LC_ALL=C sort >"$tmp/e" || fail "$name: poolcheck"
    "$POOLCHECK" reachable "$tmp/out.jfr" | LC_ALL=C sort >"$tmp/r"
    cmp -s "$tmp/e" "$tmp/r" ||
        fail "$name: pool entries are not exactly those the events reach ($(wc -l <"$tmp/e") entries, $(wc -l <"$tmp/r") reached)"
    [ -z "${2:-}" ] && return
    jdk_compare "$f" "$2" "$name"
}

# The JDK reads plain files only: a gzip input is decompressed first. When
# the JDK cannot print the input (empty pools, damaged checkpoints), it must
# print the output, or fail on it as on the input (jmc-pid1.jfr: the same
# ClassCastException); records scrub left out (it says so) are the only rows
# of jfr summary allowed to differ, with the metadata and checkpoint rows.
jdk_compare() {
    f=$1
    case $(od -An -tx1 -N2 "$f" | tr -d ' ') in
        1f8b) gzip -dc "$f" >"$tmp/in.jfr" && f=$tmp/in.jfr ;;
    esac
    if "$2/bin/jfr" print "$f" >"$tmp/in.txt" 2>&1; then
        "$2/bin/jfr" print "$tmp/out.jfr" >"$tmp/out.txt" 2>&1
        case " $JDK_PRINT_DIFFERS " in
            *" $3 "*) ;;
            *) cmp -s "$tmp/in.txt" "$tmp/out.txt" || fail "$3: jfr print differs (JDK 25)" ;;
        esac
    elif ! "$2/bin/jfr" print "$tmp/out.jfr" >"$tmp/out.txt" 2>&1 &&
        [ "$(head -1 "$tmp/in.txt")" != "$(head -1 "$tmp/out.txt")" ]; then
        fail "$3: JDK 25 cannot print the output: $(head -2 "$tmp/out.txt")"
    fi
    rows='jdk[.]Metadata|jdk[.]Checkpoint|missing event metadata'
    "$2/bin/jfr" summary "$f" | grep -Ev "$rows" | sed 1,2d >"$tmp/in.txt"
    if ! "$2/bin/jfr" summary "$tmp/out.jfr" >"$tmp/out.raw" 2>&1; then
        fail "$3: JDK 25 cannot read the output: $(head -2 "$tmp/out.raw")"
    elif ! grep -q "left out" "$tmp/scrub.err"; then
        grep -Ev "$rows" "$tmp/out.raw" | sed 1,2d | cmp -s "$tmp/in.txt" - ||
            fail "$3: jfr summary differs (JDK 25)"
    fi
}

# Where JDK 25's print of the input is not that of the same recording with
# only the pool entries its events use: it resolves a later chunk's thread
# from an earlier chunk's entry of the same key (jfr-format.md §14, gotchas
# 1-2), and scrub, like the JDK's own, drops that entry from the earlier
# chunk, whose events do not use it.
JDK_PRINT_DIFFERS="jmc-wls-medrec-jdk9.jfr"

for f in "$JFR_TESTDATA"/recordings/*.jfr "$JFR_TESTDATA"/recordings/*.jfr.gz \
    "$JFR_TESTDATA"/recordings/*.jfr.lz4 "$JFR_TESTDATA"/kinds/*.jfr \
    "$JFR_TESTDATA"/report/*.jfr "$JFR_TESTDATA"/writer/*.jfr; do
    [ -f "$f" ] && check "$f"
done
tests=$n

corpus=${JFR_SHARED:-}/corpus/public
if [ -z "${JFR_SHARED:-}" ] || [ ! -f "$corpus/MANIFEST.tsv" ]; then
    echo "SKIP: no corpus at ${JFR_SHARED:-../shared}/corpus/public"
    finish "round-trip ($tests test recordings)"
fi
jdk=""
if [ -z "${JFR_CORPUS_JDK:-}" ]; then
    echo "SKIP: corpus files checked with jfrtool only (JFR_CORPUS_JDK=1 adds JDK 25)"
elif ! jdk=$(find_jdk25); then
    echo "SKIP: no JDK 25: corpus files checked with jfrtool only"
fi
# every file jfrtool reads (JFR 0.9 ones it does not); with the JDK, those
# its jfr summary reads, since it prints them too
tail -n +2 "$corpus/MANIFEST.tsv" | cut -f1,8 >"$tmp/manifest"
while IFS='	' read -r file ok; do
    "$JFRTOOL" summary "$corpus/$file" >/dev/null 2>&1 || continue
    case $ok in
        yes*) use=$jdk ;;
        *) use="" ;; # "no (jdk17, jdk25)"
    esac
    check "$corpus/$file" "$use"
done <"$tmp/manifest"
finish "round-trip ($tests test recordings, $((n - tests)) corpus files${jdk:+, with JDK 25})"
