#!/bin/sh
# bench/pftrace.sh [TRACE] - schedrep convert -f pftrace against perf script
# and against the Chrome JSON of -f perfetto.
#
# Prints, for 'perf script', 'schedrep convert -f pftrace' and 'schedrep
# convert -f perfetto': wall time (best of RUNS, hyperfine, the shell's
# start subtracted), CPU time (user + system),
# peak RSS (/usr/bin/time -v: mapped file pages included), output size and
# the speed ratios to perf script; then the .pftrace's size against the
# perf.data and the JSON, and the time Perfetto's trace processor takes to
# load each output ("select 1"). Figures, not assertions: the load is
# printed too.
#
# Without TRACE it uses the issue's trace (about 100 MB), recorded once into
# $BENCH_DIR (common.sh):
#   perf sched record -- perf bench sched messaging -g 10 -l 2000
# Environment: SREP_BIN (default ./build/schedrep), RUNS (default 10), PERF
# (default perf), TRACE_PROCESSOR (default ../shared/tools/trace_processor_shell
# beside the source tree), KEEP=1 keeps the work directory.
RUNS=${RUNS:-10}
. "$(dirname "$0")/common.sh"
SREP=$SCHEDREP
TP=${TRACE_PROCESSOR:-$TOP/../shared/tools/trace_processor_shell}
[ -x "$SREP" ] || { echo "bench: no $SREP: build first (or set SREP_BIN)" >&2; exit 2; }
need /usr/bin/time time
need hyperfine hyperfine
work_dir
TRACE=$(big_trace "${1:-}")
size=$(stat -c %s "$TRACE")

echo "trace: $TRACE ($(echo "$size" | awk '{ printf "%.1f", $1 / 1e6 }') MB)"
echo "machine: $(nproc) CPUs, load: $(uptime | sed 's/.*load average: //')"
echo "schedrep: $SREP; $("$PERF" --version 2>/dev/null || echo "no perf")"
echo

# best wall seconds of RUNS runs (hyperfine: /usr/bin/time's 10 ms steps are
# an eighth of a conversion), then peak RSS (MB) and CPU seconds of one more
measure() {
	hyperfine --warmup 1 --runs "$RUNS" --export-csv "$WORK/h.csv" "$1" >/dev/null 2>&1
	best=$(awk -F, 'NR == 2 { print $7 }' "$WORK/h.csv")
	/usr/bin/time -v -o "$WORK/v" sh -c "exec $1" >/dev/null 2>&1
	awk -v w="$best" '/Maximum resident set size/ { rss = $NF / 1024 }
		/User time|System time/ { cpu += $NF }
		END { printf "%s %.1f %.2f", w, rss, cpu }' "$WORK/v"
}

printf '%-30s %8s %8s %8s %10s %8s %8s\n' tool "wall s" "cpu s" "RSS MB" "output MB" "x wall" "x cpu"
script_wall="" script_cpu=""
row() {
	name=$1 out=$2
	set -- $(measure "$3")
	o=$(stat -c %s "$out" 2>/dev/null || echo 0)
	[ -n "$script_wall" ] || { script_wall=$1; script_cpu=$3; }
	printf '%-30s %8.3f %8.2f %8.1f %10.2f %7.1fx %7.1fx\n' "$name" "$1" "$3" "$2" \
		"$(echo "$o" | awk '{ print $1 / 1e6 }')" \
		"$(echo "$script_wall $1" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')" \
		"$(echo "$script_cpu $3" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')"
}

if command -v "$PERF" >/dev/null 2>&1; then
	row "perf script" "$WORK/script.txt" "$PERF script -i '$TRACE' > '$WORK/script.txt'"
	rm -f "$WORK/script.txt"
else
	echo "(no perf: ratios are to the first schedrep row)"
fi
row "schedrep convert -f pftrace" "$WORK/t.pftrace" \
	"'$SREP' convert -q -f pftrace -o '$WORK/t.pftrace' '$TRACE'"
row "schedrep convert -f perfetto" "$WORK/t.json" \
	"'$SREP' convert -q -f perfetto -o '$WORK/t.json' '$TRACE'"

pf=$(stat -c %s "$WORK/t.pftrace")
js=$(stat -c %s "$WORK/t.json")
echo
echo "pftrace size: $(awk -v a="$pf" -v b="$size" 'BEGIN { printf "%.2f", a / b }')x the perf.data," \
	"$(awk -v a="$pf" -v b="$js" 'BEGIN { printf "%.2f", a / b }')x the JSON"
if [ -x "$TP" ] && "$TP" --version >/dev/null 2>&1; then
	for f in t.pftrace t.json; do
		set -- $(measure "'$TP' query '$WORK/$f' 'select 1'")
		printf 'trace processor load %s: %.2f s wall, %s s cpu, %s MB RSS\n' "$f" "$1" "$3" "$2"
	done
else
	echo "(no trace processor at $TP: load times not measured)"
fi
echo
echo "targets (issue 13): >= 20x perf script; <= 0.5x the perf.data; peak RSS <= 48 MiB"
