#!/bin/bash
# The bash completion (tools/jfrtool-completion.bash) completes commands,
# each command's options and view names from the built jfrtool's help.
#
# Environment (set by `make check`): JFRTOOL, JFR_TOP_SRCDIR.
set -u
: "${JFRTOOL:?set JFRTOOL to the jfrtool binary}"
: "${JFR_TOP_SRCDIR:?set JFR_TOP_SRCDIR to the source tree}"
export LC_ALL=C

# shellcheck source=/dev/null
. "$JFR_TOP_SRCDIR/tools/jfrtool-completion.bash" || exit 99
fail=0

# complete WORD... : COMPREPLY for the command line "WORD..." (the last word
# being completed), one per line, sorted.
complete_line() {
    COMP_WORDS=("$JFRTOOL" "$@")
    COMP_CWORD=$#
    COMP_LINE="${COMP_WORDS[*]}"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    unset _jfrtool_commands
    _jfrtool 2>/dev/null
    printf '%s\n' "${COMPREPLY[@]}" | sort
}

expect() { # expect DESCRIPTION WANTED-WORD... -- WORD...
    local what=$1 want=() got
    shift
    while [ "$1" != -- ]; do want+=("$1"); shift; done
    shift
    got=$(complete_line "$@")
    for w in "${want[@]}"; do
        if ! grep -qxF -- "$w" <<<"$got"; then
            echo "FAIL: $what: '$w' not offered for '$*' (got: $(echo $got))"
            fail=1
        fi
    done
}

# Every command of `jfrtool --help`, and its options from its --help.
cmds=$("$JFRTOOL" --help | awk '/^Commands:/ { on = 1; next } on && /^  / { print $1 } on && /^$/ { on = 0 }')
[ -n "$cmds" ] || { echo "FAIL: no commands in jfrtool --help"; exit 1; }
for c in $cmds; do
    expect "command" "$c" -- "${c:0:2}"
    expect "help topic" "$c" -- help ""
    opts=$("$JFRTOOL" "$c" --help | grep -oE '(^|[][ ,|(])--[a-z][a-z0-9-]*' | sed 's/^[][ ,|(]//' | sort -u)
    for o in $opts; do
        expect "option of $c" "$o" -- "$c" "${o:0:3}"
    done
done

# View names come first after `view`, files after that.
if grep -qx view <<<"$cmds"; then
    views=$("$JFRTOOL" view --help | awk '/^Views:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
    [ -n "$views" ] || { echo "FAIL: no views in jfrtool view --help"; fail=1; }
    for v in $views; do
        expect "view name" "$v" -- view "${v:0:4}"
        expect "view name after --width" "$v" -- view --width 100 "${v:0:4}"
    done
    got=$(cd "$JFR_TOP_SRCDIR" && complete_line view hot-methods tools/jfrtool-compl)
    [ "$got" = tools/jfrtool-completion.bash ] ||
        { echo "FAIL: after the view name, files are offered (got: $got)"; fail=1; }
fi
# every profile kind of the library's table, and at least the first four
kinds=$("$JFRTOOL" folded --event list | awk '/^[^ ]/ { print $1 }')
# shellcheck disable=SC2086
expect "--event argument" cpu exec native alloc $kinds -- folded --event ""
# every format of each command's --format list
for c in $cmds; do
    fmts=$("$JFRTOOL" "$c" --format list 2>/dev/null | awk '{ print $1 }')
    [ -n "$fmts" ] || continue
    # shellcheck disable=SC2086
    expect "--format argument of $c" $fmts -- "$c" --format ""
done
got=$(cd "$JFR_TOP_SRCDIR" && complete_line summary tools/jfrtool-compl)
[ "$got" = tools/jfrtool-completion.bash ] ||
    { echo "FAIL: files are offered as operands (got: $got)"; fail=1; }

[ "$fail" -eq 0 ] && echo "PASS: completion offers every command, option and view"
exit "$fail"
