#!/bin/sh
# bench/record.sh [GROUPS LOOPS] - schedrep record against perf record with
# the same events and the same -m, recording -a while
# `perf bench sched messaging -g GROUPS -l LOOPS` runs (default 20 2000).
#
# Media: tmpfs (/dev/shm, file mode) and a slow medium: the recorder writes
# pipe mode (-o -) into a pipe that bench/slowcat.py drains at RATE bytes a
# second, so a write blocks exactly as on a slow disk, identically for both
# recorders and without devices, file systems or cgroup io limits.
#
# Ring sizes: -m 16 (64 KiB per CPU) and -m 1024 (schedrep's default, and
# perf sched record's). For each run it prints the samples recorded, the LOST
# records and events they count, the data-loss figure (schedrep info's: the
# union of the intervals around LOST records over the time span, the same
# computation for both files), the workload's wall time and its slowdown
# against runs without recording, and the recorder's CPU time (user + system,
# all its threads, GNU time). Figures are printed, never asserted: this
# machine is shared and noisy, so the load is printed with them.
#
# Env: RATE (slow medium, default 4M), PAGES ("16 1024"), MEDIA ("tmpfs slow"),
# OUT (scratch, default /dev/shm/schedrep-bench-record), SCHEDREP (build/schedrep).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
SCHEDREP=${SCHEDREP:-$TOP/build/schedrep}
NGROUPS=${1:-20}
LOOPS=${2:-2000}
RATE=${RATE:-4M}
PAGES=${PAGES:-16 1024}
MEDIA=${MEDIA:-tmpfs slow}
OUT=${OUT:-/dev/shm/schedrep-bench-record}
WORKLOAD="perf bench sched messaging -g $NGROUPS -l $LOOPS"
EVENTS="sched:sched_switch sched:sched_waking sched:sched_wakeup sched:sched_wakeup_new
	sched:sched_migrate_task sched:sched_process_fork sched:sched_process_exec
	sched:sched_process_exit sched:sched_process_free sched:sched_stat_runtime"

for p in perf python3 /usr/bin/time; do
	command -v $p >/dev/null || { echo "bench: needs $p" >&2; exit 2; }
done
[ -x "$SCHEDREP" ] || { echo "bench: build schedrep first ($SCHEDREP)" >&2; exit 2; }
rm -rf "$OUT"
mkdir -p "$OUT"
PERF_EVENTS=$(for e in $EVENTS; do printf -- '-e %s ' "$e"; done)

# the workload's own wall time, as perf bench prints it
workload() {
	$WORKLOAD 2>/dev/null | awk '/Total time/ {print $3}'
}

# record NAME MEDIUM PAGES: run one recorder around the workload
record() {
	name=$1 medium=$2 pages=$3
	f=$OUT/$name-$medium-$pages.data
	if [ "$name" = perf ]; then
		cmd="perf record -q -a -m $pages $PERF_EVENTS"
	else
		cmd="$SCHEDREP record -q -a -m $pages"
	fi
	rm -f "$OUT/pid"
	# the recorder writes its pid, then becomes the recorder (GNU time's child)
	run="/usr/bin/time -f '%U %S' -o '$OUT/time' sh -c 'echo \$\$ > $OUT/pid; exec $cmd"
	if [ "$medium" = tmpfs ]; then
		sh -c "$run -o $f' 2>/dev/null" &
	else
		sh -c "$run -o -' 2>/dev/null | python3 '$TOP/bench/slowcat.py' $RATE > '$f'" &
	fi
	job=$!
	sleep 2
	wall=$(workload)
	sleep 0.5
	kill -INT "$(cat "$OUT/pid")"
	wait $job || true
	cpu=$(tail -n 1 "$OUT/time" | awk '{print $1 + $2}')
	"$SCHEDREP" info -q "$f" >"$OUT/info" 2>/dev/null || true
	samples=$(awk '$1 == "SAMPLE" {print $2}' "$OUT/info")
	lostrec=$(awk '$1 == "LOST" {print $2}' "$OUT/info")
	lost=$(sed -n 's/^lost: *\([0-9]*\) events.*/\1/p' "$OUT/info")
	loss=$(sed -n 's/.*data loss \([0-9.]*\)%.*/\1/p' "$OUT/info")
	printf "%-7s %5s  %-9s %10s %7s %10s %7s%% %8s %7.2fx %7.2f\n" "$medium" "$pages" "$name" \
		"${samples:-0}" "${lostrec:-0}" "${lost:-0}" "${loss:-0.00}" "$wall" \
		"$(echo "$wall $BASE" | awk '{print $1 / $2}')" "$cpu"
	echo "$medium $pages $name ${loss:-0} $cpu" >>"$OUT/results"
	rm -f "$f"
}

echo "workload: $WORKLOAD; slow medium: pipe drained at $RATE/s; $(nproc) CPUs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
b1=$(workload)
b2=$(workload)
BASE=$(echo "$b1 $b2" | awk '{print ($1 + $2) / 2}')
echo "workload alone: $b1 s, $b2 s (mean $BASE s)"
printf "%-7s %5s  %-9s %10s %7s %10s %8s %8s %8s %7s\n" medium -m recorder samples LOST \
	"lost ev" "loss" "wall s" slowdown "cpu s"
: >"$OUT/results"
for medium in $MEDIA; do
	for pages in $PAGES; do
		record perf "$medium" "$pages"
		record schedrep "$medium" "$pages"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# ratios schedrep / perf per configuration
awk '{k = $1 " " $2} $3 == "perf" {pl[k] = $4; pc[k] = $5} $3 == "schedrep" {sl[k] = $4; sc[k] = $5}
	END { for (k in pl) {
		lr = pl[k] > 0 ? sprintf("%.2f", sl[k] / pl[k]) : (sl[k] > 0 ? "inf" : "both 0")
		cr = pc[k] > 0 ? sprintf("%.2f", sc[k] / pc[k]) : "-"
		printf "%-12s loss schedrep/perf: %-7s cpu schedrep/perf: %s\n", k, lr, cr } }' \
	"$OUT/results" | sort
