#!/bin/sh
# Corpus test: `jfrtool summary` on every file of the shared public corpus
# ($JFR_SHARED/corpus/public, described by its MANIFEST.tsv). The corpus is
# not part of the project; without it this test is skipped (exit 77).
#
# For every file (the README and MANIFEST included, as non-recordings):
#   - exit status 0 or 2 within 10 s; never a signal or a hang;
#   - exit 2 comes with exactly one line on standard error naming the file;
#   - JFR 0.9 files (MANIFEST jfr_version 0.9) exit 2 and say "0.9".
# For files the JDK reads (MANIFEST jdk_summary_ok "yes"), against JDK 25's
# `jfr summary` committed in testdata/jdk/corpus/ (regenerate with
# tests/diff/regen-corpus-summaries.sh):
#   - exit 0 with nothing on standard error;
#   - single-producer files: per-type counts equal the JDK's. The JDK lists
#     one row per numeric type id; where two chunks give one name different
#     ids (jmc-jdk15.jfr: two JDK 15 runs, JFR 2.0 and 2.1, joined) it prints
#     the name twice, once with 0, so rows are summed by name first. The
#     whole text must also be identical, except for the files in $not_exact;
#   - files mixing producers ($mixed: async-profiler jfrsync, Datadog ddprof
#     chunks after HotSpot chunks): the JDK's whole-file counts are wrong
#     (it numbers types by id across chunks and drops the ddprof chunk's
#     types, jfr-format.md §14 gotchas 1 and 22), so counts and sizes must
#     equal the sum of the JDK's summaries of each chunk alone.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JFR_SHARED.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
corpus=${JFR_SHARED:-$(dirname "$0")/../../../shared}/corpus/public
if [ ! -f "$corpus/MANIFEST.tsv" ]; then
    echo "SKIP: no corpus at $corpus (the shared public corpus is not part of the project)"
    exit 77
fi
jdk=$JFR_TESTDATA/jdk/corpus

# Keep in step with tests/diff/regen-corpus-summaries.sh.
mixed="grafana-FastSlow_2024_01_16_180855.jfr.gz grafana-event-with-type-zero.jfr.gz
jafar-tck-test.jfr jafar-AZ0slzMAAAC9yoVJD_6NAwAA.jfr"
# Single-producer files whose JDK summary text we do not reproduce exactly:
# jmc-jdk15.jfr, see the duplicate rows above.
not_exact="jmc-jdk15.jfr"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-corpus.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 1' INT TERM
fail=0 files=0 compared=0

failed() {
    echo "FAIL: $*"
    fail=1
}

in_list() { # NAME LIST
    case " $(echo $2) " in *" $1 "*) return 0 ;; esac
    return 1
}

# "TYPE COUNT SIZE" per type name, rows of the same name summed, over the
# tables of all the summaries given.
counts() {
    awk 'FNR == 1 { table = 0 }
         /^=+$/ { table = 1; next }
         table && NF == 3 { c[$1] += $2; s[$1] += $3 }
         END { for (t in c) print t, c[t], s[t] }' "$@" | LC_ALL=C sort
}

# MANIFEST.tsv columns: file bytes sha256 container jfr_version chunks
# producer jdk_summary_ok ...
manifest_field() { # NAME COLUMN
    awk -F '\t' -v n="$1" -v c="$2" '$1 == n { print $c; exit }' "$corpus/MANIFEST.tsv"
}

for f in "$corpus"/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    files=$((files + 1))
    timeout 10 "$JFRTOOL" summary "$f" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    version=$(manifest_field "$name" 5)
    jdk_ok=$(manifest_field "$name" 8)
    case $rc in
        0 | 2) ;;
        124) failed "$name: no answer within 10 s"; continue ;;
        *) failed "$name: exit status $rc (a signal or an unknown status)"; continue ;;
    esac
    if [ "$rc" = 2 ]; then
        lines=$(wc -l < "$tmp/err" | tr -d ' ')
        if [ "$lines" != 1 ] || ! grep -qF "$f" "$tmp/err"; then
            failed "$name: exit 2 needs one line naming the file on stderr, got $lines:"
            sed 's/^/  /' "$tmp/err"
        fi
    fi
    if [ "$version" = 0.9 ]; then
        if [ "$rc" != 2 ] || ! grep -q '0\.9' "$tmp/err"; then
            failed "$name: JFR 0.9 file: expected exit 2 and a message saying 0.9, got $rc: $(cat "$tmp/err")"
        else
            echo "ok: $name: JFR 0.9, exit 2: $(cat "$tmp/err")"
        fi
        continue
    fi
    case $jdk_ok in
        yes*) ;;
        "")
            # Not a corpus recording (README.md, MANIFEST.tsv): unless it
            # starts like a recording (FLR\0, gzip, lz4 frame), exit 2.
            magic=$(od -An -t x1 -N 4 "$f" | tr -d ' \n')
            case $magic in
                464c5200 | 1f8b* | 04224d18) ;;
                *)
                    if [ "$rc" != 2 ]; then
                        failed "$name: not a recording, expected exit 2, got $rc"
                        continue
                    fi
                    ;;
            esac
            echo "ok: $name: not in MANIFEST.tsv, exit $rc: $(head -n 1 "$tmp/err")"
            continue
            ;;
        *) echo "ok: $name: unreadable for the JDK, exit $rc $(head -n 1 "$tmp/err")"; continue ;;
    esac

    # The JDK reads it: so must we, without complaint.
    if [ "$rc" != 0 ] || [ -s "$tmp/err" ]; then
        failed "$name: the JDK reads this file; we exit $rc:"
        sed 's/^/  /' "$tmp/err"
        continue
    fi
    short=$(basename "$(basename "$name" .gz)" .jfr) # see regen-corpus-summaries.sh
    if in_list "$name" "$mixed"; then
        set -- "$jdk/$short".chunk*.summary.txt
        what="the sum of the JDK's per-chunk summaries ($# chunks)"
    else
        set -- "$jdk/$short.summary.txt"
        what="the JDK's"
    fi
    if [ ! -f "$1" ]; then
        echo "WARNING: $name: no JDK summary in $jdk (run tests/diff/regen-corpus-summaries.sh)"
        continue
    fi
    compared=$((compared + 1))
    counts "$@" > "$tmp/ref.counts"
    counts "$tmp/out" > "$tmp/ours.counts"
    if in_list "$name" "$mixed"; then
        : # counts and sizes, below
    else
        # counts only, for single-producer files: sizes are in the exact check
        cut -d' ' -f1,2 "$tmp/ref.counts" > "$tmp/x" && mv "$tmp/x" "$tmp/ref.counts"
        cut -d' ' -f1,2 "$tmp/ours.counts" > "$tmp/x" && mv "$tmp/x" "$tmp/ours.counts"
    fi
    if ! cmp -s "$tmp/ref.counts" "$tmp/ours.counts"; then
        failed "$name: per-type counts differ from $what (- jdk, + ours):"
        diff -u "$tmp/ref.counts" "$tmp/ours.counts" | sed 's/^/  /'
        continue
    fi
    if in_list "$name" "$mixed" || in_list "$name" "$not_exact"; then
        echo "ok: $name: counts equal $what"
    elif cmp -s "$1" "$tmp/out"; then
        echo "ok: $name: summary equals the JDK's byte for byte"
    else
        failed "$name: counts agree but the summary text differs from the JDK's (- jdk, + ours):"
        diff -u "$1" "$tmp/out" | sed 's/^/  /'
    fi
done
echo "$files files, $compared compared with the JDK"
if [ "$compared" -eq 0 ]; then
    failed "no corpus file compared with a JDK summary"
fi
exit $fail
