#!/bin/sh
# The progress line: on a terminal (script(1) gives one) for a pipe or a
# large file, with the bytes read and the rate; never with -q, never on a
# pipe, never when the command writes its output to that terminal, and
# cleared before the output.
. "$(dirname "$0")/lib.sh"
set -e

command -v script >/dev/null || { echo "SKIP: no script(1) to give a terminal"; exit 77; }
PIPE="$CORPUS_ROOT/emulated/armhf-pipe.data"	# 3.7 MB, about 40,000 events
[ -f "$PIPE" ] || { echo "SKIP: no corpus at $CORPUS_ROOT (set SREP_CORPUS)"; exit 77; }

# on_tty CMD: CMD's stdout and stderr on a terminal, carriage returns as lines
on_tty() {
	script -qec "$1" /dev/null | tr '\r' '\n' >"$TMP/tty"
}
line='reading: [0-9.]* MB, [0-9.]* MB/s'

on_tty "cat '$PIPE' | '$SREP_BIN' info -"
grep -aq "$line" "$TMP/tty" || fail "no progress line for a pipe: $(head -c 300 "$TMP/tty")"
# cleared (carriage return, erase to the end of the line) right before the report
grep -aq "^$(printf '\033')\[Kfile: " "$TMP/tty" || fail "the progress line is not cleared before the report"

on_tty "cat '$PIPE' | '$SREP_BIN' info -q -"
! grep -aq "MB/s" "$TMP/tty" || fail "-q still shows progress"
# a small file: nothing to wait for
on_tty "'$SREP_BIN' info '$PIPE'"
! grep -aq "MB/s" "$TMP/tty" || fail "progress for a 3.7 MB file"
# stderr not a terminal
cat "$PIPE" | "$SREP_BIN" info - >/dev/null 2>"$TMP/err"
! grep -q "MB/s" "$TMP/err" || fail "progress on a pipe"
# output streaming to the same terminal: it would cut the lines
on_tty "cat '$PIPE' | '$SREP_BIN' script -"
! grep -aq "MB/s" "$TMP/tty" || fail "progress in the middle of script's output"
on_tty "cat '$PIPE' | '$SREP_BIN' script -o /dev/null -"
grep -aq "$line" "$TMP/tty" || fail "no progress for script -o /dev/null"
exit 0
