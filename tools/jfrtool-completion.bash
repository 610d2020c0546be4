# bash completion for jfrtool                                 -*- shell-script -*-
#
# Installed as $(datadir)/bash-completion/completions/jfrtool. Commands,
# options and view names are read from jfrtool's own help text
# (`jfrtool --help`, `jfrtool CMD --help`), once per shell, so the
# completion always matches the installed binary.

# Print the words of the help section that starts at a line matching $2
# ("Commands:", "Views:"): the first word of each indented line.
_jfrtool_section()
{
    "$1" ${3:+"$3"} --help 2>/dev/null | awk -v head="$2" '
        $0 ~ "^" head { on = 1; next }
        on && /^  [^ -]/ { print $1; next }
        on && /^[^ ]/ { on = 0 }'
}

# Long options (and -o) of command $2, from its usage text.
_jfrtool_options()
{
    "$1" "$2" --help 2>/dev/null |
        grep -oE '(^|[][ ,|(])--?[a-zA-Z][a-zA-Z0-9-]*' |
        sed 's/^[][ ,|(]//' | sort -u
}

_jfrtool()
{
    local cur prev words cword
    _init_completion 2>/dev/null || {
        COMPREPLY=()
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    }
    local tool=${words[0]}

    if [[ -z ${_jfrtool_commands-} ]]; then
        _jfrtool_commands=$(_jfrtool_section "$tool" "Commands:")
    fi

    # The command is the first word after jfrtool that is not an option.
    local i cmd=
    for ((i = 1; i < cword; i++)); do
        [[ ${words[i]} != -* ]] && { cmd=${words[i]}; break; }
    done

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W '--help --version --strict' -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$_jfrtool_commands help" -- "$cur"))
        fi
        return
    fi
    if [[ $cmd == help ]]; then
        COMPREPLY=($(compgen -W "$_jfrtool_commands" -- "$cur"))
        return
    fi

    # Arguments of options that take one.
    case $prev in
    -o | --output)
        COMPREPLY=($(compgen -f -- "$cur"))
        return
        ;;
    --event)
        # the profile kinds, from libjfr's table
        COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" folded --event list 2>/dev/null |
            awk '/^[^ ]/ { print $1 }')" -- "$cur"))
        return
        ;;
    --format)
        COMPREPLY=($(compgen -W 'html svg pprof speedscope folded' -- "$cur"))
        return
        ;;
    --weight)
        COMPREPLY=($(compgen -W 'count samples period' -- "$cur"))
        return
        ;;
    --width | --top | --stack-depth | --thread | --from | --to | --include | \
        --exclude | --events | --title | --min-width | --max-chunks | --max-size)
        return
        ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_jfrtool_options "$tool" "$cmd") --help" -- "$cur"))
        return
    fi

    # `jfrtool view VIEW FILE...`: the first operand is a view name.
    if [[ $cmd == view ]]; then
        local operands=0
        for ((i = i + 1; i < cword; i++)); do
            case ${words[i]} in
            --width | --weight) ((i++)) ;;
            -*) ;;
            *) ((operands++)) ;;
            esac
        done
        if ((operands == 0)); then
            COMPREPLY=($(compgen -W "$(_jfrtool_section "$tool" "Views:" view)" -- "$cur"))
            return
        fi
    fi

    # Recordings: any file (plain, gzip and lz4 inputs are accepted
    # whatever their name).
    COMPREPLY=($(compgen -f -- "$cur"))
    compopt -o filenames 2>/dev/null
} &&
    complete -F _jfrtool jfrtool
