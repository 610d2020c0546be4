#!/bin/sh
# jfrtool's help and its manual agree (doc/jfrtool.1):
# - the commands of `jfrtool --help` are the subsections of the manual's
#   COMMANDS section (which also documents `help`);
# - for every command, the long options in `jfrtool CMD --help` are the
#   ones its subsection names, together with the sections it refers to with
#   .Sx (SELECTING SAMPLES, SHAPING FRAMES); --help and --version are
#   global and left out;
# - the page is clean under `mandoc -Tlint -Wwarning` when mandoc is there.
#
# Environment (set by `make check`): JFRTOOL, JFR_TOP_SRCDIR.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TOP_SRCDIR:?set JFR_TOP_SRCDIR to the source tree}"
export LC_ALL=C
man=$JFR_TOP_SRCDIR/doc/jfrtool.1

tmp=$(mktemp -d "${TMPDIR:-/tmp}/jfr-help.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

# Long options named in text on stdin, one per line, sorted.
help_options() {
    grep -oE '(^|[^a-zA-Z0-9-])--[a-z][a-z0-9-]*' | sed 's/^[^-]*//' |
        grep -vxE -- '--help|--version' | sort -u
}

# The manual's long options for command $1: `.It Fl \-name` items (the
# option lists) in its .Ss of COMMANDS and in every .Sh section that
# subsection names with .Sx.
man_options() {
    awk -v cmd="$1" '
        function opts(line,    s) {
            if (line !~ /^\.It /)
                return
            while (match(line, /Fl \\-([a-z0-9]|\\-)+/)) {
                s = substr(line, RSTART + 3, RLENGTH - 3)
                gsub(/\\-/, "-", s)
                s = "-" s
                print s
                line = substr(line, RSTART + RLENGTH)
            }
        }
        /^\.Sh / { sh = substr($0, 5); ss = ""; next }
        /^\.Ss / { ss = substr($0, 5); next }
        { body[sh] = body[sh] "\n" $0 }
        sh == "COMMANDS" && ss == cmd {
            opts($0)
            if ($1 == ".Sx") { ref = $0; sub(/^\.Sx /, "", ref); sub(/ [.,;:)]*$/, "", ref); refs[ref] = 1 }
            for (i = 1; i < NF; i++) if ($i == "Sx") { r = ""; for (j = i + 1; j <= NF && $j ~ /^[A-Z]+$/; j++) r = r (r ? " " : "") $j; refs[r] = 1 }
        }
        END { for (r in refs) if (r in body) { n = split(body[r], lines, "\n"); for (k = 1; k <= n; k++) opts(lines[k]) } }
    ' "$man" | grep -vxE -- '--help|--version' | sort -u
}

# The profile kinds are libjfr's table (`--event list`); the help of every
# profile command and the manual's SELECTING SAMPLES name each of them.
"$JFRTOOL" folded --event list | awk '/^[^ ]/ { print $1 }' >"$tmp/kinds"
[ -s "$tmp/kinds" ] || { echo "FAIL: folded --event list printed no kind"; fail=1; }
awk '/^\.Sh SELECTING SAMPLES/ { on = 1; next } /^\.Sh / { on = 0 }
     on && /^\.It Cm / { print $3 }' "$man" | sort >"$tmp/kinds.man"
if ! sort "$tmp/kinds" | cmp -s - "$tmp/kinds.man"; then
    echo "FAIL: the manual's kinds differ from folded --event list:"
    sort "$tmp/kinds" | diff - "$tmp/kinds.man"
    fail=1
fi
for cmd in folded flame diff; do
    "$JFRTOOL" "$cmd" --help >"$tmp/cmd-help"
    while read -r kind; do
        grep -qE "(^|[ (])$kind([,) ]|$)" "$tmp/cmd-help" ||
            { echo "FAIL: jfrtool $cmd --help does not name the kind $kind"; fail=1; }
    done <"$tmp/kinds"
done

"$JFRTOOL" --help >"$tmp/help" || { echo "FAIL: jfrtool --help exited with $?"; exit 1; }
awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' \
    "$tmp/help" | sort >"$tmp/cmds.help"
awk '/^\.Sh / { on = ($0 == ".Sh COMMANDS"); next } on && /^\.Ss / { print $2 }' "$man" |
    grep -vx help | sort >"$tmp/cmds.man"
# sql exists only when SQLite was found at build time
"$JFRTOOL" sql --help >/dev/null 2>&1 || { grep -vx sql "$tmp/cmds.man" >"$tmp/c"; mv "$tmp/c" "$tmp/cmds.man"; }
[ -s "$tmp/cmds.help" ] || { echo "FAIL: no commands in jfrtool --help"; exit 1; }
if ! diff "$tmp/cmds.help" "$tmp/cmds.man" >"$tmp/d"; then
    echo "FAIL: commands differ (< jfrtool --help, > doc/jfrtool.1):"
    cat "$tmp/d"
    fail=1
fi
grep -q '^\.Ss help$' "$man" || { echo "FAIL: doc/jfrtool.1 does not document 'help'"; fail=1; }

for c in $(cat "$tmp/cmds.help"); do
    "$JFRTOOL" "$c" --help >"$tmp/usage" 2>&1 || {
        echo "FAIL: jfrtool $c --help exited with $?"
        fail=1
        continue
    }
    help_options <"$tmp/usage" >"$tmp/o.help"
    man_options "$c" >"$tmp/o.man"
    if ! diff "$tmp/o.help" "$tmp/o.man" >"$tmp/d"; then
        echo "FAIL: options of '$c' differ (< jfrtool $c --help, > doc/jfrtool.1):"
        cat "$tmp/d"
        fail=1
    fi
done

# The formats a command takes (`CMD --format list`, the table of
# jfrtool/formats.c) are each named in its help and in its subsection of
# the manual.
for c in $(cat "$tmp/cmds.help"); do
    "$JFRTOOL" "$c" --format list >"$tmp/fmts" 2>/dev/null || continue
    "$JFRTOOL" "$c" --help >"$tmp/usage" 2>&1
    awk -v cmd="$c" '/^\.Sh / { sh = $2 } /^\.Ss / { ss = $2; next }
        sh == "COMMANDS" && ss == cmd' "$man" | sed 's/\\-/-/g' >"$tmp/sub"
    for f in $(awk '{ print $1 }' "$tmp/fmts"); do
        grep -qE "(^|[ |(,])$f([,|) ;:]|\$)" "$tmp/usage" ||
            { echo "FAIL: jfrtool $c --help does not name the format $f"; fail=1; }
        grep -qE "Cm $f( |\$)" "$tmp/sub" ||
            { echo "FAIL: doc/jfrtool.1's $c does not name the format $f"; fail=1; }
    done
done

if command -v mandoc >/dev/null 2>&1; then
    for page in "$man" "$JFR_TOP_SRCDIR"/doc/*.3; do
        [ -f "$page" ] || continue
        mandoc -Tlint -Wwarning "$page" >"$tmp/lint" 2>&1 || {
            echo "FAIL: mandoc -Tlint -Wwarning $(basename "$page"):"
            cat "$tmp/lint"
            fail=1
        }
    done
else
    echo "note: no mandoc; man page lint skipped"
fi

[ "$fail" -eq 0 ] && echo "PASS: $(wc -l <"$tmp/cmds.help") commands and their options agree with doc/jfrtool.1"
exit "$fail"
