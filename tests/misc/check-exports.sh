#!/bin/sh
# The ABI changes only on purpose: the shared library's dynamic symbols must
# equal the reviewed list libjfr/libjfr.sym, and so must the functions the
# public headers declare with JFR_API (a declared function that is not
# exported would fail only when a user links against it).
#
# After adding or removing a public function, regenerate the list with
#   make check-exports-update
# and review the diff (bump LIBJFR_VERSION_INFO in configure.ac by libtool's
# rules in the same change).
#
# Environment (set by `make check`): JFR_TOP_SRCDIR, JFR_TOP_BUILDDIR.
set -u
: "${JFR_TOP_SRCDIR:?set JFR_TOP_SRCDIR to the source tree}"
: "${JFR_TOP_BUILDDIR:?set JFR_TOP_BUILDDIR to the build tree}"
src=$JFR_TOP_SRCDIR
la=$JFR_TOP_BUILDDIR/libjfr/libjfr.la
export LC_ALL=C

command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
dlname=$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$la" 2>/dev/null)
so=$JFR_TOP_BUILDDIR/libjfr/.libs/$dlname
if [ -z "$dlname" ] || [ ! -f "$so" ]; then
    echo "SKIP: no shared libjfr was built (--disable-shared)"
    exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-exports.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sort -u >"$tmp/exported"
sort -u "$src/libjfr/libjfr.sym" >"$tmp/reviewed"
# JFR_API declarations of the headers, comments and macro definitions removed.
perl -0777 -ne 's{/\*.*?\*/}{}gs; s{^\s*#.*$}{}gm;
    while (/\bJFR_API\b[^;{]*?\b(\w+)\s*\(/g) { print "$1\n" }' \
    "$src/include/jfr.h" "$src"/include/jfr/*.h \
    "$JFR_TOP_BUILDDIR/include/jfr/version.h" | sort -u >"$tmp/declared"

if ! cmp -s "$src/libjfr/libjfr.sym" "$tmp/reviewed"; then
    echo "FAIL: libjfr/libjfr.sym is not sorted (LC_ALL=C sort -u)"
    fail=1
fi
if ! diff -u "$tmp/reviewed" "$tmp/exported" >"$tmp/d1"; then
    echo "FAIL: exported symbols of $dlname differ from libjfr/libjfr.sym (+ exported, - listed):"
    sed 1,2d "$tmp/d1"
    fail=1
fi
if ! diff -u "$tmp/reviewed" "$tmp/declared" >"$tmp/d2"; then
    echo "FAIL: JFR_API declarations in include/ differ from libjfr/libjfr.sym (+ declared, - listed):"
    sed 1,2d "$tmp/d2"
    fail=1
fi
[ "$fail" -eq 0 ] && echo "PASS: $(wc -l <"$tmp/exported") exported symbols match libjfr.sym and the headers"
exit "$fail"
