#!/bin/sh
# Regenerate testdata/jdk/corpus/NAME.view-VIEW.txt, JDK 25's `jfr view`
# of the corpus files listed in testdata/jdk/corpus/views.tsv.
# Usage: tests/views/regen-corpus-views.sh [-c CORPUSDIR]   (JDK 25: $JAVA25_HOME,
# else /usr/lib/jvm/temurin-25-jdk-amd64)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
corpus=$top/../shared/corpus/public
[ "${1:-}" = -c ] && corpus=$2
jfr=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/jfr
out=$top/testdata/jdk/corpus
export TZ=UTC LC_ALL=C
grep -v '^#' "$out/views.tsv" | while IFS="$(printf '\t')" read -r file view _; do
    "$jfr" view "$view" "$corpus/$file" > "$out/${file%.jfr}.view-$view.txt"
done
