#!/bin/sh
# Every public header compiles on its own, twice in a row (include guards),
# as strict C11 and as C++11, so users can include any of them first and
# from C++ (libgit2's tests/headertest does the same). Every header under
# include/jfr/ is also installed (JFR_INSTALLED_HEADERS, from Makefile.am)
# and included by the umbrella header jfr.h.
#
# Environment (set by `make check`): JFR_TOP_SRCDIR, JFR_TOP_BUILDDIR,
# JFR_INSTALLED_HEADERS (optional), and optionally CC and CXX (a missing
# C++ compiler skips the C++ half).
set -u
: "${JFR_TOP_SRCDIR:?set JFR_TOP_SRCDIR to the source tree}"
: "${JFR_TOP_BUILDDIR:?set JFR_TOP_BUILDDIR to the build tree}"
cc=${CC:-cc}
cxx=${CXX:-c++}
inc="-I$JFR_TOP_BUILDDIR/include -I$JFR_TOP_SRCDIR/include"
cflags="-std=c11 -pedantic -Wall -Wextra -Werror -Wstrict-prototypes -Wmissing-prototypes"
cxxflags="-std=c++11 -pedantic -Wall -Wextra -Werror"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-headers.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

have_cxx=yes
echo 'int main() { return 0; }' >"$tmp/probe.cc"
$cxx -x c++ -c "$tmp/probe.cc" -o "$tmp/probe.o" 2>/dev/null || {
    have_cxx=no
    echo "note: no C++ compiler ($cxx): C++ checks skipped"
}

# The installed names: jfr.h and jfr/NAME.h (version.h is generated).
headers=jfr.h
for h in "$JFR_TOP_SRCDIR"/include/jfr/*.h "$JFR_TOP_BUILDDIR"/include/jfr/version.h; do
    [ -f "$h" ] && headers="$headers jfr/$(basename "$h")"
done
headers=$(printf '%s\n' $headers | sort -u)

fail=0
for h in $headers; do
    [ "$h" = jfr.h ] && continue
    if [ -n "${JFR_INSTALLED_HEADERS:-}" ]; then
        case " $JFR_INSTALLED_HEADERS " in
        *" include/$h "*) ;;
        *) echo "FAIL: include/$h is not installed (add it to jfrinclude_HEADERS)"; fail=1 ;;
        esac
    fi
    grep -q "^#include \"$h\"" "$JFR_TOP_SRCDIR/include/jfr.h" ||
        { echo "FAIL: jfr.h does not include \"$h\""; fail=1; }
done

n=0
for h in $headers; do
    n=$((n + 1))
    printf '#include <%s>\n#include <%s>\n' "$h" "$h" >"$tmp/t.c"
    if ! $cc $cflags $inc -c "$tmp/t.c" -o "$tmp/t.o" 2>"$tmp/err"; then
        echo "FAIL: <$h> alone as C11:"
        cat "$tmp/err"
        fail=1
    fi
    [ "$have_cxx" = yes ] || continue
    cp "$tmp/t.c" "$tmp/t.cc"
    if ! $cxx -x c++ $cxxflags $inc -c "$tmp/t.cc" -o "$tmp/t.o" 2>"$tmp/err"; then
        echo "FAIL: <$h> alone as C++11:"
        cat "$tmp/err"
        fail=1
    fi
done
langs="C11"
[ "$have_cxx" = yes ] && langs="C11 and C++11"
[ "$fail" -eq 0 ] && echo "PASS: $n public headers compile alone as $langs"
exit "$fail"
