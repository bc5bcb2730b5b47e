#!/bin/sh
# bench/info.sh [TRACE] - schedrep info against perf on the ~100 MB trace of
# `perf sched record -- perf bench sched messaging -g 10 -l 2000`.
#
# Full decode: `schedrep info` decodes every sched tracepoint's fields into
# the neutral model; its peer is `perf sched latency` (which decodes them too).
# Counting: `schedrep info --stats` only counts records; its peer is
# `perf report --stats`. Ratios are peer time / schedrep time (>1: faster).
. "$(dirname "$0")/common.sh"
need hyperfine hyperfine
need perf linux-perf
TRACE=$(big_trace "${1:-}")
BYTES=$(stat -c %s "$TRACE")
EVENTS=$("$SCHEDREP" info --stats --json "$TRACE" | awk -F: '/"total_records"/ {gsub(/[ \t,]/, "", $2); print $2}')

echo "trace: $TRACE ($BYTES bytes, $EVENTS records), $RUNS runs each, load: $(cut -d' ' -f1-3 /proc/loadavg)"
w_lat=$(wall "perf sched latency -i $TRACE")
w_stats=$(wall "perf report --stats -i $TRACE")
w_info=$(wall "$SCHEDREP info $TRACE")
w_count=$(wall "$SCHEDREP info --stats $TRACE")
printf "%-34s %10s %14s %16s %11s  %s\n" command wall throughput events "peak RSS" "vs peer"
row "perf sched latency" "$w_lat" "$(peak_rss_mb "perf sched latency -i $TRACE")" "$BYTES" "$EVENTS" "$w_lat"
row "schedrep info (full decode)" "$w_info" "$(peak_rss_mb "$SCHEDREP info $TRACE")" "$BYTES" "$EVENTS" "$w_lat"
row "perf report --stats" "$w_stats" "$(peak_rss_mb "perf report --stats -i $TRACE")" "$BYTES" "$EVENTS" "$w_stats"
row "schedrep info --stats (counting)" "$w_count" "$(peak_rss_mb "$SCHEDREP info --stats $TRACE")" "$BYTES" "$EVENTS" "$w_stats"
