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
# all its threads, GNU time), also per sample kept (a recorder that loses
# most of the data also has less to write). Figures are printed, never asserted: this
# machine is shared and noisy, so the load is printed with them.
#
# perf runs twice: as it comes, and with -r 1 (its drain thread at real-time
# priority 1, which schedrep's drain takes by itself when allowed).
#
# Env: RATE (slow medium, default 4M), PAGES ("16 1024"), MEDIA ("tmpfs slow"),
# RECORDERS ("perf perf-r1 schedrep"),
# OUT (scratch, default /dev/shm/schedrep-bench-record), SCHEDREP (build/schedrep).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
SCHEDREP=${SCHEDREP:-$TOP/build/schedrep}
NGROUPS=${1:-20}
LOOPS=${2:-2000}
RATE=${RATE:-4M}
PAGES=${PAGES:-16 1024}
MEDIA=${MEDIA:-tmpfs slow}
RECORDERS=${RECORDERS:-perf perf-r1 schedrep}
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
	case $name in
	perf) cmd="perf record -q -a -m $pages $PERF_EVENTS" ;;
	perf-r1) cmd="perf record -q -r 1 -a -m $pages $PERF_EVENTS" ;;
	*) cmd="$SCHEDREP record -q -a -m $pages" ;;
	esac
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
	printf "%-7s %5s  %-9s %10s %7s %10s %7s%% %8s %7.2fx %7.2f %8.2f\n" "$medium" "$pages" "$name" \
		"${samples:-0}" "${lostrec:-0}" "${lost:-0}" "${loss:-0.00}" "$wall" \
		"$(echo "$wall $BASE" | awk '{print $1 / $2}')" "$cpu" \
		"$(echo "$cpu ${samples:-0}" | awk '{print $2 ? $1 / $2 * 1e6 : 0}')"
	echo "$medium $pages $name ${loss:-0} $cpu" >>"$OUT/results"
	rm -f "$f"
}

echo "workload: $WORKLOAD; slow medium: pipe drained at $RATE/s; $(nproc) CPUs"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
b1=$(workload)
b2=$(workload)
BASE=$(echo "$b1 $b2" | awk '{print ($1 + $2) / 2}')
echo "workload alone: $b1 s, $b2 s (mean $BASE s)"
printf "%-7s %5s  %-9s %10s %7s %10s %8s %8s %8s %7s %8s\n" medium -m recorder samples LOST \
	"lost ev" "loss" "wall s" slowdown "cpu s" "us/smpl"
: >"$OUT/results"
for medium in $MEDIA; do
	for pages in $PAGES; do
		for r in $RECORDERS; do
			record "$r" "$medium" "$pages"
		done
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# ratios schedrep / each perf, per configuration
awk '{k = $1 " " $2; loss[k, $3] = $4; cpu[k, $3] = $5; keys[k] = 1; if ($3 != "schedrep") peers[$3] = 1}
	END { for (k in keys) for (p in peers) {
		if (!((k, p) in loss)) continue
		pl = loss[k, p]; sl = loss[k, "schedrep"]; pc = cpu[k, p]; sc = cpu[k, "schedrep"]
		lr = pl > 0 ? sprintf("%.2f", sl / pl) : (sl > 0 ? "inf" : "both 0")
		cr = pc > 0 ? sprintf("%.2f", sc / pc) : "-"
		printf "%-11s vs %-8s loss ratio %-7s cpu ratio %s\n", k, p, lr, cr } }' \
	"$OUT/results" | sort
