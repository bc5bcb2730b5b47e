# bash completion for schedrep: commands, their options and --format values.
#
# Everything is read from the program's own help (the option tables that
# render --help), so a new command, option or format completes without a
# change here.

_schedrep()
{
	local cur prev cmd i opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done

	if [[ -z $cmd ]]; then
		opts=$("$1" help 2>/dev/null | awk '/^commands:/ {on=1; next} on && /^    [a-z]/ {print $1}')
		COMPREPLY=($(compgen -W "$opts help --help --version" -- "$cur"))
		return
	fi
	case $prev in
	-f | --format)
		opts=$("$1" "$cmd" --help 2>/dev/null |
			awk '/^formats:/ {on=1; next} on && /^    [a-z]/ {print $1; next} on {exit}')
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return ;;
	-o | --output | --html | --report | --kallsyms* | --vmlinux* | -i | --input)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--symfs* | --buildid-dir*)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	esac
	if [[ $cur == -* ]]; then
		opts=$("$1" "$cmd" --help 2>/dev/null |
			grep -oE '^ +(-[a-zA-Z], )?--[a-z][-a-z0-9]*' | grep -oE -- '--[a-z][-a-z0-9]*')
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _schedrep schedrep
