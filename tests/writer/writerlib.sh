# writerlib.sh - shared by the writer's test scripts (tests/writer): the
# secret of the redaction recording, finding JDK 25, and small checks.
# Sourced by sh scripts; needs nothing but POSIX sh.

# The value made secret in testdata/writer/secret-jdk25.jfr.
SECRET='hunter2-Sekr3t-4711'

# JDK 25's home: $JAVA25_HOME, else /usr/lib/jvm/*25*; fails when none.
find_jdk25() {
    for d in ${JAVA25_HOME:-} /usr/lib/jvm/*25*; do
        if [ -n "$d" ] && [ -x "$d/bin/jfr" ]; then
            echo "$d"
            return 0
        fi
    done
    return 1
}

# sha256 of a file, the hex digest alone.
sha_of() {
    sha256sum "$1" | cut -d' ' -f1
}

# Failures are counted; `finish NAME` ends the script with the result.
failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
finish() {
    echo "$1: $failures failures"
    [ "$failures" -eq 0 ]
    exit $?
}

# "TYPE COUNT" lines of the event types with events, from jfr summary or
# jfrtool summary output on stdin (the JDK layout), sorted.
summary_counts() {
    awk '/^=+$/ { t = 1; next }
         t && NF == 3 && $2 > 0 && $1 !~ /[.](Metadata|Checkpoint)$/ { print $1, $2 }' |
        LC_ALL=C sort
}

# summary_counts of FILE ($1, jfrtool summary) less the damaged events that
# jfrtool's messages ($2: its standard error) say were left out. Uses $tmp.
counts_less_left_out() {
    "$JFRTOOL" summary "$1" 2>/dev/null | summary_counts >"$tmp/in-counts"
    sed -n 's/.*: a \([^ ]*\) event of [0-9]* bytes: .*: left out$/\1/p' "$2" |
        LC_ALL=C sort | uniq -c | awk '{ print $2, $1 }' >"$tmp/left-out"
    awk -v lo="$tmp/left-out" 'FILENAME == lo { out[$1] = $2; next }
         { n = $2 - ($1 in out ? out[$1] : 0); if (n > 0) print $1, n }' \
        "$tmp/left-out" "$tmp/in-counts"
}

# A scratch directory, removed at exit.
make_scratch() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-writer.XXXXXX") || exit 99
    trap 'rm -rf "$tmp"' EXIT
}
