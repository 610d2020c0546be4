#!/bin/sh
# No cycles between files (doc/internals.md, "Layers"): in jfrtool and in
# libjfr, the graph "A.c calls or reads a global defined in B.c", taken
# from the built objects' symbols (nm), must have no loop. tsort(1) finds
# the loops; each is printed with its files.
#
# Environment (set by `make check`): JFR_TOP_BUILDDIR.
set -u
: "${JFR_TOP_BUILDDIR:?set JFR_TOP_BUILDDIR to the build tree}"
build=$JFR_TOP_BUILDDIR
export LC_ALL=C
# Edges left out, as "USER DEFINER" regular expressions, each with why:
# none today.
KNOWN='^$'

command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
command -v tsort >/dev/null 2>&1 || { echo "SKIP: no tsort"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-cycles.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# edges OBJECT... : "USER DEFINER" per symbol one file uses and another
# defines (file names without automake's per-target prefix)
edges() {
    for o in "$@"; do
        f=${o##*/}
        f=${f#*-}
        nm "$o" | awk -v f="${f%.o}.c" 'NF == 3 && $2 ~ /^[TDBRCGSV]$/ { print "D", $3, f }
                                        NF == 2 && $1 == "U" { print "U", $2, f }'
    done | awk '$1 == "D" { def[$2] = $3; next }
                { use[++n] = $3 " " $2 }
                END { for (i = 1; i <= n; i++) { split(use[i], u, " ")
                          if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]] } }' |
        sort -u
}

check() { # NAME OBJECT...
    name=$1
    shift
    if [ ! -f "$1" ]; then
        echo "SKIP: $name: no objects ($1)"
        return
    fi
    edges "$@" | grep -Ev "$KNOWN" >"$tmp/edges"
    if ! tsort "$tmp/edges" >/dev/null 2>"$tmp/loops"; then
        echo "FAIL: $name: files that call each other (a cycle):"
        sed -n 's/^tsort: .*input contains a loop:$/  a loop:/p; s/^tsort: /    /p' "$tmp/loops"
        fail=1
    else
        echo "ok: $name: $(wc -l <"$tmp/edges") dependencies between files, no cycle"
    fi
}

check jfrtool "$build"/jfrtool/jfrtool-*.o
check libjfr "$build"/libjfr/libjfr_internal_la-*.o
exit $fail
