#!/bin/sh
# Bash completion (src/cli/schedrep.bash) offers the commands, each
# command's options and the --format values, read from the program itself.
. "$SREP_TOP_SRCDIR/tests/cli/lib.sh"
set -e
command -v bash >/dev/null 2>&1 || { echo "SKIP: bash is not installed" >&2; exit 77; }

# complete WORDS...: the candidates bash would offer for the last word
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_schedrep "$SREP_BIN" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' \
		sh "$SREP_TOP_SRCDIR/src/cli/schedrep.bash" "$@"
}

[ "$(complete_words schedrep conv)" = convert ] || fail "'schedrep conv' does not complete to convert"
complete_words schedrep "" | grep -qx compare || fail "the commands do not include compare"
[ "$(complete_words schedrep convert -f "")" = "$(printf 'criu\njson\nperfetto\npftrace\nrt-app\nsvg')" ] ||
	fail "convert -f offers: $(complete_words schedrep convert -f "" | tr '\n' ' ')"
[ "$(complete_words schedrep info --js)" = "--json" ] || fail "'info --js' does not complete to --json"
complete_words schedrep replay --dry | grep -qx -- --dry-run || fail "replay options are not offered"
echo "completion: commands, options and formats complete"
