#!/bin/sh
# Remake what JDK 25's jfr says about the writer's output, in
# testdata/writer/jdk (maintainers only; make check needs no JDK):
#
#   scrub.tsv    one line per case of testdata/writer/scrub-cases.tsv:
#                NAME, the sha256 of jfrtool scrub's output, and the sha256
#                of `jfr print --stack-depth 64` of it, which this script
#                has checked to equal the reference: for a round trip the
#                input's print (testdata/jdk/R.print.txt.gz), else the print
#                of JDK 25's own `jfr scrub` output with the same options,
#                kept as NAME.jdk-scrub.print.txt.gz
#   NAME.summary.txt  `jfr summary` of the round trips' outputs
#   repair.tsv.gz  one line per damaged file of tests/writer/variants.py:
#                NAME, jfrtool repair's exit status, the sha256 of its
#                output and `jfr summary`'s counts of it (TYPE=COUNT,...;
#                "-" when repair wrote nothing); jfr summary must read
#                every output, and the text jfr print every output but
#                those of testdata/corrupt (see below)
#   redact.tsv   the sha256 of `jfrtool scrub --redact` of
#                testdata/writer/secret-jdk25.jfr, then the lines of
#                `jfr print` of it that hold [redacted] (the secret must be
#                in none of its lines)
#
# Usage: tests/writer/regen-jdk-outputs.sh [BUILDDIR]   (default: the
# checkout, built in place). JDK 25: $JAVA25_HOME or /usr/lib/jvm/*25*.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-$top}
. "$here/writerlib.sh"
jdk=$(find_jdk25) || { echo "no JDK 25 (set JAVA25_HOME)" >&2; exit 1; }
jfr="$jdk/bin/jfr"
tool=$build/jfrtool/jfrtool
rec=$top/testdata/recordings
out=$top/testdata/writer/jdk
export TZ=UTC LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-writer-regen.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
rm -f "$out"/*

counts() { # jfr summary on stdin -> TYPE=COUNT,... of event types with events
    awk '/^=+$/ { t = 1; next }
         t && NF == 3 && $2 > 0 && $1 != "jdk.Metadata" && $1 != "jdk.Checkpoint" {
             printf "%s%s=%s", sep, $1, $2; sep = "," }
         END { print "" }'
}

# ---- scrub cases -----------------------------------------------------------
grep -v '^#' "$top/testdata/writer/scrub-cases.tsv" | while IFS='	' read -r name file opts; do
    # shellcheck disable=SC2086 # the options are words
    "$tool" scrub $opts "$rec/$file" "$tmp/ours.jfr" 2>/dev/null
    "$jfr" print --stack-depth 64 "$tmp/ours.jfr" >"$tmp/ours.txt"
    if [ -z "$opts" ]; then
        gzip -dc "$rec/../jdk/$file.print.txt.gz" >"$tmp/ref.txt"
        "$jfr" summary "$tmp/ours.jfr" | sed "s|$tmp/ours.jfr|OUT|" >"$out/$name.summary.txt"
    else
        # shellcheck disable=SC2086
        "$jfr" scrub $opts "$rec/$file" "$tmp/jdk.jfr" >/dev/null
        "$jfr" print --stack-depth 64 "$tmp/jdk.jfr" >"$tmp/ref.txt"
        gzip -9 -n -c "$tmp/ref.txt" >"$out/$name.jdk-scrub.print.txt.gz"
    fi
    if ! cmp -s "$tmp/ours.txt" "$tmp/ref.txt"; then
        echo "$name: jfr print of our output differs from the reference:" >&2
        diff "$tmp/ref.txt" "$tmp/ours.txt" | head -20 >&2
        exit 1
    fi
    printf '%s\t%s\t%s\n' "$name" "$(sha_of "$tmp/ours.jfr")" "$(sha_of "$tmp/ours.txt")" \
        >>"$out/scrub.tsv"
done

# ---- repair -----------------------------------------------------------------
python3 "$here/variants.py" "$top/testdata" "$tmp/var" >"$tmp/names"
while read -r name; do
    rm -f "$tmp/rep.jfr"
    status=0
    "$tool" repair "$tmp/var/$name.jfr" "$tmp/rep.jfr" 2>/dev/null || status=$?
    if [ -f "$tmp/rep.jfr" ]; then
        if ! "$jfr" summary "$tmp/rep.jfr" >"$tmp/sum.txt" 2>&1; then
            echo "$name: jfr summary cannot read the repaired file:" >&2
            head -5 "$tmp/sum.txt" >&2
            exit 1
        fi
        # testdata/corrupt is made from jfrmake's mini recording, whose
        # frames refer to no method: the text print stops on it whole too
        case $name in corrupt-*) printable=false ;; *) printable=true ;; esac
        if $printable && ! "$jfr" print "$tmp/rep.jfr" >/dev/null 2>"$tmp/print.err"; then
            echo "$name: jfr print cannot read the repaired file:" >&2
            head -3 "$tmp/print.err" >&2
            exit 1
        fi
        printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$(sha_of "$tmp/rep.jfr")" \
            "$(counts <"$tmp/sum.txt")" >>"$out/repair.tsv"
    else
        printf '%s\t%s\t-\t-\n' "$name" "$status" >>"$out/repair.tsv"
    fi
done <"$tmp/names"
gzip -9 -n "$out/repair.tsv"

# ---- redaction ----------------------------------------------------------------
"$tool" scrub --redact "$top/testdata/writer/secret-jdk25.jfr" "$tmp/red.jfr" 2>/dev/null
"$jfr" print "$tmp/red.jfr" >"$tmp/red.txt"
if grep -q "$SECRET" "$tmp/red.txt"; then
    echo "the secret is in jfr print of the redacted recording" >&2
    exit 1
fi
{
    sha_of "$tmp/red.jfr"
    grep -F '[redacted]' "$tmp/red.txt"
} >"$out/redact.tsv"
echo "wrote $(ls "$out" | wc -l) files to $out"
