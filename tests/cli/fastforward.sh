#!/bin/sh
# schedrep fastforward on this machine, with the software event task-clock
# (no hardware counters needed) and tests/lib/ff_spin, a CPU-bound program
# whose output is a checksum: every target is reached at or past its count
# (never before), the skid is reported, --only counts the first thread
# alone, the action runs once per target, in order, with {n} {pid} {count}
# {dir} replaced, the workload prints what it prints unobserved, an early
# exit, a failed action, an interrupt and a plan are handled, and nothing
# is left stopped.
. "$(dirname "$0")/lib.sh"
set -e
SPIN="$(dirname "$SREP_BIN")/tests/lib/ff_spin"
[ -x "$SPIN" ] || { echo "SKIP: $SPIN not built" >&2; exit 77; }
cd "$TMP"

# json FILE EXPR: a value of the log, by python3
json() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}
command -v python3 >/dev/null || { echo "SKIP: python3 missing (reads the JSON log)" >&2; exit 77; }

# gone PID: the process has exited (or is a zombie): nothing left stopped or running
gone() {
	st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$1/status" 2>/dev/null || true)
	[ -z "$st" ] || [ "$st" = Z ] || fail "process $1 was left in state $st"
}

ROUNDS=${SREP_FF_ROUNDS:-400000000}
"$SPIN" "$ROUNDS" 1 >base.out

# the event: task-clock must open here, or there is nothing to test (a
# workload of ~50 ms: target 0 is reached once the tool stops it, and a loaded
# machine may not run the tool before a 1 ms workload has ended)
set +e
"$SREP_BIN" fastforward -q -o probe -e task-clock --at 0 --no-action -- "$SPIN" 20000000 >probe.out 2>probe.err
st=$?
set -e
if [ $st != 0 ]; then
	cat probe.err >&2
	grep -q "no permission" probe.err && { echo "SKIP: perf_event_open not allowed here" >&2; exit 77; }
	fail "task-clock run failed"
fi

# the workload's CPU time, to choose targets it reaches
expect_exit 0 "$SREP_BIN" fastforward -q -o calib -e task-clock --at 0 --no-action -- "$SPIN" "$ROUNDS" 1
total=$(json calib/fastforward.json "d['workload']['final_count']")
cmp -s base.out "$TMP/out" || fail "the calibration run printed something else"
step=$((total / 10))
targets="$step,$((2 * step)),$((3 * step)),$((4 * step)),$((5 * step))"

# --only counts the first process's thread alone: its child spins as long, so
# the whole tree's count (the default, inherited) is about twice --only's
expect_exit 0 "$SREP_BIN" fastforward -q -o only -e task-clock --only --at 0 --no-action -- \
	"$SPIN" "$ROUNDS" 1
cmp -s base.out "$TMP/out" || fail "--only: the workload printed something else"
alone=$(json only/fastforward.json "d['workload']['final_count']")
awk -v t="$total" -v a="$alone" 'BEGIN { exit !(a > 0 && t / a > 1.6 && t / a < 2.4) }' ||
	fail "--only counted $alone ns, the whole tree $total ns: not about half"

# five targets, an action writing one file per call and one line per call in order
expect_exit 0 "$SREP_BIN" fastforward -o ff -e task-clock --at "$targets" \
	--exec 'echo "{n} {pid} {count} {dir}" >>calls; echo {n} >{dir}/mark' -- "$SPIN" "$ROUNDS" 1
cmp -s base.out out || { diff base.out out >&2; fail "the observed workload printed something else"; }
cat err >&2
log=ff/fastforward.json
[ "$(json $log "len(d['targets'])")" = 5 ] || fail "not 5 targets in the log"
pid=$(json $log "d['workload']['pid']")
gone "$pid"
[ "$(json $log "d['workload']['exit_code']")" = 0 ] || fail "workload exit status not logged as 0"
n=0
for req in $(echo "$targets" | tr , ' '); do
	n=$((n + 1))
	line=$(sed -n "${n}p" calls)
	reached=$(json $log "d['targets'][$n-1]['reached']")
	skid=$(json $log "d['targets'][$n-1]['skid']")
	dir=$(printf 'ff/%03d-%s' $n "$req")
	[ "$line" = "$n $pid $reached $dir" ] || fail "call $n: '$line', expected '$n $pid $reached $dir'"
	[ "$(cat "$dir/mark")" = $n ] || fail "call $n did not write into $dir"
	[ "$(json $log "d['targets'][$n-1]['requested']")" = "$req" ] || fail "target $n: requested differs"
	[ "$reached" -ge "$req" ] || fail "target $n: stopped at $reached, before $req"
	[ "$skid" = $((reached - req)) ] || fail "target $n: skid $skid is not reached - requested"
	[ "$skid" -lt "$step" ] || fail "target $n: skid $skid is a whole interval ($step)"
	[ "$(json $log "d['targets'][$n-1]['action']['exit_code']")" = 0 ] || fail "action $n status"
done
[ "$(wc -l <calls)" = 5 ] || fail "the action ran $(wc -l <calls) times, not 5"
# the child process is stopped with its parent while it runs (targets 1-5 are within its half)
[ "$(json $log "d['targets'][0]['processes']")" = 2 ] || fail "the child process was not in the stopped tree"
grep -q "skid median [+-][0-9]* ns (.*), max [+-][0-9]* ns" err || fail "no skid figures in the summary"
echo "fastforward: interval $step ns, skid median $(json $log "d['skid']['median']") ns," \
	"max $(json $log "d['skid']['max']") ns ($(json $log "round(100*d['skid']['max_fraction'],3)")% of the interval)" >&2

# --exact: never further below a target than the tolerance
expect_exit 0 "$SREP_BIN" fastforward -q -o exact -e task-clock --at "$targets" --exact \
	--tolerance $((step / 20)) --no-action -- "$SPIN" "$ROUNDS" 1
cmp -s base.out out || fail "--exact: the workload printed something else"
json exact/fastforward.json "all(t['reached'] + $((step / 20)) >= t['requested'] for t in d['targets'])" |
	grep -qx True || fail "--exact stopped further below a target than the tolerance"

# a workload that exits before its target: one line, exit 1, the log says so
expect_exit 1 "$SREP_BIN" fastforward -o early -e task-clock --at "$step,$((total * 100))" --no-action \
	-- "$SPIN" "$ROUNDS" 1
cmp -s base.out out || fail "early exit: the workload printed something else"
grep -q "the workload exited at [0-9]* ns, before target 2 ($((total * 100)))" err || fail "no early-exit message"
[ "$(json early/fastforward.json "d['workload']['exited_before_target']")" = $((total * 100)) ] ||
	fail "the log does not say which target was missed"

# a failed action stops with its status and output; --on-interrupt kill leaves no workload
expect_exit 1 "$SREP_BIN" fastforward -o fail -e task-clock --at "$targets" --on-interrupt kill \
	--exec 'echo disk full; exit 3' -- "$SPIN" "$ROUNDS" 1
grep -q "target 1: the action exited with status 3" err || fail "the failed action's status is not reported"
grep -qx "disk full" err || fail "the failed action's output is not shown"
[ "$(json fail/fastforward.json "d['workload']['killed']")" = True ] || fail "the workload was not killed"
gone "$(json fail/fastforward.json "d['workload']['pid']")"

# --keep-going: every target, every failure reported, exit 1
expect_exit 1 "$SREP_BIN" fastforward -o keep -e task-clock --at "$targets" --keep-going \
	--exec 'exit 4' -- "$SPIN" "$ROUNDS" 1
[ "$(grep -c "the action exited with status 4" err)" = 5 ] || fail "--keep-going did not run every action"
cmp -s base.out out || fail "--keep-going: the workload printed something else"

# a plan from 'schedrep simpoint': its points' starts, in increasing order
cat >plan.json <<PLAN
{"version":1,"event":"task-clock","unit":"ns","interval":$step,"total":$total,"points":[
 {"index":7,"cluster":0,"start":$((3 * step)),"end":$((4 * step)),"weight":0.5,"time_ns":0,"threads":[]},
 {"index":2,"cluster":1,"start":$step,"end":$((2 * step)),"weight":0.5,"time_ns":0,"threads":[]}]}
PLAN
expect_exit 0 "$SREP_BIN" fastforward -q -o plan --plan plan.json --no-action -- "$SPIN" "$ROUNDS" 1
[ "$(json plan/fastforward.json "[(t['plan_point'], t['requested']) for t in d['targets']]")" = \
  "[(2, $step), (7, $((3 * step)))]" ] || fail "the plan's points were not taken in order of start"

# SIGINT during an action, --on-interrupt kill: exit 130, workload killed, log complete
"$SREP_BIN" fastforward -q -o intr -e task-clock --at "$targets" --on-interrupt kill \
	--exec 'touch acted; sleep 1' -- "$SPIN" "$ROUNDS" 1 >intr.out 2>intr.err &
ff=$!
i=0
while [ ! -f acted ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $ff
set +e
wait $ff
st=$?
set -e
[ $st = 130 ] || { cat intr.err >&2; fail "interrupted run exited $st, not 130"; }
[ "$(json intr/fastforward.json "(d['workload']['interrupted'], d['workload']['killed'], len(d['targets']))")" = \
  "(True, True, 1)" ] || fail "the interrupted run's log is not complete"
gone "$(json intr/fastforward.json "d['workload']['pid']")"

# no criu for the default action: one line saying so, before the workload runs
set +e
env PATH=/nonexistent "$SREP_BIN" fastforward -o nocriu -e task-clock --at 1M -- "$SPIN" 1000 \
	>nocriu.out 2>nocriu.err
st=$?
set -e
[ $st = 1 ] && [ "$(wc -l <nocriu.err)" = 1 ] && grep -q "criu is not installed" nocriu.err &&
	[ ! -s nocriu.out ] || { cat nocriu.err >&2; fail "no clear line for a missing criu (exit $st)"; }

# no permission to count (an unprivileged user where perf_event_paranoid forbids it): one line
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	npdir=$(mktemp -d "${TMPDIR:-/tmp}/schedrep-np-XXXXXX")	# where that user may write
	chmod 777 "$npdir"
	set +e
	setpriv --reuid=65534 --regid=65534 --clear-groups "$SREP_BIN" fastforward -o "$npdir/np" \
		-e task-clock --at 1M --no-action -- "$SPIN" 1000 >np.out 2>np.err
	st=$?
	set -e
	rm -rf "$npdir"
	if [ $st = 0 ]; then
		part_skipped "an unprivileged user may count here: the no-permission message is not tested"
	else
		[ "$(wc -l <np.err)" = 1 ] && grep -q "no permission to count 'task-clock'.*perf_event_paranoid" np.err ||
			{ cat np.err >&2; fail "no clear line without permission to count (exit $st)"; }
	fi
else
	part_skipped "not root or no setpriv: the no-permission message is not tested"
fi

# no PMU here: instructions:u is one clear line naming the event and the way out
set +e
"$SREP_BIN" fastforward -o hw --at 1M --no-action -- "$SPIN" 1000 >hw.out 2>hw.err
st=$?
set -e
if [ $st = 0 ]; then
	part_skipped "this machine counts instructions: the no-PMU message is not tested"
else
	[ "$(wc -l <hw.err)" = 1 ] && grep -q "'instructions:u'.*task-clock" hw.err ||
		{ cat hw.err >&2; fail "no clear message for a missing hardware counter"; }
fi
exit 0
