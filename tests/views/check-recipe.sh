#!/bin/sh
# doc/internals.md's recipe "A new view", followed literally in a copy of
# the tree: one row added to sql/view_list.c (ours, so after the JDK's
# views), `make`, and the view is in `jfrtool view --list`, `jfrtool view
# NAME FILE` prints its table, and `SELECT * FROM "view:NAME"` in jfrtool
# sql gives its rows (and the tree's own jfrtool has none of it). The doc
# paragraph and the JDK outputs of the recipe are not needed to build: a
# throwaway row has neither. The copy keeps the build's objects, so make
# rebuilds only what the new row changes.
#
# Environment (set by `make check`): JFR_TOP_SRCDIR, JFR_TOP_BUILDDIR,
# JFR_TESTDATA, JFRTOOL.
set -u
: "${JFR_TOP_SRCDIR:?}" "${JFR_TOP_BUILDDIR:?}" "${JFR_TESTDATA:?}" "${JFRTOOL:?}"
"$JFRTOOL" sql --help >/dev/null 2>&1 ||
    { echo "SKIP: jfrtool has no views as SQL (built without SQLite)"; exit 77; }
if [ "$(cd "$JFR_TOP_SRCDIR" && pwd -P)" != "$(cd "$JFR_TOP_BUILDDIR" && pwd -P)" ]; then
    echo "SKIP: the build is outside the source tree (make distcheck): the recipe is"
    echo "      followed in a copy of a tree built in place (make check, the CI's passes)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-view-recipe.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
rec=$JFR_TESTDATA/recordings/cpu-jdk25.jfr
export TZ=UTC LC_ALL=C

mkdir "$tmp/tree"
(cd "$JFR_TOP_SRCDIR" && tar cf - --exclude=./.git --exclude=./testdata .) |
    (cd "$tmp/tree" && tar xpf -) || { echo "FAIL: cannot copy the tree"; exit 1; }

# the recipe: one row at the end of the list (ours come after the JDK's) ...
cat >"$tmp/row" <<'EOF'
    {"recipe-check",
     "environment",
     "Recipe Check",
     false,
     "ActiveSetting",
     "SELECT count(*) AS n FROM ActiveSetting",
     0,
     {I("Settings")},
     .ours = true},
EOF
awk -v row="$tmp/row" '
    /jfrsql_views\[\] = \{/ { inside = 1 }
    inside && $0 == "};" { while ((getline l < row) > 0) print l; inside = 0 }
    { print }' "$JFR_TOP_SRCDIR/sql/view_list.c" >"$tmp/tree/sql/view_list.c"
grep -q '"recipe-check"' "$tmp/tree/sql/view_list.c" ||
    { echo "FAIL: the row did not go into sql/view_list.c"; exit 1; }
# ... then make
if ! (cd "$tmp/tree" && make jfrtool/jfrtool) >"$tmp/make.log" 2>&1; then
    echo "FAIL: make after adding the view:"
    tail -30 "$tmp/make.log"
    exit 1
fi
new=$tmp/tree/jfrtool/jfrtool
fail=0
n=$("$JFRTOOL" sql --csv 'SELECT count(*) FROM ActiveSetting' "$rec" | tr -d '\r' | sed -n 2p)
"$new" view --list >"$tmp/list" 2>&1
grep -q '^  recipe-check  *Recipe Check$' "$tmp/list" ||
    { echo "FAIL: view --list does not show the new view:"; tail -3 "$tmp/list"; fail=1; }
"$new" view recipe-check "$rec" >"$tmp/view" 2>&1
grouped=$(echo "$n" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta')
grep -q 'Recipe Check' "$tmp/view" && grep -Eq "^ *$grouped\$" "$tmp/view" ||
    { echo "FAIL: view recipe-check does not show $n settings:"; cat "$tmp/view"; fail=1; }
got=$("$new" sql --csv 'SELECT * FROM "view:recipe-check"' "$rec" | tr -d '\r')
[ "$got" = "$(printf 'Settings\n%s' "$n")" ] ||
    { echo "FAIL: SELECT * FROM \"view:recipe-check\": '$got', want Settings $n"; fail=1; }
"$JFRTOOL" view --list | grep -q recipe-check &&
    { echo "FAIL: the tree's own jfrtool has the throwaway view"; fail=1; }
[ "$fail" = 0 ] && echo "PASS: a view added by doc/internals.md's recipe ($n settings; $(grep -c 'CC\|GEN' "$tmp/make.log") files rebuilt)"
exit "$fail"
