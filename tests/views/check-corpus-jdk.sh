#!/bin/sh
# The views of corpus files that testdata/jdk/corpus/views.tsv lists must
# show what JDK 25's `jfr view` showed (testdata/jdk/corpus/NAME.view-VIEW.txt,
# made by tests/views/regen-corpus-views.sh): byte for byte, or, where the
# JDK orders tied rows by its HashMap, the same lines. These are the cases
# where a chunk's events are not in time order in the file (the JDK's views
# read them by end time: doc/sql.md) and thread-start's grouping by thread.
# Skipped when the corpus (../shared/corpus/public) is absent.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JFR_SHARED.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to the testdata directory}"
corpus=${JFR_SHARED:-}/corpus/public
[ -d "$corpus" ] || { echo "SKIP: corpus absent ($corpus)"; exit 77; }
export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-corpus-views.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

list=$JFR_TESTDATA/jdk/corpus/views.tsv
fail=0 n=0
tab=$(printf '\t')
while IFS="$tab" read -r file view compare _; do
    case $file in '#'*|'') continue ;; esac
    [ "$compare" = sql ] && continue # tests/sql/check_sql.py reads it
    ref=$JFR_TESTDATA/jdk/corpus/${file%.jfr}.view-$view.txt
    "$JFRTOOL" view "$view" "$corpus/$file" > "$tmp/ours" 2>&1
    if [ "$compare" = rows ]; then
        sort "$ref" > "$tmp/a"
        sort "$tmp/ours" > "$tmp/b"
    else
        cp "$ref" "$tmp/a"
        cp "$tmp/ours" "$tmp/b"
    fi
    n=$((n + 1))
    if cmp -s "$tmp/a" "$tmp/b"; then
        echo "ok: $file $view ($compare)"
    else
        echo "FAIL: $file $view differs from jfr view ($compare)"
        diff "$tmp/a" "$tmp/b" | head -20
        fail=1
    fi
done < "$list"
[ "$n" -gt 0 ] || { echo "FAIL: nothing compared"; exit 1; }
exit $fail
