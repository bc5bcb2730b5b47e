#!/bin/sh
# bench/speed.sh [TRACE] - every command's speed and memory on one trace,
# against its peer measured in the same run and against the memory walk
# (bench/memwalk.c: map the file, walk the records, sum every word of each
# sample: what any reader touches at least).
#
# Columns: median wall seconds (hyperfine, RUNS runs after one warm-up),
# CPU seconds (user + system, hyperfine's mean), input MB/s by wall time and
# that as a share of the memory walk's, peak RSS (/usr/bin/time -v, mapped
# file pages included), and "x peer": the peer's wall and CPU time over
# this row's. Outputs go to files in BENCH_DIR (the disk the trace is on);
# "(/dev/null)" rows separate the formatting from the writing.
#
# Without TRACE: the ~100 MB trace of common.sh; BIG=1 also records (once,
# about 1 GB, minutes) and measures
#   perf sched record -- perf bench sched messaging -g 20 -l 16000
# Environment: SCHEDREP, PERF, RUNS (default 5; 3 for the big trace),
# BENCH_DIR. Figures, never assertions: note the load printed with them.
. "$(dirname "$0")/common.sh"
need hyperfine hyperfine
need jq jq
need cc gcc
need /usr/bin/time time
work_dir
MEMWALK=$BENCH_DIR/memwalk
cc -O2 -o "$MEMWALK" "$TOP/bench/memwalk.c"

# "WALL CPU" of a command line: hyperfine's median wall, mean user + system
# (an exit status other than 0 is kept: callchains of a trace without any)
timed() {
	hyperfine -N -i --warmup 1 --runs "$RUNS" --export-json "$WORK/h.json" "$1" >/dev/null 2>&1 ||
		{ echo "0 0"; return; }
	jq -r '.results[0] | "\(.median) \(.user + .system)"' "$WORK/h.json"
}

rss_mb() {
	/usr/bin/time -v sh -c "exec $1 >/dev/null 2>&1" 2>&1 |
		awk '/Maximum resident/ {printf "%.1f", $6 / 1024}'
}

# row NAME CMD [PEER]: measures CMD; PEER names an earlier row ("" none)
row() {
	set -- "$1" "$2" "${3:-}" $(timed "$2")
	rss=$(rss_mb "$2")
	echo "$1|$4|$5" >>"$WORK/rows"
	peer=$(awk -F'|' -v p="$3" '$1 == p {print $2, $3}' "$WORK/rows")
	echo "$1|$4|$5|$rss|$peer" | awk -F'|' -v bytes="$BYTES" -v walk="$WALK" '{
		split($5, p, " ")
		if ($2 <= 0) { printf "%-36s (not measured)\n", $1; next }
		printf "%-36s %7.3f %7.3f %8.0f %6.1f%% %7.1f", $1, $2, $3, bytes / $2 / 1e6,
		       100 * walk / $2, $4
		if (p[1] > 0) printf "  %5.2fx %5.2fx", p[1] / $2, p[2] / ($3 > 0 ? $3 : 1)
		printf "\n" }'
}

table() {
	TRACE=$1
	BYTES=$(stat -c %s "$TRACE")
	O=$BENCH_DIR/speed-out
	: >"$WORK/rows"
	echo "trace: $TRACE ($BYTES bytes, $("$SCHEDREP" info --stats --json "$TRACE" |
		jq '.stats.total_records // .total_records') records), $RUNS runs each"
	echo "machine: $(nproc) CPUs; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
	WALK=1
	set -- $(timed "$MEMWALK $TRACE")
	WALK=$1
	printf "%-36s %7s %7s %8s %7s %7s  %s\n" command "wall s" "cpu s" "MB/s" "of walk" \
		"RSS MB" "x peer (wall, cpu)"
	row "memory walk (bench/memwalk.c)" "$MEMWALK $TRACE"
	row "perf sched latency" "$PERF sched latency -i $TRACE"
	row "schedrep info (full decode)" "$SCHEDREP info -q $TRACE" "perf sched latency"
	row "schedrep latency" "$SCHEDREP latency $TRACE" "perf sched latency"
	row "perf report --stats" "$PERF report --stats -i $TRACE"
	row "schedrep info --stats (counting)" "$SCHEDREP info -q --stats $TRACE" "perf report --stats"
	row "perf script (to a file)" "sh -c '$PERF script -i $TRACE > $O'"
	row "schedrep script (to a file)" "sh -c '$SCHEDREP script $TRACE > $O'" "perf script (to a file)"
	row "convert -f perfetto (to a file)" "$SCHEDREP convert -q -f perfetto -o $O $TRACE" \
		"perf script (to a file)"
	row "convert -f perfetto (/dev/null)" "$SCHEDREP convert -q -f perfetto -o /dev/null $TRACE" \
		"perf script (to a file)"
	row "convert -f pftrace (to a file)" "$SCHEDREP convert -q -f pftrace -o $O $TRACE" \
		"perf script (to a file)"
	row "convert -f svg (to a file)" "$SCHEDREP convert -q -f svg -o $O $TRACE" \
		"perf script (to a file)"
	row "convert -f rt-app (to a file)" "$SCHEDREP convert -q -f rt-app -o $O $TRACE" \
		"perf script (to a file)"
	row "perf data convert --to-json" "$PERF data convert --force --to-json $O -i $TRACE"
	row "convert -f json (to a file)" "$SCHEDREP convert -q -f json -o $O $TRACE" \
		"perf data convert --to-json"
	row "perf sched timehist" "sh -c '$PERF sched timehist -i $TRACE > $O'"
	row "schedrep timehist" "sh -c '$SCHEDREP timehist $TRACE > $O'" "perf sched timehist"
	row "perf sched map" "sh -c '$PERF sched map -i $TRACE > $O'"
	row "schedrep map" "sh -c '$SCHEDREP map $TRACE > $O'" "perf sched map"
	row "schedrep callchains" "sh -c '$SCHEDREP callchains -q $TRACE > $O'"
	row "schedrep replay --dry-run" "sh -c '$SCHEDREP replay -q --dry-run $TRACE > $O'"
	row "schedrep compare (the trace twice)" "$SCHEDREP compare -q --json -o $O $TRACE $TRACE"
	rm -f "$O"
	echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo
}

RUNS=${RUNS:-5}
table "$(big_trace "${1:-}")"
if [ "${BIG:-0}" = 1 ]; then
	T=$BENCH_DIR/sched-messaging-g20-l16000.data
	if [ ! -s "$T" ]; then
		echo "bench: recording $T (about 1 GB, minutes) ..." >&2
		"$PERF" sched record -o "$T" -- "$PERF" bench sched messaging -g 20 -l 16000 \
			>/dev/null 2>&1
	fi
	RUNS=${BIG_RUNS:-3}
	table "$T"
fi
