#!/bin/sh
# view all-events against JDK 25's `jfr view all-events` (outputs committed
# as testdata/jdk/R.view-all-events.txt; regenerate with
#   TZ=UTC $JDK25/bin/jfr view all-events testdata/recordings/R >testdata/jdk/R.view-all-events.txt).
# Every event type of the first chunk's metadata, in its order, as `view
# EVENT-TYPE` shows it, with a blank line between: the same types in the
# same order as the JDK (the test fails otherwise), and the number of types
# whose table is byte-for-byte the JDK's is printed and must not fall below
# what it was when this test was written (types with many struct columns
# are laid out differently: doc/views.md).
set -u
: "${JFRTOOL:?}" "${JFR_TESTDATA:?}"
# the JDK's outputs were written under a UTF-8 locale (non-ASCII text as is)
export TZ=UTC LC_ALL=C.UTF-8
"$JFRTOOL" sql --help >/dev/null 2>&1 || { echo "SKIP: jfrtool built without SQLite"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-all-events.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
for pair in cpu-jdk25.jfr:186 io-jdk25.jfr:187; do
    rec=${pair%%:*} floor=${pair#*:}
    want=$JFR_TESTDATA/jdk/$rec.view-all-events.txt
    "$JFRTOOL" view all-events "$JFR_TESTDATA/recordings/$rec" >"$tmp/got" 2>"$tmp/err" || {
        echo "FAIL: $rec: exit $?: $(cat "$tmp/err")"
        fail=1
        continue
    }
    # one section per type: a title line or "No events found for 'LABEL'."
    # (titles are centred over their table; header rows start at column 0)
    titles() { awk 'prev == "" && (/^  +[^ ]/ || /^No events found/) { print } { prev = $0 }' "$1" |
        sed 's/^ *//'; }
    titles "$want" >"$tmp/want.titles"
    titles "$tmp/got" >"$tmp/got.titles"
    if ! cmp -s "$tmp/want.titles" "$tmp/got.titles"; then
        echo "FAIL: $rec: the types or their order differ from the JDK's"
        diff "$tmp/want.titles" "$tmp/got.titles" | head -5
        fail=1
    fi
    equal=$(python3 - "$want" "$tmp/got" <<'PY'
import re, sys
a, b = (re.split(r"\n\n(?=\n)", open(p, encoding="utf-8").read()) for p in sys.argv[1:3])
print(sum(1 for x, y in zip(a, b) if x == y), len(a))
PY
)
    set -- $equal
    echo "$rec: $1 of $2 event types equal to jfr view all-events"
    [ "$1" -ge "$floor" ] || { echo "FAIL: $rec: fewer than $floor equal"; fail=1; }
done
# Under an ASCII locale Java writes each non-ASCII UTF-16 unit as '?'. The
# workload's method σύνοψη𝛼 is σύνοψη and two U+FFFD in the JDK's string
# (jfr-format.md §14.25), so its lines there carry eight '?', as many as
# the column counts: the JDK's UTF-8 lines turned to ASCII that way must be
# jfrtool's under LC_ALL=C (they were one '?' short, and the columns after
# them one place to the left).
rec=cpu-jdk25.jfr
LC_ALL=C "$JFRTOOL" view all-events "$JFR_TESTDATA/recordings/$rec" >"$tmp/got.ascii" 2>&1
python3 - "$JFR_TESTDATA/jdk/$rec.view-all-events.txt" "$tmp/got.ascii" <<'PY' || fail=1
import sys
want = [''.join(c if ord(c) < 128 else '?' for c in line)
        for line in open(sys.argv[1], encoding="utf-8").read().splitlines()
        if "\ufffd\ufffd" in line]
got = set(open(sys.argv[2], encoding="ascii").read().splitlines())
missing = [line for line in want if line not in got]
if not want or missing:
    print("FAIL: LC_ALL=C: %d of %d lines with a character beyond the BMP differ%s"
          % (len(missing), len(want), (": " + missing[0].strip()) if missing else ""))
    sys.exit(1)
print("LC_ALL=C: %d lines with a character beyond the BMP as the JDK writes them" % len(want))
PY
exit $fail
