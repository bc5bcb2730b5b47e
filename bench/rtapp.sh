#!/bin/sh
# bench/rtapp.sh - how faithfully rt-app plays what "schedrep convert -f
# rt-app" writes, side by side with schedrep replay on the same traces.
# Prints figures, asserts nothing. Run as root (perf sched record), on a
# quiet machine: the figures are only as good as the CPUs the run gets.
#
#   bench/rtapp.sh [TRACE...]   default: corpus/emulated/{x86_64,arm64,s390x}-messaging.data
#
# SCHEDREP (default ./build/schedrep), PERF (default perf), RTAPP (default
# rt-app), ONLY (the workload's comm, default sched-messaging) and CALIB
# (rt-app's ns per loop; default: rt-app measures it once, on CPU0) can be
# set in the environment.
#
# rt-app turns a "run" of N µs into N µs / calibration loops, so its CPU
# time is only as exact as the calibration (a whole number of ns per loop)
# and the loop's speed while the workload runs: rt-app's own calibration
# (a loop timed alone on CPU0) said 16 and 25 ns on this 2-CPU machine in
# two runs a minute apart. So the bench calibrates on the workload: a first
# run with CALIB (default 20), whose recorded CPU time against the file's
# gives the ns per loop the workload actually got, then RUNS (default 3)
# measured runs with that figure; each is a row.
#
# For each trace, at scale 1 and with the same selection (--only ONLY):
#  1. per-task CPU time and the wakeups among the selected tasks in the
#     original (bench/fidelity.sh: sched_switch and sched_wakeup events);
#  2. the rt-app file, run by rt-app under perf sched record, with
#     "duration": -1 (rt-app ends when every task has); each rt-app thread
#     is matched to its recorded task through the file's "schedrep" object
#     (rt-app names a thread after its task key);
#  3. schedrep replay, recorded the same way, matched through its report.
# The CPU error of a task is |replayed - recorded| / recorded; the table
# shows its median and 95th percentile over the tasks, and the wakeups
# among the replayed threads against the original's. rt-app's start
# barrier adds one to three wakeups per task (its broadcast, then its
# mutex), and a waker that reaches a wakeup before its wakee waits for it
# (docs/rtapp.md: the handshake), a wakeup the other way: both are counted.
set -eu

SCHEDREP=${SCHEDREP:-./build/schedrep}
PERF=${PERF:-perf}
RTAPP=${RTAPP:-rt-app}
ONLY=${ONLY:-sched-messaging}
CALIB=${CALIB:-20}
RUNS=${RUNS:-3}
CORPUS=${SREP_CORPUS:-$(dirname "$0")/../../shared/corpus}

. "$(dirname "$0")/fidelity.sh"
fidelity_start bench/rtapp.sh
for tool in "$RTAPP" jq; do
	command -v "$tool" >/dev/null 2>&1 ||
		{ echo "bench/rtapp.sh: '$tool' is needed (apt-get install ${tool##*/})" >&2; exit 2; }
done
if [ $# -eq 0 ]; then
	set -- "$CORPUS/emulated/x86_64-messaging.data" "$CORPUS/emulated/arm64-messaging.data" \
		"$CORPUS/emulated/s390x-messaging.data"
fi

# "ORIG_TID RUN_TID" for an rt-app run: thread comm = task key -> schedrep.tasks[key].tid
rtapp_map() {
	jq -r '.schedrep.tasks | to_entries[] | "\(.key) \(.value.tid)"' "$1" >"$TMP/keys"
	tid_comms "$2" | awk 'FILENAME == ARGV[1] {orig[$1] = $2; next}
		{c = $0; sub(/^[0-9]+ /, "", c); if (c in orig) print orig[c], $1}' "$TMP/keys" -
}

# "TASK_TID REPLAY_TID" from a schedrep replay JSON report
report_map() {
	jq -r '.tasks[] | "\(.tid) \(.replay_tid)"' "$1"
}

# the figures of one run: MAP (orig tid, run tid), the run's perf.data; prints
# "MEDIAN% P95% WAKEUPS MATCHED FORWARD REVERSE EXTRA UNRELATED"
run_figures() {
	cpu_per_tid "$2" >"$TMP/run.cpu"
	errors "$TMP/tids" "$1" "$TMP/orig" "$TMP/run.cpu" 1 >"$TMP/run.err"
	cut -d' ' -f2 "$1" >"$TMP/run.tids"
	wake_pairs "$2" "$TMP/run.tids" >"$TMP/run.pairs"
	printf '%s %s %s %s\n' "$(stats "$TMP/run.err")" "$(wc -l <"$TMP/run.pairs")" \
		"$(wc -l <"$1")" "$(wake_classes "$1" "$TMP/orig.pairs" "$TMP/run.pairs")"
}

# one row: NAME TASKS ORIG_WAKEUPS PLAYER, then run_figures' fields
row() {
	printf "%-20s %5s %7s %6s  %5s%% %5s%% %7s %6s  %5s %5s %5s %5s\n" "$1" "$2" "$3" "$4" \
		"$5" "$6" "$7" "$(ratio "$7" "$3")" "$9" "${10}" "${11}" "${12}"
	[ "$8" = "$2" ] || echo "  ($8 of $2 threads matched to their task)"
}

# run_rtapp TRACE CALIB: the file at CALIB ns per loop, run by rt-app under
# perf sched record; leaves $TMP/rt.map and $TMP/rt.data
run_rtapp() {
	rm -rf "$TMP/logs"
	mkdir -p "$TMP/logs"
	"$SCHEDREP" convert -q -f rt-app --only "$ONLY" --calibration "$2" --duration -1 \
		--log-dir "$TMP/logs" -o "$TMP/w.json" "$1"
	"$PERF" sched record -q -o "$TMP/rt.data" -- "$RTAPP" "$TMP/w.json" >/dev/null 2>"$TMP/rt.err"
	rtapp_map "$TMP/w.json" "$TMP/rt.data" >"$TMP/rt.map"
}

# the ns per loop the workload got: CALIB * the run's CPU / the original's, over MAP
calibrated() {
	cpu_per_tid "$TMP/rt.data" | awk -v c="$1" 'FILENAME == ARGV[1] {m[$1] = $2; next}
		FILENAME == ARGV[2] {o[$1] = $2; next} {r[$1] = $2}
		END { for (t in m) { so += o[t]; sr += r[m[t]] }
		      printf "%d\n", so ? c * sr / so + 0.5 : c }' "$TMP/rt.map" "$TMP/orig" -
}

ratio() {
	echo "$1 $2" | awk '{printf "%.2f", $2 ? $1 / $2 : 0}'
}

echo "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average: //')"
printf "\n%-20s %5s %7s %6s  %-27s  %s\n" "" "" "" "" "CPU error          wakeups" \
	"wakeups by recorded pair"
printf "%-20s %5s %7s %6s  %6s %6s %7s %6s  %5s %5s %5s %5s\n" "trace" "tasks" "wakeups" "run" \
	"median" "p95" "among" "ratio" "fwd" "rev" "extra" "unrel"
for trace in "$@"; do
	name=$(basename "$trace" .data)
	run_rtapp "$trace" "$CALIB"
	# the tasks of the plan (replay's): the file's own list
	jq -r '.schedrep.tasks[].tid' "$TMP/w.json" | sort -n >"$TMP/tids"
	tasks=$(wc -l <"$TMP/tids")
	cpu_per_tid "$trace" >"$TMP/orig"
	wake_pairs "$trace" "$TMP/tids" >"$TMP/orig.pairs"
	orig_wakeups=$(wc -l <"$TMP/orig.pairs")
	calib=$(calibrated "$CALIB")
	i=1
	while [ "$i" -le "$RUNS" ]; do
		run_rtapp "$trace" "$calib"
		row "$name" "$tasks" "$orig_wakeups" rt-app $(run_figures "$TMP/rt.map" "$TMP/rt.data")
		i=$((i + 1))
	done
	"$PERF" sched record -q -o "$TMP/sr.data" -- \
		"$SCHEDREP" replay -q --only "$ONLY" --report "$TMP/sr.json" "$trace" >/dev/null 2>"$TMP/sr.err"
	report_map "$TMP/sr.json" >"$TMP/sr.map"
	row "$name" "$tasks" "$orig_wakeups" replay $(run_figures "$TMP/sr.map" "$TMP/sr.data")
	echo "  (rt-app at $calib ns per loop: $CALIB, corrected by a first run's CPU time)"
done
echo
echo "CPU error: per-task |run - recorded| / recorded; wakeups among: between the"
echo "replayed threads (the original's among its tasks); ratio: run / original."
echo "By recorded pair (bench/fidelity.sh wake_classes): fwd = a recorded waker->wakee"
echo "wakeup reproduced, rev = the other way (a waker that came first), extra = a"
echo "recorded pair more often than recorded, unrel = no recorded wakeup either way."
echo "Targets: median <= 5%, ratio within 0.9 .. 1.1"
echo "load after: $(uptime | sed 's/.*load average: //')"
