#!/bin/sh
# jfrtool rules and report --rules (doc/report.md "Rules", doc/jfrtool.1):
# - exit status: 0 without a warning, 3 with one, 1 for a usage error (a
#   rules file or a rule's SQL that is wrong included), 2 for an input
#   that cannot be read;
# - the built-in deoptimization-storm rule fires on its recording and on
#   no other test recording;
# - doc/example.rules fires on the seeded recording and not on the quiet
#   one, in `rules` and on the report's page (every link on the page);
# - a rule that is wrong is named with its file and line, and nothing is
#   printed or written;
# - --list, --rules -, a rule left out for a table the recording lacks;
# - the jfrsql extension in the sqlite3 shell: jfr_load_rules, jfr_check.
# The numbers the rules print are checked by check_rules.py.
#
# Environment (set by `make check`): JFRTOOL, JFR_TESTDATA, JFR_TOP_SRCDIR,
# JFRSQL_EXT (the extension without .so; empty when not built).
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TESTDATA:?set JFR_TESTDATA to testdata/}"
: "${JFR_TOP_SRCDIR:?set JFR_TOP_SRCDIR to the source tree}"
"$JFRTOOL" rules --help >/dev/null 2>&1 ||
    { echo "SKIP: jfrtool has no rules command (built without SQLite)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-rules.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
seeded=$JFR_TESTDATA/report/seeded-jdk25.jfr
quiet=$JFR_TESTDATA/report/quiet-jdk25.jfr
deopt=$JFR_TESTDATA/rules/deopt-jdk25.jfr
example=$JFR_TOP_SRCDIR/doc/example.rules

bad() { echo "FAIL: $*"; fail=1; }

# run EXPECTED-STATUS ARGS...: stdout in $tmp/out, stderr in $tmp/err
run() {
    want=$1
    shift
    "$JFRTOOL" "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    [ "$got" = "$want" ] || bad "jfrtool $*: exit status $got, not $want ($(head -c 300 "$tmp/err"))"
}

has() { grep -qF -- "$2" "$tmp/$1" || bad "$3: '$2' not in $1: $(head -c 400 "$tmp/$1")"; }
lacks() { ! grep -qF -- "$2" "$tmp/$1" || bad "$3: '$2' in $1"; }

# ---- exit status ------------------------------------------------------------------
run 0 rules "$quiet"
has out "0 warnings, 0 notes from 10 rules" "quiet"
run 3 rules "$seeded"
has out "WARNING lock-contention: Lock contention" "seeded"
has out "WARNING leak-1: Leak candidate: wl.SeededWorkload.REGISTRY" "seeded"
run 1 rules
run 1 rules --no-such-option "$quiet"
run 1 rules --list "$quiet"
run 2 rules "$tmp/no-such.jfr"
run 2 rules "$JFR_TESTDATA/corrupt/bad-magic.jfr"
run 1 rules --rules "$tmp/no-such.rules" "$quiet"
has err "no-such.rules" "a missing rules file is named"
run 1 rules --rules - "$quiet" - </dev/null
has err "standard input cannot be both" "--rules - with a recording from -"
# a damaged recording: its findings, and the damage as a warning
head -c 250000 "$JFR_TESTDATA/recordings/cpu-jdk25.jfr" >"$tmp/cut.jfr"
run 3 rules "$tmp/cut.jfr"
has out "WARNING damaged: Recording damaged" "cut recording"

# ---- the new built-in rule ----------------------------------------------------------
run 3 rules "$deopt"
has out "WARNING deoptimization-storm: Deoptimization storm" "deopt recording"
has out "418 in all" "deopt recording"
for f in "$JFR_TESTDATA"/recordings/*.jfr* "$JFR_TESTDATA"/report/*.jfr \
    "$JFR_TESTDATA"/kinds/*.jfr; do
    case $f in *.jfc) continue ;; esac
    "$JFRTOOL" rules "$f" >"$tmp/out" 2>/dev/null
    lacks out "WARNING deoptimization-storm" "$(basename "$f")"
done

# ---- doc/example.rules ----------------------------------------------------------------
run 3 rules --rules "$example" "$seeded"
has out "WARNING monitor-hotspot-1: Threads wait for java.lang.Object monitors (" "example on seeded"
has out "INFO allocation-100mib: Allocation above 100 MiB/s (" "example on seeded"
has out "from 15 rules" "example on seeded"
run 0 rules --rules "$example" "$quiet"
has out "0 warnings, 0 notes from 15 rules" "example on quiet"
run 3 rules --rules "$example" "$deopt"
has out "INFO deopt-loop-1: Deoptimized again and again: wl.DeoptWorkload\$Hot.applyAsInt(Object)" \
    "example on deopt"
# the same rules from standard input
"$JFRTOOL" rules --rules - "$seeded" <"$example" >"$tmp/out" 2>"$tmp/err"
has out "monitor-hotspot-1" "--rules -"
has out "(standard input):" "--rules - names its source"

# report --rules: the page has them, each finding links to a part of the page
run 0 report --rules "$example" -o "$tmp/page.html" "$seeded"
python3 - "$tmp/page.html" <<'EOF' || fail=1
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
line = next(l for l in page.splitlines() if l.startswith("const REPORT = "))
data = json.loads(line[len("const REPORT = "):].rstrip().rstrip(";"))
ids = [f["id"] for f in data["findings"]]
want = ["lock-contention", "alloc-rate", "leak-1", "monitor-hotspot-1", "allocation-100mib"]
if ids != want:
    print("FAIL: report --rules: findings %s, not %s" % (ids, want))
    sys.exit(1)
anchors = set(re.findall(r'id="([^"]+)"', page)) | {"profile-" + p["kind"] for p in data["profiles"]}
anchors |= {"tl-" + t for t in ("cpu", "heap", "gc", "pause", "alloc", "threads", "safepoints", "cpulost")}
for f in data["findings"]:
    if f["link"][1:] not in anchors:
        print("FAIL: report --rules: %s links to %s, not on the page" % (f["id"], f["link"]))
        sys.exit(1)
EOF

# ---- a rule that is wrong is named with its file and line --------------------------
# wrong FILE-BODY EXPECTED-MESSAGE...: rules and report exit 1, say each
# expected text on standard error, print nothing, write no page
wrong() {
    printf '%s\n' "$1" >"$tmp/bad.rules"
    shift
    run 1 rules --rules "$tmp/bad.rules" "$quiet"
    for m in "$@"; do has err "$m" "bad rule"; done
    [ -s "$tmp/out" ] && bad "a wrong rule printed: $(head -c 200 "$tmp/out")"
    rm -f "$tmp/bad.html"
    run 1 report --rules "$tmp/bad.rules" -o "$tmp/bad.html" "$quiet"
    for m in "$@"; do has err "$m" "bad rule (report)"; done
    [ -f "$tmp/bad.html" ] && bad "report wrote a page with a wrong rule"
}
head='# a comment

[typo]
title = T
evidence = E'
wrong "$head
query = SELECT count(*) AS n, total(durationn) AS d FROM \"jdk.JavaMonitorEnter\"
condition = n > 0" "bad.rules:3: rule \"typo\": query: no such column: durationn" "duration"
wrong "$head
query = SELECT count(*) AS n FROM \"jdk.NoSuchEvent\"" \
    "bad.rules:3: rule \"typo\": query: no such table: jdk.NoSuchEvent"
wrong "$head
query = SELECT count(*) AS n FROM \"jdk.JavaMonitorEnter\"
condition = m > 0" "bad.rules:3: rule \"typo\": condition: unknown column \"m\" (columns: n)"
wrong "[typo]
title = T {x}
evidence = E
query = SELECT 1 AS n" "bad.rules:1: rule \"typo\": title: unknown column \"x\" (columns: n)"
wrong "$head
serverity = info
query = SELECT 1 AS n" "bad.rules:6: rule \"typo\": unknown key \"serverity\""
wrong "$head
fact = threads
condition = shares > 1" "bad.rules:3: rule \"typo\": condition: unknown column \"shares\""
wrong "$head
query = SELECT 1
condition = n >" "bad.rules:3: rule \"typo\": condition: a number expected"
wrong "$head
query = SELECT 1
fact = threads" "bad.rules:3: rule \"typo\": either \"query\" (SQL) or \"fact\""
wrong "[gc-pauses]
title = T
evidence = E
query = SELECT 1" "bad.rules:1: rule \"gc-pauses\": a built-in rule has this id"
wrong "title = T" "bad.rules:1: a [section] naming the rule comes before its keys"
wrong "$head
query = SELECT 1 AS n; SELECT 2" "bad.rules:3: rule \"typo\": query: one SELECT statement expected"

# a table the recording lacks: with missing = skip the rule is left out
printf '%s\n' '[old-jdk]' 'title = T' 'evidence = E' \
    'query = SELECT count(*) AS n FROM "jdk.NoSuchEvent"' 'missing = skip' >"$tmp/skip.rules"
run 0 rules --rules "$tmp/skip.rules" "$quiet"
has out "left out: old-jdk ($tmp/skip.rules:1): no such table: jdk.NoSuchEvent" "missing = skip"
run 0 rules --json --rules "$tmp/skip.rules" "$quiet"
has out '"why": "no such table: jdk.NoSuchEvent"' "missing = skip, JSON"

# ---- --list -------------------------------------------------------------------------
run 0 rules --list --rules "$example"
for id in gc-pauses lock-contention deoptimization-storm alloc-rate exceptions \
    safepoint-bias cpu-lost hot-thread leak regex-cpu allocation-100mib; do
    has out "$id (" "--list"
done
has out "allocation-100mib (info, $example:60)" "--list names a user rule's source"
run 0 rules --list --json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert len(r) == 10 and r[0]["id"] == "gc-pauses" and r[3]["fact"] == "allocation", r' "$tmp/out" ||
    bad "rules --list --json"

# every built-in rule has its row in doc/report.md's table of findings
"$JFRTOOL" rules --list --json |
    python3 -c 'import json,sys; [print(r["id"]) for r in json.load(sys.stdin)]' | sort -u |
    while read -r id; do
        grep -q "^| .* (\`$id\`) | " "$JFR_TOP_SRCDIR/doc/report.md" ||
            echo "FAIL: rule $id has no row in doc/report.md's table of findings"
    done >"$tmp/doc"
[ -s "$tmp/doc" ] && { cat "$tmp/doc"; fail=1; }

# ---- the extension in the sqlite3 shell ----------------------------------------------
ext=${JFRSQL_EXT:-}
if [ -z "$ext" ] || [ ! -f "$ext.so" ] || ! command -v sqlite3 >/dev/null 2>&1 ||
    nm -D --undefined-only "$ext.so" 2>/dev/null | grep -qE ' (__asan|__ubsan|__sanitizer)_'; then
    echo "(the sqlite3 shell part is skipped: no extension, no sqlite3, or a sanitizer build)"
else
    sqlite3 -batch -separator '|' :memory: ".load $ext" "SELECT jfr_attach('$seeded');" \
        "SELECT jfr_load_rules(readfile('$example'), 'example.rules');" \
        "SELECT jfr_check();" "SELECT rule, severity, title FROM jfr_findings;" \
        >"$tmp/out" 2>"$tmp/err" || bad "sqlite3: $(cat "$tmp/err")"
    "$JFRTOOL" rules --json --rules "$example" "$seeded" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print("%d" % d["warnings"]); [print("%s|%s|%s" % (f["rule"], f["severity"], f["title"])) for f in d["findings"]]' \
            >"$tmp/want"
    # jfr_attach's count of tables, jfr_load_rules' 5, then jfr_check's warnings and the rows
    sed 1,2d "$tmp/out" >"$tmp/got"
    cmp -s "$tmp/got" "$tmp/want" ||
        { bad "jfr_check in the sqlite3 shell differs from jfrtool rules:"; diff "$tmp/got" "$tmp/want"; }
    sed -n 2p "$tmp/out" | grep -qx 5 || bad "jfr_load_rules did not say 5 rules: $(sed -n 2p "$tmp/out")"
    sqlite3 -batch :memory: ".load $ext" "SELECT jfr_load_rules('[x]');" >"$tmp/out" 2>"$tmp/err"
    grep -qF '(rules):1: rule "x": "title" and "evidence" are needed' "$tmp/err" ||
        bad "jfr_load_rules' error: $(cat "$tmp/err")"
fi

[ "$fail" = 0 ] && echo "PASS: jfrtool rules"
exit "$fail"
