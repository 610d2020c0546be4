#!/bin/sh
# No function over 80 lines in jfrtool/ and libjfr/ (doc/style.md): every
# function body, from its opening brace to its closing one, as
# clang-format lays them out (each alone on a line at the left margin).
# ALLOWED names the few that other work replaces; an entry whose function
# is gone or short again is reported, to be removed.
#
# Environment (set by `make check`): JFR_TOP_SRCDIR.
set -u
: "${JFR_TOP_SRCDIR:?set JFR_TOP_SRCDIR to the source tree}"
src=$JFR_TOP_SRCDIR
export LC_ALL=C
MAX=80

# FILE FUNCTION: why it is still long
ALLOWED='
'

cd "$src" || exit 99
# FILE:LINE FUNCTION LENGTH of every function
lengths() {
    awk 'FNR == 1 { inside = 0; sig = ""; prev = "" }
         !inside && $0 == "{" && prev ~ /\)/ { inside = 1; start = FNR; next }
         inside && $0 == "}" { print FILENAME ":" start, sig, FNR - start + 1; inside = 0; next }
         !inside && $0 ~ /^[A-Za-z_].*\(/ { sig = $0; sub(/\(.*/, "", sig); sub(/.*[ *]/, "", sig) }
         !inside && $0 != "" { prev = $0 }' jfrtool/*.c libjfr/*.c
}
lengths >"${TMPDIR:-/tmp}/jfr-fnlen.$$" || exit 99
trap 'rm -f "${TMPDIR:-/tmp}/jfr-fnlen.$$"' EXIT

fail=0
long=$(awk -v max=$MAX '$3 > max' "${TMPDIR:-/tmp}/jfr-fnlen.$$")
echo "$(wc -l <"${TMPDIR:-/tmp}/jfr-fnlen.$$") functions in jfrtool/ and libjfr/"
while read -r where name n; do
    [ -n "$where" ] || continue
    file=${where%%:*}
    if echo "$ALLOWED" | grep -q "^$file $name:"; then
        echo "allowed: $where $name: $n lines"
    else
        echo "FAIL: $where $name: $n lines (at most $MAX: split it)"
        fail=1
    fi
done <<END
$long
END
echo "$ALLOWED" | while read -r file name why; do
    [ -n "$file" ] || continue
    echo "$long" | grep -q "^$file:[0-9]* ${name%:} " ||
        echo "note: $file ${name%:} is no longer over $MAX lines: remove it from ALLOWED"
done
exit $fail
