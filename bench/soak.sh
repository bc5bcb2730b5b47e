#!/bin/sh
# bench/soak.sh [TRACE] - a large trace through every command, then memory
# over time in one process, then leaks.
#
#  1. every command on TRACE (default: record ~1 GB with perf sched record;
#     BIG=0 takes the ~100 MB bench trace instead): wall time, peak RSS;
#  2. tests/lib/soak reads TRACE five times in one process through the
#     library (events, fields, metrics, symbolizer): resident memory after
#     each pass, which must not grow;
#  3. valgrind --leak-check=full on the small corpus traces through info,
#     convert (every format) and compare: bytes definitely lost.
# Figures are printed, not asserted.
. "$(dirname "$0")/common.sh"
need perf linux-perf
need valgrind valgrind
B=$(dirname "$SCHEDREP")
if [ -n "${1:-}" ]; then
	TRACE=$1
elif [ "${BIG:-1}" = 1 ]; then
	TRACE=$BENCH_DIR/sched-messaging-g20-l16000.data
	if [ ! -s "$TRACE" ]; then
		echo "soak: recording $TRACE (~1 GB, perf sched record, needs root) ..." >&2
		perf sched record -o "$TRACE" -- perf bench sched messaging -g 20 -l 16000 >/dev/null 2>&1
	fi
else
	TRACE=$(big_trace)
fi
echo "trace: $TRACE ($(stat -c %s "$TRACE") bytes), load: $(cut -d' ' -f1-3 /proc/loadavg)"

run() {	# NAME CMD...: wall seconds and peak RSS of one run
	name=$1
	shift
	st=0
	/usr/bin/time -f '%e %M' -o "$BENCH_DIR/time.txt" "$@" >/dev/null 2>"$BENCH_DIR/err.txt" || st=$?
	# GNU time writes "Command exited with non-zero status N" first: the figures are the last line
	awk -v n="$name" -v st="$st" 'END {printf "%-28s %8.2f s %9.1f MB  exit %d\n", n, $1, $2 / 1024, st}' \
		"$BENCH_DIR/time.txt"
	[ "$st" = 0 ] || sed 's/^/    /' "$BENCH_DIR/err.txt" | head -n 2
}
O=$BENCH_DIR/soak-out
mkdir -p "$O"
echo "== every command"
run "info" "$SCHEDREP" info "$TRACE"
run "info --stats" "$SCHEDREP" info --stats "$TRACE"
for fmt in perfetto json svg; do
	run "convert -f $fmt" "$SCHEDREP" convert -q -f "$fmt" -o "$O/out.$fmt" "$TRACE"
done
run "convert -f criu --every 1" "$SCHEDREP" convert -q -f criu --every 1 -o "$O/out.criu" "$TRACE"
run "convert -f rt-app" "$SCHEDREP" convert -q -f rt-app -o "$O/out.rtapp.json" "$TRACE"
for cmd in latency timehist script map; do
	run "$cmd" "$SCHEDREP" $cmd "$TRACE"
done
run "replay --dry-run" "$SCHEDREP" replay --dry-run "$TRACE"
run "compare (itself)" "$SCHEDREP" compare --json -o "$O/cmp.json" "$TRACE" "$TRACE"
run "callchains" "$SCHEDREP" callchains -o "$O/cc.txt" "$TRACE"
rm -rf "$O"

echo "== five passes in one process (tests/lib/soak)"
"$B/tests/lib/soak" "$TRACE" 5

echo "== leaks (valgrind, small corpus traces)"
CORPUS=${SREP_CORPUS:-$TOP/../shared/corpus}
for f in emulated/x86_64-messaging.data emulated/s390x-zstd.data emulated/armhf-pipe.data \
	callchains/x86_64/sched-callchain.data; do
	[ -f "$CORPUS/$f" ] || continue
	for cmd in "info" "convert -q -f json -o /dev/null" "convert -q -f perfetto -o /dev/null" \
		"convert -q -f svg -o /dev/null" "compare --json -o /dev/null $CORPUS/$f"; do
		valgrind --leak-check=full --errors-for-leak-kinds=definite \
			--suppressions=/dev/null "$SCHEDREP" $cmd "$CORPUS/$f" >/dev/null 2>"$BENCH_DIR/vg.txt"
		lost=$(awk '/definitely lost:/ {print $4}' "$BENCH_DIR/vg.txt")
		errs=$(awk '/ERROR SUMMARY:/ {print $4}' "$BENCH_DIR/vg.txt")
		printf '%-44s %-32s definitely lost %s bytes, %s errors\n' "$f" "$(echo "$cmd" | cut -c1-32)" \
			"${lost:-0}" "${errs:-?}"
	done
done
