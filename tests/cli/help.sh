#!/bin/sh
# Every command answers --help on stdout with exit 0, and its first line is
# the SYNOPSIS of its manual page; a bad option is one error line plus the
# usage line on stderr, exit 2; "schedrep help CMD" shows the same text as
# "CMD --help", and -V/--version work everywhere.
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
	cp "$TMP/out" "$TMP/help.txt"
	expect_exit 0 "$SREP_BIN" help "$c"
	cmp -s "$TMP/out" "$TMP/help.txt" || fail "'schedrep help $c' differs from '$c --help'"
	for v in -V --version; do
		expect_exit 0 "$SREP_BIN" "$c" $v
		grep -qx "schedrep [0-9][0-9.]*" "$TMP/out" || fail "$c $v: $(cat "$TMP/out")"
	done
	expect_exit 2 "$SREP_BIN" "$c" --no-such-option
	grep -q "^usage: schedrep $c" "$TMP/err" || fail "$c: no usage line after a bad option"
done
expect_exit 2 "$SREP_BIN"
expect_exit 2 "$SREP_BIN" no-such-command
expect_exit 2 "$SREP_BIN" help no-such-command
for v in -V --version; do
	expect_exit 0 "$SREP_BIN" $v
	grep -qx "schedrep [0-9][0-9.]*" "$TMP/out" || fail "$v: $(cat "$TMP/out")"
done
