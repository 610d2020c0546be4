#!/bin/sh
# Regenerate what tests/cli/filters-vs-jdk.sh compares `jfrtool print
# --events/--categories` with: JDK 25's `jfr print` with the same filters
# (names, short names, globs, comma lists, categories and their acronyms,
# both options together) on the test recordings the JDK reads. Maintainers
# only (needs JDK 25; `make check` reads the committed files):
#   testdata/jdk/filters/R.types.txt   per filter, the events the JDK printed
#                                      by type: "TYPE COUNT" lines, sorted,
#                                      after a "# ARGUMENTS" line
#   testdata/jdk/filters/R.gc.txt.gz   jfr print --events 'jdk.GC*' R, whole
#                                      (cpu-jdk17.jfr and cpu-jdk25.jfr)
# The filters are listed once, in tests/cli/filters.txt.
# Usage: tests/cli/regen-filter-refs.sh   (JAVA25_HOME overrides the JDK)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
rec=$top/testdata/recordings
out=$top/testdata/jdk/filters
jfr=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jfr
[ -x "$jfr" ] || { echo "JDK 25 jfr not found (set JAVA25_HOME)" >&2; exit 1; }
export TZ=UTC LC_ALL=C
mkdir -p "$out"

# Events by type in `jfr print` text: an event starts at a line "NAME {".
by_type() {
    grep -a '^[A-Za-z0-9_.$]* {$' | sed 's/ {$//' | sort | uniq -c | awk '{ print $2, $1 }'
}

for name in cpu-jdk17.jfr cpu-jdk25.jfr io-jdk25.jfr leak-jdk17.jfr leak-jdk25.jfr \
    multi-jdk25.jfr; do
    : > "$out/$name.types.txt"
    grep -v '^#' "$top/tests/cli/filters.txt" | while IFS='|' read -r opt filter opt2 filter2; do
        [ -n "$opt" ] || continue
        echo "# $opt '$filter'${opt2:+ $opt2 '$filter2'}" >> "$out/$name.types.txt"
        if [ -n "$opt2" ]; then
            "$jfr" print "$opt" "$filter" "$opt2" "$filter2" "$rec/$name"
        else
            "$jfr" print "$opt" "$filter" "$rec/$name"
        fi | by_type >> "$out/$name.types.txt"
    done
    echo "wrote filters/$name.types.txt"
done
for name in cpu-jdk17.jfr cpu-jdk25.jfr; do
    "$jfr" print --events 'jdk.GC*' "$rec/$name" | gzip -9 -n > "$out/$name.gc.txt.gz"
    echo "wrote filters/$name.gc.txt.gz"
done
