#!/bin/sh
# A perf.data directory ('perf record --threads', perf 5.17+: DIR/data and a
# DIR/data.N per recording thread) reads as one trace: the record and sample
# counts equal perf's own, and the threads' records come out in time order.
# Records one with this machine's perf (needs root); skips without.
. "$SREP_TOP_SRCDIR/tests/cli/lib.sh"
set -e
command -v perf >/dev/null 2>&1 || { echo "SKIP: perf is not installed" >&2; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: recording needs root" >&2; exit 77; }
DIR="$TMP/threads.data"
if ! perf record --threads -e sched:sched_switch -e sched:sched_waking -a -o "$DIR" \
	-- sh -c 'for i in 1 2 3 4 5 6 7 8; do sleep 0.01; done' >/dev/null 2>"$TMP/perf.err"; then
	cat "$TMP/perf.err" >&2
	echo "SKIP: perf record --threads failed here" >&2
	exit 77
fi
[ -f "$DIR/data" ] && ls "$DIR"/data.* >/dev/null 2>&1 || fail "perf wrote no perf.data directory"

perf report --stats -i "$DIR" 2>/dev/null >"$TMP/perf-stats.txt" || fail "perf cannot read $DIR"
perf_counts "$TMP/perf-stats.txt" >"$TMP/want"
expect_exit 0 "$SREP_BIN" info "$DIR"
info_counts >"$TMP/got"
diff -u "$TMP/want" "$TMP/got" >&2 || fail "counts differ from perf's"
grep -q '^late events:' "$TMP/out" && fail "records of the threads' files arrived out of order"

# every event in time order across the files
expect_exit 0 "$SREP_BIN" convert -q -f json -o "$TMP/t.json" "$DIR"
jq -r 'select(.t != null and .t > 0) | .t' "$TMP/t.json" | awk 'NR > 1 && $1 < last {bad++} {last = $1}
	END {exit bad ? 1 : 0}' || fail "events are not in time order"
echo "perf-dir: $(ls -d "$DIR"/data.* | wc -l) thread files, counts equal perf's"
