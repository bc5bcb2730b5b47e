#!/bin/sh
# bench/perfcmds.sh [TRACE] - the perf-named commands against perf's own on
# the ~100 MB trace of `perf sched record -- perf bench sched messaging -g 10
# -l 2000`: latency, timehist, script and map, each against its perf
# counterpart in the same run (issue 16's target: at least 3x faster).
# Output goes to /dev/null for both sides (hyperfine's default), so the
# figures are decode and formatting, not the disk. Ratios are peer time /
# schedrep time (>1: schedrep is faster).
. "$(dirname "$0")/common.sh"
need hyperfine hyperfine
need perf linux-perf
TRACE=$(big_trace "${1:-}")
BYTES=$(stat -c %s "$TRACE")
EVENTS=$("$SCHEDREP" info --stats --json "$TRACE" | awk -F: '/"total_records"/ {gsub(/[ \t,]/, "", $2); print $2}')

echo "trace: $TRACE ($BYTES bytes, $EVENTS records), $RUNS runs each, load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-34s %10s %14s %16s %11s  %s\n" command wall throughput events "peak RSS" "vs peer"
# pair NAME PERF_CMD SCHEDREP_CMD: both measured back to back
pair() {
	w_peer=$(wall "$2")
	w_ours=$(wall "$3")
	row "perf $1" "$w_peer" "$(peak_rss_mb "$2")" "$BYTES" "$EVENTS" "$w_peer"
	row "schedrep $1" "$w_ours" "$(peak_rss_mb "$3")" "$BYTES" "$EVENTS" "$w_peer"
}
pair "sched latency" "perf sched latency -i $TRACE" "$SCHEDREP latency -q $TRACE"
pair "sched timehist" "perf sched timehist -i $TRACE" "$SCHEDREP timehist -q $TRACE"
pair "script" "perf script -i $TRACE" "$SCHEDREP script -q $TRACE"
pair "sched map" "perf sched map -i $TRACE" "$SCHEDREP map -q $TRACE"
