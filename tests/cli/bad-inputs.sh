#!/bin/sh
# Every input that ever crashed schedrep or tripped a sanitizer
# (tests/data/bad/NAME.data) goes through every command that reads a trace:
# none may crash, trip a sanitizer (the sanitizer builds run this too) or
# take more than 512 MiB, and `info` ends as NAME.expect says: "exit N",
# and "stderr TEXT" lines that its standard error must contain.
. "$SREP_TOP_SRCDIR/tests/cli/lib.sh"
set -e
BAD="$SREP_TOP_SRCDIR/tests/data/bad"
# a sanitizer report must not pass for the exit status 1 of a damaged trace
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99"
export ASAN_OPTIONS UBSAN_OPTIONS

# every allocation is bounded: none of these small inputs may take more
# (KiB of peak RSS, the sanitizer builds' shadow memory included)
RSS_MAX=524288
TIMER=
[ -x /usr/bin/time ] && TIMER=/usr/bin/time ||
	echo "bad-inputs: no /usr/bin/time: peak memory not checked"

# run_cmd NAME ARGS...: exit 0 or 1, no sanitizer report, bounded memory
run_cmd() {
	name=$1
	shift
	set +e
	if [ -n "$TIMER" ]; then
		$TIMER -f %M -o "$TMP/rss" "$SREP_BIN" "$@" >"$TMP/out" 2>"$TMP/err"
	else
		"$SREP_BIN" "$@" >"$TMP/out" 2>"$TMP/err"
	fi
	st=$?
	set -e
	if [ "$st" -gt 1 ] || grep -qE 'Sanitizer|runtime error' "$TMP/err"; then
		head -n 20 "$TMP/err" >&2
		fail "$name: 'schedrep $*' exited $st"
	fi
	[ -z "$TIMER" ] || [ "$(tail -n 1 "$TMP/rss")" -le "$RSS_MAX" ] ||
		fail "$name: 'schedrep $*' took $(tail -n 1 "$TMP/rss") KiB, more than $RSS_MAX"
}

n=0
for f in "$BAD"/*.data; do
	name=$(basename "$f" .data)
	expect="$BAD/$name.expect"
	[ -f "$expect" ] || fail "$name has no $name.expect"
	for fmt in json perfetto pftrace svg rt-app; do
		run_cmd "$name" convert -q -f "$fmt" -o "$TMP/o" "$f"
	done
	for cmd in latency timehist map script; do
		run_cmd "$name" "$cmd" -q -o "$TMP/o" "$f"
	done
	run_cmd "$name" convert -q -f criu --every 0.5 -o "$TMP/o.criu" "$f"
	run_cmd "$name" info --stats "$f"
	run_cmd "$name" callchains "$f"
	rm -rf "$TMP/o.sp"
	run_cmd "$name" simpoint -q -o "$TMP/o.sp" "$f"
	run_cmd "$name" replay --dry-run "$f"
	run_cmd "$name" compare --json "$f" "$f"
	run_cmd "$name" info "$f"
	want=$(awk '$1 == "exit" {print $2}' "$expect")
	[ "$st" = "$want" ] || fail "$name: info exited $st, $name.expect says $want"
	sed -n 's/^stderr //p' "$expect" | while IFS= read -r text; do
		grep -qF -- "$text" "$TMP/err" || fail "$name: info did not say '$text'"
	done
	n=$((n + 1))
done
echo "bad inputs: $n read by every command without a crash, a sanitizer report or more than $RSS_MAX KiB"
