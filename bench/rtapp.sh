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
# gives the ns per loop the workload actually got (to the hundredth: the
# file keeps the fraction, rt-app 1.0 reading whole ns). rt-app also spends CPU
# of its own on every event (a wait, a wake, a sleep: futex and nanosleep
# calls, the switches), added to the bursts around it: the same first run
# gives that cost, by least squares over the tasks of
#     run CPU = a * file's runs + b * events    (each task weighted 1/recorded CPU)
# (ns per loop: CALIB * a; event cost: b ns). Then RUNS (default 3) pairs
# of measured runs: "rt-app" with the ns per loop from the total CPU alone
# and no event cost, "rt-app+ec" with the fit's ns per loop and
# --event-cost b; each is a row.
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
# among the replayed threads against the original's. rt-app's start adds
# three wakeups per task (its own thread barrier, the file's barrier
# "start" and the queue on that barrier's mutex), and a waker that reaches a wakeup before its wakee waits for it
# (docs/rtapp.md: the handshake), a wakeup the other way: both are counted.
# Beside the whole run's count, "after" counts the wakeups after rt-app's
# own start (its threads' barrier, the file's barrier "start" and the
# queue on that barrier's mutex: bench/fidelity.sh after_start says how it
# is found); its ratio is against the original's whole count.
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

# the figures of one run: MAP (orig tid, run tid), the run's perf.data, and
# "start" when the player is rt-app; prints "MEDIAN% P95% WAKEUPS MATCHED
# FORWARD REVERSE EXTRA UNRELATED AFTER_START" (AFTER_START: - when not rt-app)
run_figures() {
	cpu_per_tid "$2" >"$TMP/run.cpu"
	errors "$TMP/tids" "$1" "$TMP/orig" "$TMP/run.cpu" 1 >"$TMP/run.err"
	cut -d' ' -f2 "$1" >"$TMP/run.tids"
	wake_pairs "$2" "$TMP/run.tids" >"$TMP/run.pairs"
	after=-
	if [ "${3:-}" = start ]; then
		after_start "$TMP/run.pairs" "$(wc -l <"$1")" >"$TMP/run.after"
		[ ! -s "$TMP/run.after" ] || after=$(wc -l <"$TMP/run.after")
	fi
	printf '%s %s %s %s %s\n' "$(stats "$TMP/run.err")" "$(wc -l <"$TMP/run.pairs")" \
		"$(wc -l <"$1")" "$(wake_classes "$1" "$TMP/orig.pairs" "$TMP/run.pairs")" "$after"
}

# one row: NAME TASKS ORIG_WAKEUPS PLAYER, then run_figures' fields
row() {
	printf "%-18s %5s %7s %9s  %5s%% %5s%% %6s %5s %6s %5s  %5s %5s %5s %5s  %s\n" "$1" \
		"$2" "$3" "$4" "$5" "$6" "$7" "$(ratio "$7" "$3")" "${13}" "$(ratio "${13}" "$3")" \
		"$9" "${10}" "${11}" "${12}" "${14}"
	[ "$8" = "$2" ] || echo "  ($8 of $2 threads matched to their task)"
}

# run_rtapp TRACE CALIB [EVENT_COST]: the file at CALIB ns per loop, run by
# rt-app under perf sched record; leaves $TMP/rt.map and $TMP/rt.data
run_rtapp() {
	rm -rf "$TMP/logs"
	mkdir -p "$TMP/logs"
	"$SCHEDREP" convert -q -f rt-app --only "$ONLY" --calibration "$2" --duration -1 \
		--event-cost "${3:-0}" --log-dir "$TMP/logs" -o "$TMP/w.json" "$1"
	"$PERF" sched record -q -o "$TMP/rt.data" -- "$RTAPP" "$TMP/w.json" >/dev/null 2>"$TMP/rt.err"
	rtapp_map "$TMP/w.json" "$TMP/rt.data" >"$TMP/rt.map"
}

# the ns per loop the workload got: CALIB * the run's CPU / the original's, over MAP
calibrated() {
	cpu_per_tid "$TMP/rt.data" | awk -v c="$1" 'FILENAME == ARGV[1] {m[$1] = $2; next}
		FILENAME == ARGV[2] {o[$1] = $2; next} {r[$1] = $2}
		END { for (t in m) { so += o[t]; sr += r[m[t]] }
		      printf "%.2f\n", so ? c * sr / so : c }' "$TMP/rt.map" "$TMP/orig" -
}

# "TID RUN_US EVENTS" per task of the file: its runs and its waits, wakes and
# sleeps after the start barrier (the events that cost rt-app CPU of its own)
file_load() {
	jq -r '.schedrep.tasks as $o | .tasks | to_entries[] |
		[.value.phases.p0 | to_entries[] | select(.key != "loop")] as $ev |
		($ev | map(.key | startswith("barrier")) | index(true)) as $b | $ev[$b + 1:] as $post |
		def n(k): $post | map(select(.key | startswith(k))) | length;
		"\($o[.key].tid) \($post | map(select(.key | startswith("run")) | .value) | add // 0) " +
		"\(n("wait") + n("signal") + n("sleep"))"' "$1"
}

# "NS_PER_LOOP EVENT_COST_NS A B" from the run at CALIB ns per loop: the
# least squares fit of each task's CPU = a * its runs + b * its events,
# weighted by 1 / its recorded CPU (relative errors); b < 0: a alone
fitted() {
	file_load "$TMP/w.json" >"$TMP/load"
	cpu_per_tid "$TMP/rt.data" | awk -v c="$1" 'FILENAME == ARGV[1] {m[$1] = $2; next}
		FILENAME == ARGV[2] {o[$1] = $2; next}
		FILENAME == ARGV[3] {x[$1] = $2 * 1000; e[$1] = $3; next} {r[$1] = $2}
		END {	for (t in m) if (o[t] > 0 && (m[t] in r)) {
				w = 1 / (o[t] * o[t]); y = r[m[t]]
				s11 += w * x[t] * x[t]; s12 += w * x[t] * e[t]; s22 += w * e[t] * e[t]
				s1y += w * x[t] * y; s2y += w * e[t] * y
			}
			det = s11 * s22 - s12 * s12
			a = det ? (s1y * s22 - s2y * s12) / det : 0
			b = det ? (s11 * s2y - s12 * s1y) / det : 0
			if (b < 0 || a <= 0) { b = 0; a = s11 ? s1y / s11 : 1 }
			printf "%.2f %d %.4f %.0f\n", c * a, b + 0.5, a, b }' \
		"$TMP/rt.map" "$TMP/orig" "$TMP/load" -
}

ratio() {
	echo "$1 $2" | awk '{if ($1 == "-") printf "-"; else printf "%.2f", $2 ? $1 / $2 : 0}'
}

load() {
	cut -d' ' -f1-3 /proc/loadavg
}

echo "machine: $(nproc) CPUs; load before: $(load)"
printf "\n%-18s %5s %7s %9s  %-13s  %-25s  %s\n" "" "" "" "" "CPU error" \
	"wakeups among the tasks" "whole run by recorded pair"
printf "%-18s %5s %7s %9s  %6s %6s %6s %5s %6s %5s  %5s %5s %5s %5s\n" "trace" "tasks" \
	"wakeups" "run" "median" "p95" "whole" "ratio" "after" "ratio" "fwd" "rev" "extra" "unrel"
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
	fitted "$CALIB" >"$TMP/fit"
	read -r fit_calib cost fit_a fit_b <"$TMP/fit"
	i=1
	while [ "$i" -le "$RUNS" ]; do
		run_rtapp "$trace" "$calib"
		# shellcheck disable=SC2046 # run_figures' fields are row's arguments
		row "$name" "$tasks" "$orig_wakeups" rt-app \
			$(run_figures "$TMP/rt.map" "$TMP/rt.data" start) "load $(load)"
		run_rtapp "$trace" "$fit_calib" "$cost"
		# shellcheck disable=SC2046
		row "$name" "$tasks" "$orig_wakeups" rt-app+ec \
			$(run_figures "$TMP/rt.map" "$TMP/rt.data" start) "load $(load)"
		i=$((i + 1))
	done
	"$PERF" sched record -q -o "$TMP/sr.data" -- \
		"$SCHEDREP" replay -q --only "$ONLY" --report "$TMP/sr.json" "$trace" >/dev/null 2>"$TMP/sr.err"
	report_map "$TMP/sr.json" >"$TMP/sr.map"
	# shellcheck disable=SC2046
	row "$name" "$tasks" "$orig_wakeups" replay $(run_figures "$TMP/sr.map" "$TMP/sr.data") \
		"load $(load)"
	echo "  (first run at $CALIB ns per loop; rt-app: $calib ns per loop, from its total CPU;"
	echo "   rt-app+ec: $fit_calib ns per loop and --event-cost $cost, from the fit a = $fit_a, b = $fit_b ns)"
done
echo
echo "CPU error: per-task |run - recorded| / recorded; wakeups among the tasks: between"
echo "the replayed threads (the original's among its tasks) in the whole run, and after"
echo "rt-app's own start (its barriers); ratio: run / original's whole count."
echo "By recorded pair (bench/fidelity.sh wake_classes): fwd = a recorded waker->wakee"
echo "wakeup reproduced, rev = the other way (a waker that came first), extra = a"
echo "recorded pair more often than recorded, unrel = no recorded wakeup either way."
echo "Targets: median <= 5%, ratio within 0.9 .. 1.1"
echo "load after: $(load) (the load average counts the runs' own threads)"
