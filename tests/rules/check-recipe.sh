#!/bin/sh
# doc/internals.md's recipe "A new rule", followed literally in a copy of
# the tree: one section added to sql/rules.ini, `make`, and the rule is in
# `jfrtool rules --list` and fires in `jfrtool rules FILE` (and in no
# copy of it that did not get the section). The copy keeps the build's
# objects, so make rebuilds only what the new row changes.
#
# Environment (set by `make check`): JFR_TOP_SRCDIR, JFR_TOP_BUILDDIR,
# JFR_TESTDATA, JFRTOOL.
set -u
: "${JFR_TOP_SRCDIR:?}" "${JFR_TOP_BUILDDIR:?}" "${JFR_TESTDATA:?}" "${JFRTOOL:?}"
"$JFRTOOL" rules --help >/dev/null 2>&1 ||
    { echo "SKIP: jfrtool has no rules command (built without SQLite)"; exit 77; }
if [ "$(cd "$JFR_TOP_SRCDIR" && pwd -P)" != "$(cd "$JFR_TOP_BUILDDIR" && pwd -P)" ]; then
    echo "SKIP: the build is outside the source tree (make distcheck): the recipe is"
    echo "      followed in a copy of a tree built in place (make check, the CI's passes)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-recipe.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
quiet=$JFR_TESTDATA/report/quiet-jdk25.jfr

# the copy: sources and the build's objects, with their times, so that
# make sees only the new row as new (the recordings stay where they are)
mkdir "$tmp/tree"
(cd "$JFR_TOP_SRCDIR" && tar cf - --exclude=./.git --exclude=./testdata .) |
    (cd "$tmp/tree" && tar xpf -) || { echo "FAIL: cannot copy the tree"; exit 1; }

# the recipe: one section in sql/rules.ini ...
cat >>"$tmp/tree/sql/rules.ini" <<'EOF'

[recipe-check]
severity = info
title = Recipe check
query = SELECT count(*) AS settings FROM "jdk.ActiveSetting"
condition = settings >= 1
evidence = {settings} jdk.ActiveSetting events
link = #overview
missing = skip
EOF
# ... then make
if ! (cd "$tmp/tree" && make jfrtool/jfrtool) >"$tmp/make.log" 2>&1; then
    echo "FAIL: make after adding the rule:"
    tail -30 "$tmp/make.log"
    exit 1
fi
new=$tmp/tree/jfrtool/jfrtool
fail=0
"$new" rules --list >"$tmp/list" 2>&1
grep -q '^recipe-check (info, built-in): Recipe check$' "$tmp/list" ||
    { echo "FAIL: rules --list does not show the new rule:"; cat "$tmp/list"; fail=1; }
"$new" rules "$quiet" >"$tmp/out" 2>&1
status=$?
n=$("$JFRTOOL" sql --csv 'SELECT count(*) FROM "jdk.ActiveSetting"' "$quiet" | tr -d '\r' | sed -n 2p)
grep -qx "INFO recipe-check: Recipe check" "$tmp/out" &&
    grep -qx "    $n jdk.ActiveSetting events" "$tmp/out" ||
    { echo "FAIL: jfrtool rules does not show the new rule's finding ($n settings):"; cat "$tmp/out"; fail=1; }
[ "$status" = 0 ] || { echo "FAIL: an info finding made exit status $status"; fail=1; }
"$JFRTOOL" rules --list | grep -q recipe-check &&
    { echo "FAIL: the tree's own jfrtool has the throwaway rule"; fail=1; }
[ "$fail" = 0 ] && echo "PASS: a rule added by doc/internals.md's recipe ($(grep -c 'CC\|GEN' "$tmp/make.log") files rebuilt)"
exit "$fail"
