#!/bin/sh
# bench/convert.sh [TRACE] - schedrep convert against perf's own converters.
#
# Times 'schedrep convert' in each format against 'perf script' (which
# prints every sched tracepoint field) and 'perf data convert --to-json' on
# the same trace, and prints wall time (median of RUNS, by hyperfine when
# installed), input MB/s, peak RSS (/usr/bin/time -v: mapped file pages
# included), output size and the speed ratio to perf script. Figures, not
# assertions: on a shared machine they are noisy, so the load is printed too,
# and CPU time (user + system, less sensitive to other load) beside wall.
# "x wall" and "x cpu" are how many times faster than perf script.
#
# Without TRACE it uses the issue's trace (about 90 MB), recorded once into
# $BENCH_DIR (common.sh):
#   perf sched record -- perf bench sched messaging -g 10 -l 2000
# Environment: SREP_BIN (default ./build/schedrep), RUNS (default 5),
# PERF (default perf), KEEP=1 keeps the work directory.
RUNS=${RUNS:-5}
. "$(dirname "$0")/common.sh"
SREP=$SCHEDREP
[ -x "$SREP" ] || { echo "bench: no $SREP: build first (or set SREP_BIN)" >&2; exit 2; }
need /usr/bin/time time
work_dir
TRACE=$(big_trace "${1:-}")
size=$(stat -c %s "$TRACE")
mb=$(echo "$size" | awk '{ printf "%.1f", $1 / 1e6 }')

echo "trace: $TRACE ($mb MB, $("$SREP" info --stats "$TRACE" | awk '/^  SAMPLE / {print $2}') samples)"
echo "machine: $(nproc) CPUs, load: $(uptime | sed 's/.*load average: //')"
echo "schedrep: $SREP; $("$PERF" --version)"
echo

# median wall time of RUNS runs (hyperfine), or the best of RUNS (/usr/bin/time)
wall() {
	out=$1
	shift
	if command -v hyperfine >/dev/null 2>&1 && command -v jq >/dev/null 2>&1; then
		hyperfine --runs "$RUNS" --style none --prepare "rm -f '$out'" \
			--export-json "$WORK/h.json" "$*" >/dev/null 2>&1
		jq '.results[0].median' "$WORK/h.json"
		return
	fi
	best=""
	for i in $(seq "$RUNS"); do
		rm -f "$out"
		/usr/bin/time -f %e -o "$WORK/t" sh -c "$*" >/dev/null 2>&1
		t=$(cat "$WORK/t")
		best=$(echo "$best $t" | awk '{ print ($1 == "" || $2 < $1) ? $2 : $1 }')
	done
	echo "$best"
}

# peak RSS in MB and CPU seconds (user + system) of one run
rss_cpu() {
	out=$1
	shift
	rm -f "$out"
	/usr/bin/time -v -o "$WORK/v" sh -c "exec $*" >/dev/null 2>&1
	awk '/Maximum resident set size/ { rss = $NF / 1024 }
	     /User time|System time/ { cpu += $NF }
	     END { printf "%.1f %.2f", rss, cpu }' "$WORK/v"
}

printf '%-28s %8s %8s %8s %8s %9s %8s %8s\n' tool "wall s" "MB/s" "cpu s" "RSS MB" "output MB" \
	"x wall" "x cpu"
script_wall="" script_cpu=""
run() {
	name=$1 out=$2
	shift 2
	w=$(wall "$out" "$@")
	set -- $(rss_cpu "$out" "$@")
	o=$(stat -c %s "$out" 2>/dev/null || echo 0)
	[ -n "$script_wall" ] || { script_wall=$w; script_cpu=$2; }
	printf '%-28s %8.3f %8.1f %8.2f %8s %9.1f %7.1fx %7.1fx\n' "$name" "$w" \
		"$(echo "$size $w" | awk '{ print $1 / 1e6 / $2 }')" "$2" "$1" \
		"$(echo "$o" | awk '{ print $1 / 1e6 }')" \
		"$(echo "$script_wall $w" | awk '{ print $1 / $2 }')" \
		"$(echo "$script_cpu $2" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')"
	rm -f "$out"
}

run "perf script" "$WORK/script.txt" "$PERF script -i '$TRACE' > '$WORK/script.txt'"
run "perf data convert --to-json" "$WORK/perf.json" \
	"$PERF data convert -i '$TRACE' --to-json '$WORK/perf.json' 2>/dev/null"
for f in perfetto json svg; do
	run "schedrep convert -f $f" "$WORK/out.$f" "'$SREP' convert -q -f $f -o '$WORK/out.$f' '$TRACE'"
done
run "schedrep info (decode only)" "$WORK/none" "'$SREP' info '$TRACE' > /dev/null"
echo
echo "targets (issue 3): >= 10x perf script's speed; peak RSS <= 64 MB"
