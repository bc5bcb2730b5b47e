#!/bin/sh
# bench/replay.sh - how faithfully schedrep replay and perf sched replay
# reproduce the per-task CPU time of a recorded workload, and whether
# --scale 10 gives a tenth of the recorded span. Prints figures, asserts
# nothing. Run as root (perf sched record), on a quiet machine: the figures
# are only as good as the CPUs the replay gets.
#
#   bench/replay.sh [TRACE...]      default: corpus/emulated/{x86_64,arm64,s390x}-messaging.data
#
# SCHEDREP (default ./build/schedrep), PERF (default perf), ONLY (the
# workload's comm, default sched-messaging) can be set in the environment.
#
# For each trace:
#  1. per-task on-CPU time of the original, from its sched_switch events
#     (perf script; switch-in to switch-out per CPU);
#  2. schedrep replay --only ONLY, recorded with perf sched record; the same
#     per-task figure for each mockup thread, matched to its task by the
#     report's replay_tid;
#  3. perf sched replay -r 1 of the whole trace, recorded the same way; its
#     k-th thread (fork order) replays perf's "task k", matched by pid;
#  4. schedrep replay --scale 10: the replay span (its report) against the
#     recorded span / 10, and the CPUs in use on average (CPU time / span)
#     in the recording and in the replay: a replay that gets fewer CPUs
#     than the recording used (a busy machine) cannot keep the span.
# The CPU error of a task is |replayed - recorded| / recorded over the tasks
# schedrep replays; the table shows its median and 95th percentile.
set -eu

SCHEDREP=${SCHEDREP:-./build/schedrep}
PERF=${PERF:-perf}
ONLY=${ONLY:-sched-messaging}
CORPUS=${SREP_CORPUS:-$(dirname "$0")/../../shared/corpus}

. "$(dirname "$0")/fidelity.sh"
fidelity_start bench/replay.sh
if [ $# -eq 0 ]; then
	set -- "$CORPUS/emulated/x86_64-messaging.data" "$CORPUS/emulated/arm64-messaging.data" \
		"$CORPUS/emulated/s390x-messaging.data"
fi

# "TASK_TID REPLAY_TID" from a schedrep replay JSON report (cJSON's layout)
report_map() {
	awk -F'[:,]' '/^\t\t\t"tid":/ {tid = $2 + 0} /^\t\t\t"replay_tid":/ {print tid, $2 + 0}' "$1"
}

summary_num() {
	awk -F'[:,]' -v k="\"$2\"" '$1 ~ k {gsub(/[ \t]/, "", $2); print $2; exit}' "$1"
}

# "TASK_PID REPLAY_TID" for perf sched replay: its k-th thread (the forks of
# the process that forked most) replays its "task k"
perf_map() {
	"$PERF" script -F event,trace -i "$2" 2>/dev/null | awk '/sched_process_fork/ {
		match($0, / pid=[0-9]+/); parent = substr($0, RSTART + 5, RLENGTH - 5)
		match($0, /child_pid=[0-9]+/); child = substr($0, RSTART + 10, RLENGTH - 10)
		n[parent]++; kid[parent, n[parent]] = child
	}
	END {	for (p in n) if (n[p] > best) { best = n[p]; main = p }
		for (i = 1; i <= best; i++) print i - 1, kid[main, i] }' >"$TMP/forks"
	awk 'FILENAME == ARGV[1] {thread[$1] = $2; next}
	     /^task +[0-9]+ \(/ {gsub(/[():,]/, " "); if ($2 in thread) print $(NF - 2), thread[$2]}' \
		"$TMP/forks" "$1"
}

echo "machine: $(nproc) CPUs; load before: $(uptime | sed 's/.*load average: //')"
printf "\n%-24s %5s  %-21s %-21s  %-29s %s\n" "" "" "CPU error: schedrep" "perf sched replay" \
	"span at --scale 10 (schedrep)" "CPUs in use"
printf "%-24s %5s  %-21s %-21s  %9s %9s %9s  %s\n" "trace" "tasks" "median  p95" "median  p95" \
	"recorded" "replayed" "ratio" "rec/replay"
for trace in "$@"; do
	name=$(basename "$trace" .data)
	cpu_per_tid "$trace" >"$TMP/orig"
	# schedrep, scale 1
	"$PERF" sched record -q -o "$TMP/sr.data" -- \
		"$SCHEDREP" replay -q --only "$ONLY" --report "$TMP/sr.json" "$trace" >/dev/null 2>"$TMP/sr.err"
	report_map "$TMP/sr.json" >"$TMP/sr.map"
	cut -d' ' -f1 "$TMP/sr.map" >"$TMP/tids"
	cpu_per_tid "$TMP/sr.data" >"$TMP/sr.cpu"
	errors "$TMP/tids" "$TMP/sr.map" "$TMP/orig" "$TMP/sr.cpu" 1 >"$TMP/sr.err1"
	# perf sched replay, once
	"$PERF" sched record -q -o "$TMP/psr.data" -- \
		"$PERF" sched replay -r 1 -i "$trace" >"$TMP/psr.txt" 2>"$TMP/psr.err"
	perf_map "$TMP/psr.txt" "$TMP/psr.data" >"$TMP/psr.map"
	cpu_per_tid "$TMP/psr.data" >"$TMP/psr.cpu"
	errors "$TMP/tids" "$TMP/psr.map" "$TMP/orig" "$TMP/psr.cpu" 1 >"$TMP/psr.err1"
	# schedrep, scale 10 (not recorded: the report has the span)
	"$SCHEDREP" replay -q --only "$ONLY" --scale 10 --report "$TMP/sr10.json" "$trace" >/dev/null
	rec=$(summary_num "$TMP/sr10.json" recorded_span_ns)
	rep=$(summary_num "$TMP/sr10.json" replayed_span_ns)
	rcpu=$(summary_num "$TMP/sr10.json" recorded_cpu_ns)
	pcpu=$(summary_num "$TMP/sr10.json" replayed_cpu_ns)
	printf "%-24s %5s  %-21s %-21s  %7.1fms %7.1fms %9.3f  %4.2f/%4.2f\n" "$name" \
		"$(wc -l <"$TMP/tids")" \
		"$(stats "$TMP/sr.err1" | awk '{printf "%5s%% %6s%%", $1, $2}')" \
		"$(stats "$TMP/psr.err1" | awk '{printf "%5s%% %6s%%", $1, $2}')" \
		"$(echo "$rec" | awk '{print $1 / 10 / 1e6}')" "$(echo "$rep" | awk '{print $1 / 1e6}')" \
		"$(echo "$rep $rec" | awk '{print $1 / ($2 / 10)}')" \
		"$(echo "$rcpu $rec" | awk '{print $1 / $2}')" "$(echo "$pcpu $rep" | awk '{print $1 / $2}')"
done
echo
echo "ratio: replayed span / (recorded span / 10); target within 0.9 .. 1.1"
echo "CPU error target: schedrep median <= 5% and below perf sched replay's"
echo "load after: $(uptime | sed 's/.*load average: //')"
