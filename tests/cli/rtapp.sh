#!/bin/sh
# schedrep convert -f rt-app: the round trip against replay's plan. On the
# bundled sample (default selection) and, with the corpus, on every
# emulated messaging trace (--only sched-messaging --children): the rt-app
# file has the tasks of `replay --dry-run` (tid, comm), each task's "run"
# events add up to its recorded CPU time (to the µs, from replay's JSON
# report), and its wakeups are replay's: for every wakeup N one task (the
# wakee) holds mutex "mN" from the start and waits on condition "cN" with
# it, then unlocks it; one other task (the waker) locks and unlocks "mN"
# then signals "cN"; the per-task counts equal the dry run's wait and wake
# columns, every lock is balanced by an unlock, and the wakeups total its
# paired wakeups.
# Then the options' usage errors. Running rt-app is rtapp-corpus.sh.
. "$(dirname "$0")/lib.sh"
set -e
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is not installed"; exit 77; }

# per task of an rt-app file: "TID COMM RUN_US WAITS WAKES PRELOCKS BALANCED"
# (BALANCED: 1 when the locks after the start are the wakes, and the
# unlocks the waits plus the wakes)
file_tasks() {
	jq -r '.schedrep.tasks as $o | .tasks | to_entries[] | $o[.key] as $t |
		[.value.phases.p0 | to_entries[] | select(.key != "loop")] as $ev |
		($ev | map(.key | startswith("barrier")) | index(true)) as $b |
		$ev[$b + 1:] as $post |
		def n(k): $post | map(select(.key | startswith(k))) | length;
		[$t.tid, $t.comm,
		 ($post | map(select(.key | startswith("run")) | .value) | add // 0),
		 n("wait"), n("signal"), $b,
		 (if n("lock") == n("signal") and n("unlock") == n("wait") + n("signal")
		  then 1 else 0 end)] |
		map(tostring) | join(" ")' "$1" | sort -n
}

# "ID waker|wakee TID" for every wakeup of an rt-app file: the wakee holds
# mN from the start and waits on cN with it, the waker signals cN
file_edges() {
	jq -r '.schedrep.tasks as $o | .tasks | to_entries[] | $o[.key].tid as $tid |
		[.value.phases.p0 | to_entries[] | select(.key != "loop")] as $ev |
		($ev | map(.key | startswith("barrier")) | index(true)) as $b |
		($ev[:$b][] | "\(.value | ltrimstr("m")) held \($tid)"),
		($ev[$b + 1:][] | select(.key | startswith("wait")) |
		 select(.value.mutex == "m" + (.value.ref | ltrimstr("c"))) |
		 "\(.value.ref | ltrimstr("c")) wakee \($tid)"),
		($ev[$b + 1:][] | select(.key | startswith("signal")) |
		 "\(.value | ltrimstr("c")) waker \($tid)")' "$1"
}

# per task of an rt-app file: "TID RUN_US COST_EVENTS": its runs after the
# start barrier, and its events that cost rt-app CPU (--event-cost): waits,
# wakes (their signal) and sleeps, the start's sleep included
file_costs() {
	jq -r '.schedrep.tasks as $o | .tasks | to_entries[] | $o[.key] as $t |
		[.value.phases.p0 | to_entries[] | select(.key != "loop")] as $ev |
		($ev | map(.key | startswith("barrier")) | index(true)) as $b | $ev[$b + 1:] as $post |
		def n(k): $post | map(select(.key | startswith(k))) | length;
		[$t.tid, ($post | map(select(.key | startswith("run")) | .value) | add // 0),
		 n("wait") + n("signal") + n("sleep")] | map(tostring) | join(" ")' "$1" | sort -n
}

# every event but the runs, in order, keys without their number: what --event-cost keeps
file_others() {
	jq -r '.tasks | to_entries[] | .key as $k | .value.phases.p0 | to_entries[] |
		select(.key | startswith("run") | not) |
		"\($k) \(.key | sub("[0-9]+$"; "")) \(.value | tojson)"' "$1"
}

# event_cost TRACE [SELECTION...]: --event-cost takes its cost off the runs
# and touches nothing else. At 2 µs a task's runs drop by exactly 2 µs per
# event (the start's sleep, written when the task starts after the origin,
# costs nothing); at 2 s, more than any task's CPU, a task with an event has
# no run left (never below 0) and one without keeps its CPU.
event_cost() {
	trace=$1
	shift
	file_costs "$TMP/w.json" | sort | join - "$TMP/starts" >"$TMP/c0"
	for cost in 2000 2000000000; do
		expect_exit 0 "$SREP_BIN" convert -q -f rt-app --event-cost "$cost" "$@" \
			-o "$TMP/wc.json" "$trace"
		file_others "$TMP/w.json" >"$TMP/a"
		file_others "$TMP/wc.json" >"$TMP/b"
		diff -u "$TMP/a" "$TMP/b" >&2 || fail "$trace: --event-cost $cost changed more than runs"
		bad=$(file_costs "$TMP/wc.json" | sort | join "$TMP/c0" - | awk -v c="$cost" '
			{ev = $3 - $4; want = c < 1e9 ? $2 - ev * c / 1000 : (ev ? 0 : $2)
			 if ($5 != want || $6 != $3) print $1, $5, "us, expected", want}')
		[ -z "$bad" ] || fail "$trace: --event-cost $cost: $bad"
	done
}

# round_trip TRACE [SELECTION...]
round_trip() {
	trace=$1
	shift
	expect_exit 0 "$SREP_BIN" convert -q -f rt-app "$@" -o "$TMP/w.json" "$trace"
	expect_exit 0 "$SREP_BIN" replay --dry-run "$@" "$trace"
	# the dry run's rows: "TID COMM CPU_MS WAIT WAKE"
	awk '/^ +tid +pid +comm/ {t = 1; next} t && NF >= 13 {print $1, $3, $6, $9, $10}
	     t && NF == 0 {exit}' "$TMP/out" | sort -n >"$TMP/plan"
	paired=$(sed -n 's/^actions: .* of which \([0-9]*\) paired wakeups$/\1/p' "$TMP/out")
	# "TID 1" for a task that starts after the origin (its start is a sleep), else "TID 0"
	awk '/^ +tid +pid +comm/ {t = 1; next} t && NF >= 13 {print $1, ($4 > 0)}
	     t && NF == 0 {exit}' "$TMP/out" | sort >"$TMP/starts"
	# exact recorded CPU: the report of a replay a thousand times faster
	expect_exit 0 "$SREP_BIN" replay -q --scale 1000 --report "$TMP/r.json" "$@" "$trace"
	jq -r '.tasks[] | "\(.tid) \(.recorded_cpu_ns) \(.paired_wakeups)"' "$TMP/r.json" |
		sort -n >"$TMP/report"
	file_tasks "$TMP/w.json" >"$TMP/file"
	[ -s "$TMP/file" ] || fail "$trace: no task in the rt-app file"
	cut -d' ' -f1,2 "$TMP/plan" >"$TMP/a"
	cut -d' ' -f1,2 "$TMP/file" >"$TMP/b"
	diff -u "$TMP/a" "$TMP/b" >&2 || fail "$trace: the tasks differ from the dry run's"
	bad=$(awk 'FILENAME == ARGV[1] {cpu[$1] = $2; waits[$1] = $3; next}
		   FILENAME == ARGV[2] {w[$1] = $4; k[$1] = $5; next}
		   {us = int(cpu[$1] / 1000 + 0.5)
		    if ($3 != us || $4 != waits[$1] || $4 != w[$1] || $5 != k[$1] || $6 != $4 ||
			$7 != 1)
			print $1, "run", $3, "us vs", us, "waits", $4, waits[$1], w[$1],
			      "wakes", $5, k[$1], "prelocks", $6, "balanced", $7}' \
		"$TMP/report" "$TMP/plan" "$TMP/file")
	[ -z "$bad" ] || fail "$trace: tasks differ from replay's plan: $bad"
	file_edges "$TMP/w.json" | awk -v paired="$paired" '
		{n[$1, $2]++; who[$1, $2] = $3; ids[$1] = 1}
		END {	for (id in ids) {
				if (n[id, "waker"] != 1 || n[id, "wakee"] != 1 || n[id, "held"] != 1 ||
				    who[id, "held"] != who[id, "wakee"] ||
				    who[id, "waker"] == who[id, "wakee"]) { print "bad " id; exit 1 }
				count++
			}
			if (count != paired) { print count " wakeups, " paired " paired wakeups"; exit 1 }
		}' >"$TMP/edges" || fail "$trace: wake edges: $(cat "$TMP/edges")"
	event_cost "$trace" "$@"
	echo "${trace##*/}: $(wc -l <"$TMP/file") tasks, $paired wakeups: as replay's plan;" \
		"--event-cost takes from the runs only"
}

round_trip "$DATA/sample-x86_64.data"

# options: rt-app runs elsewhere, so "auto" (this machine's CPUs) is refused
for bad in "--cpu-map auto" "--calibration 0" "--calibration 0.5" "--calibration nan" \
	"--duration 0" "--duration x" "--scale -1" "--event-cost -1" "--event-cost 1.5"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$SREP_BIN" convert -f rt-app $bad -o "$TMP/x.json" "$DATA/sample-x86_64.data"
done
expect_exit 2 "$SREP_BIN" convert -f json --keep-prio -o "$TMP/x.json" "$DATA/sample-x86_64.data"
expect_exit 1 "$SREP_BIN" convert -f rt-app --only nosuchtask -o "$TMP/x.json" \
	"$DATA/sample-x86_64.data"
grep -q "no task of the trace matches the selection" "$TMP/err" || fail "no reason for an empty selection"

# a fractional --calibration: rt-app 1.0 reads whole ns per loop, so the
# file has the rounded figure and runs stretched to the same loops: at 17.5
# ns, "calibration": 18 and each task's runs 18 / 17.5 of its CPU (to the
# µs: both totals are rounded once)
expect_exit 0 "$SREP_BIN" convert -q -f rt-app -o "$TMP/w.json" "$DATA/sample-x86_64.data"
expect_exit 0 "$SREP_BIN" convert -q -f rt-app --calibration 17.5 -o "$TMP/wc.json" \
	"$DATA/sample-x86_64.data"
[ "$(jq '.global.calibration' "$TMP/wc.json")" = 18 ] || fail "--calibration 17.5: not 18 in the file"
file_costs "$TMP/w.json" | sort >"$TMP/c0"
file_costs "$TMP/wc.json" | sort | join "$TMP/c0" - >"$TMP/c1"
bad=$(awk '{want = $2 * 18 / 17.5; d = $4 - want; if (d > 1 || d < -1) print $1, $4, "us, expected", want}' \
	"$TMP/c1")
[ -z "$bad" ] || fail "--calibration 17.5: runs not stretched to 18 / 17.5: $bad"
[ "$(awk '$2 > 100' "$TMP/c1" | wc -l)" -gt 10 ] || fail "--calibration 17.5: too few tasks compared"

# the plan's temporary file goes where TMPDIR says; one that cannot be made names that place
mkdir "$TMP/spill"
expect_exit 0 env TMPDIR="$TMP/spill" "$SREP_BIN" convert -q -f rt-app -o "$TMP/x.json" \
	"$DATA/sample-x86_64.data"
expect_exit 1 env TMPDIR="$TMP/nosuchdir" "$SREP_BIN" convert -q -f rt-app -o "$TMP/x.json" \
	"$DATA/sample-x86_64.data"
grep -q "'$TMP/nosuchdir': cannot create, write or read the plan's temporary file" "$TMP/err" ||
	fail "the plan's temporary file: no error naming TMPDIR"

[ -d "$CORPUS_ROOT/emulated" ] || { echo "SKIP: no corpus at $CORPUS_ROOT" >&2; exit 77; }
for f in "$CORPUS_ROOT"/emulated/*-messaging.data; do
	round_trip "$f" --only sched-messaging --children
done
