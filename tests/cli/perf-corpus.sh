#!/bin/sh
# latency, timehist and script against the recording perf's own outputs on
# the emulated corpus (six boards, perf 6.1 and 6.12): every line must be
# equal. Prints the match table (lines equal / lines) on stdout, so the log
# holds the match rate. Skips without the corpus.
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT/emulated"
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS (set SREP_CORPUS)" >&2; exit 77; }
boards="s390x armhf arm64 arm64-trixie x86_64 x86_64-smp4"

# match NAME GOT WANT: count equal lines position by position, print a row
bad=0
match() {
	total=$(wc -l <"$3")
	same=$(awk 'NR == FNR {want[FNR] = $0; next} (FNR in want) && want[FNR] == $0 {n++}
		    END {print n + 0}' "$3" "$2")
	printf '%-26s %-9s %7s / %-7s %s\n' "$4" "$1" "$same" "$total" \
		"$(cmp -s "$2" "$3" && echo equal || echo DIFFERENT)"
	cmp -s "$2" "$3" || { diff "$3" "$2" | head -5 >&2; bad=$((bad + 1)); }
}

printf '%-26s %-9s %s\n' trace command "lines equal / lines"
for b in $boards; do
	data="$CORPUS/$b-messaging.data"
	expect_exit 0 "$SREP_BIN" info "$data"
	version=$(awk '/^perf version:/ {print $3}' "$TMP/out")
	case "$version" in
	6.1.*) perf=6.1 ;;
	6.12.*) perf=6.12 ;;
	*) fail "$b: recorded by perf '$version', expected 6.1 or 6.12" ;;
	esac
	expect_exit 0 "$SREP_BIN" latency --perf "$perf" "$data"
	cp "$TMP/out" "$TMP/lat"
	match latency "$TMP/lat" "$CORPUS/$b-messaging.sched-latency.txt" "$b"
	xz -dc "$CORPUS/$b-messaging.timehist.txt.xz" >"$TMP/th.want"
	expect_exit 0 "$SREP_BIN" timehist --perf "$perf" "$data"
	cp "$TMP/out" "$TMP/th"
	match timehist "$TMP/th" "$TMP/th.want" "$b"
	xz -dc "$CORPUS/$b-messaging.script.txt.xz" >"$TMP/sc.want"
	expect_exit 0 "$SREP_BIN" script --perf "$perf" "$data"
	cp "$TMP/out" "$TMP/sc"
	match script "$TMP/sc" "$TMP/sc.want" "$b"
done
[ "$bad" = 0 ] || fail "$bad outputs differ from the recording perf's"

# a trace with LOST records and no sched_switch (perf refuses it): a line per
# LOST record, as perf writes them, and nothing else wrong
lossy="$CORPUS_ROOT/public/perfprofd__callchain.canned.perf.data"
if [ -f "$lossy" ]; then
	expect_exit 0 "$SREP_BIN" info --stats --json "$lossy"
	records=$(tr -d ' \t\n' <"$TMP/out" | grep -o '"LOST":[0-9]*' | head -n 1 | cut -d: -f2)
	expect_exit 0 "$SREP_BIN" timehist "$lossy"
	lines=$(grep -c '^ *[0-9.]* lost [0-9]* events on cpu [0-9]*$' "$TMP/out" || true)
	[ "$lines" = "$records" ] || fail "timehist of $lossy: $lines lost lines, $records LOST records"
else
	echo "perf-corpus: no $lossy: the LOST lines of timehist not checked"
fi
