#!/bin/sh
# Every command answers --help on stdout with exit 0, and its first line is
# the SYNOPSIS of its manual page; a bad option is one error line plus the
# usage line on stderr, exit 2.
. "$(dirname "$0")/lib.sh"
set -e

expect_exit 0 "$SREP_BIN" help
cmds=$(awk '/^commands:/ {on=1; next} on && /^    [a-z]/ {print $1}' "$TMP/out")
[ -n "$cmds" ] || fail "'schedrep help' lists no commands"
for c in $cmds; do
	expect_exit 0 "$SREP_BIN" "$c" --help
	page="$SREP_TOP_SRCDIR/docs/man/schedrep-$c.1.md"
	[ -f "$page" ] || fail "no manual page $page"
	synopsis=$(awk '/^## SYNOPSIS/ {on=1; next} on && NF {print; exit}' "$page")
	first=$(head -n 1 "$TMP/out")
	[ "$first" = "$synopsis" ] || fail "$c: --help says '$first', the manual '$synopsis'"
	expect_exit 2 "$SREP_BIN" "$c" --no-such-option
	grep -q "^usage: schedrep $c" "$TMP/err" || fail "$c: no usage line after a bad option"
done
expect_exit 2 "$SREP_BIN"
expect_exit 2 "$SREP_BIN" no-such-command
