#!/bin/sh
# schedrep record: real recordings that perf reads with the same counts as
# schedrep info (perf report --stats; perf report -D for pipe mode), that
# perf sched latency reads, in file mode, pipe mode, with -z, cut short by
# SIGKILL or a full disk, of -p with a software event and callchains; the summary's counts
# and data-loss figure; and the one-line errors. Needs root and perf: skips
# otherwise.
. "$(dirname "$0")/lib.sh"
set -e

BENCH="perf bench sched messaging -g 2 -l 50"
LATE="$(dirname "$SREP_BIN")/tests/lib/late_wakeups"

[ "$(id -u)" = 0 ] || { echo "SKIP: recording needs root here"; exit 77; }
command -v perf >/dev/null || { echo "SKIP: no perf to compare with"; exit 77; }
if ! "$SREP_BIN" record -q -o "$TMP/probe.data" -- true 2>"$TMP/err"; then
	echo "SKIP: cannot record here: $(cat "$TMP/err")"
	exit 77
fi

# same_counts FILE [pipe]: perf's record and sample counts equal schedrep info's
same_counts() {
	if [ "${2:-}" = pipe ]; then
		perf report -D -i "$1" 2>/dev/null | sed -n '/^Aggregated stats:/,$p' >"$TMP/perf.txt"
	else
		perf report --stats -i "$1" >"$TMP/perf.txt" 2>"$TMP/perf.err" ||
			fail "perf report --stats cannot read $1: $(cat "$TMP/perf.err")"
	fi
	perf_counts "$TMP/perf.txt" >"$TMP/perfs"
	[ -s "$TMP/perfs" ] || fail "perf counted nothing in $1"
	expect_exit 0 "$SREP_BIN" info "$1"
	info_counts >"$TMP/ours"
	diff -u "$TMP/perfs" "$TMP/ours" >&2 || fail "$1: counts differ from perf's"
	# the JSON carries the same counts
	expect_exit 0 "$SREP_BIN" info --json "$1"
	while read -r _ name n; do
		grep -Eq "^[[:space:]]*\"$name\":[[:space:]]*$n,?\$" "$TMP/out" ||
			fail "$1: the JSON has no \"$name\": $n"
	done <"$TMP/perfs"
}

# wait_until CMD...: up to 20 s for CMD to succeed, however slow the
# machine (ASan, a busy CI); what is waited for is checked after
wait_until() {
	n=0
	while ! "$@" && [ $n -lt 400 ]; do
		sleep 0.05
		n=$((n + 1))
	done
}

# first_round FILE: a system-wide recording's first round, the description
# of the system's tasks (some 100 KB), is on disk: by then it takes its
# signals itself (a SIGINT before that would kill it, as any process)
first_round() {
	[ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -ge 65536 ]
}

# has_child PID NAME: a child of PID runs NAME
has_child() {
	for c in $(cat /proc/$1/task/*/children 2>/dev/null); do
		[ "$(cat /proc/$c/comm 2>/dev/null)" = "$2" ] && return 0
	done
	return 1
}

# summary_counts ERRFILE: "ev NAME COUNT" from the summary, events with samples
summary_counts() {
	awk '/ samples$/ && $2 != 0 {print "ev " $1, $2}' "$1" | sort
}

# ---- file mode, with a command ----
"$SREP_BIN" record -o "$TMP/f.data" -- $BENCH >"$TMP/bench.out" 2>"$TMP/rec.err" ||
	fail "record exited $?: $(cat "$TMP/rec.err")"
grep -q "Total time" "$TMP/bench.out" || fail "the command's output did not reach stdout"
grep -q "^schedrep record: wrote '$TMP/f.data' (file mode)" "$TMP/rec.err" || fail "no summary"
same_counts "$TMP/f.data"
summary_counts "$TMP/rec.err" >"$TMP/summary"
grep '^ev ' "$TMP/perfs" | sort | diff -u - "$TMP/summary" >&2 || fail "summary counts differ from perf's"
perf sched latency -i "$TMP/f.data" >"$TMP/lat.txt" 2>/dev/null || fail "perf sched latency failed"
grep -q "sched-messaging" "$TMP/lat.txt" || fail "perf sched latency shows no messaging task"
# as perf sched record: the whole system, every task named (recording the
# command's tasks only left ~40 nameless ":TID" rows, the tasks that shared
# its CPUs; perf sched record's own recording may miss one born during its
# /proc scan), and sched_waking without sched_wakeup, which perf sched
# latency would take as a second wakeup (a "context switch bug")
nameless=$(grep -c '^ *:[0-9]' "$TMP/lat.txt" || true)
[ "$nameless" -le 2 ] || fail "perf sched latency shows $nameless nameless tasks"
if [ -d /sys/kernel/tracing/events/sched/sched_waking ]; then
	grep -q "sched:sched_waking" "$TMP/rec.err" || fail "sched_waking not recorded"
	! grep -q "sched:sched_wakeup " "$TMP/rec.err" || fail "sched_wakeup recorded beside sched_waking"
fi

# ---- pipe mode: the command's output goes to stderr ----
"$SREP_BIN" record -o - -- $BENCH >"$TMP/p.data" 2>"$TMP/rec.err" || fail "pipe record failed"
grep -q "Total time" "$TMP/rec.err" || fail "pipe mode: the command's output is not on stderr"
same_counts "$TMP/p.data" pipe
grep -q "^rec TRACING_DATA " "$TMP/ours" || fail "pipe mode: no TRACING_DATA record"

# ---- zstd ----
"$SREP_BIN" record -z -o "$TMP/z.data" -- $BENCH >/dev/null 2>"$TMP/rec.err" || fail "-z failed"
same_counts "$TMP/z.data"
grep -q "^rec COMPRESSED " "$TMP/perfs" || fail "-z wrote no COMPRESSED records"
perf sched latency -i "$TMP/z.data" 2>/dev/null | grep -q "sched-messaging" || fail "-z: perf sched latency"

# ---- system-wide until SIGINT, then SIGKILL mid-run ----
"$SREP_BIN" record -a -o "$TMP/a.data" 2>"$TMP/rec.err" &
pid=$!
wait_until first_round "$TMP/a.data"
$BENCH >/dev/null
kill -INT $pid
wait $pid || fail "record -a ended by SIGINT exited $?"
same_counts "$TMP/a.data"
"$SREP_BIN" record -a -o "$TMP/k.data" 2>/dev/null &
pid=$!
wait_until first_round "$TMP/k.data"
$BENCH >/dev/null
kill -KILL $pid
wait $pid || true
same_counts "$TMP/k.data"
grep -q "^ev sched:sched_switch" "$TMP/perfs" || fail "SIGKILL: no sched_switch samples were kept"
perf sched latency -i "$TMP/k.data" >/dev/null 2>&1 || fail "SIGKILL: perf sched latency cannot read it"

# ---- a full disk: exit 1 with one line, the file readable up to the last round ----
mkdir -p "$TMP/full"
# (room for the description of every task on the system, the first round,
# as the probe above wrote it, however many tasks this machine runs, and
# 512 KiB more; the command writes some 6 MB)
room=$((($(stat -c %s "$TMP/probe.data") + 524288) / 1024))
if mount -t tmpfs -o size=${room}k tmpfs "$TMP/full" 2>/dev/null; then
	trap 'st=$?; umount "$TMP/full" 2>/dev/null || true; (exit $st); on_exit' EXIT
	expect_exit 1 "$SREP_BIN" record -q -o "$TMP/full/f.data" -- perf bench sched messaging -g 4 -l 200
	grep -q "No space left on device (the file stays readable up to the last round written)" "$TMP/err" ||
		fail "full disk message: $(cat "$TMP/err")"
	same_counts "$TMP/full/f.data"
	umount "$TMP/full"
	# too small for the header: no file left, and no word of one
	mount -t tmpfs -o size=12k tmpfs "$TMP/full"
	expect_exit 1 "$SREP_BIN" record -q -o "$TMP/full/f.data" -- true
	grep -q "No space left on device" "$TMP/err" || fail "tiny disk: $(cat "$TMP/err")"
	! grep -q "readable" "$TMP/err" || fail "tiny disk: speaks of a file it removed"
	[ ! -e "$TMP/full/f.data" ] || fail "tiny disk: a file was left"
	umount "$TMP/full"
fi

# ---- -p, a software event and a tracepoint, callchains; ends with the process ----
"$LATE" idle 2 >/dev/null &
late=$!
sleep 0.2
"$SREP_BIN" record -g -e cpu-clock -e sched:sched_switch -p $late -o "$TMP/g.data" 2>"$TMP/rec.err" ||
	fail "record -p failed: $(cat "$TMP/rec.err")"
wait $late
same_counts "$TMP/g.data"
perf report -D -i "$TMP/g.data" 2>/dev/null | grep -q "FP chain: nr:[1-9]" || fail "-g: no callchains"

# ---- -C: only that CPU; two tracepoint systems; SIGINT cuts a command short: 130 ----
"$SREP_BIN" record -q -a -C 0 -e sched:sched_switch -e irq:softirq_entry -o "$TMP/c.data" -- $BENCH \
	>/dev/null 2>"$TMP/rec.err" || fail "record -C 0 failed: $(cat "$TMP/rec.err")"
same_counts "$TMP/c.data"
[ "$(perf script -F cpu -i "$TMP/c.data" 2>/dev/null | sort -u | tr -d ' ')" = "[000]" ] ||
	fail "-C 0 recorded other CPUs"
perf script -i "$TMP/c.data" 2>/dev/null | grep -q "irq:softirq_entry: vec=" || fail "irq formats not carried"
"$SREP_BIN" record -q -o "$TMP/i.data" -- sleep 10 &
pid=$!
# the command is released (exec'd) once the recorder takes its signals
wait_until has_child $pid sleep
kill -INT $pid
set +e
wait $pid
got=$?
set -e
[ $got = 130 ] || fail "a command cut short by SIGINT exited $got, expected 130"
same_counts "$TMP/i.data"

# ---- what the command leaves: ended with it when the recorder stops it
# (a signal here), left alone when it exits by itself ----
# pids_of WORDS: the processes that run the command line WORDS
pids_of() {
	for f in /proc/[0-9]*/cmdline; do
		[ "$(tr '\0' ' ' <"$f" 2>/dev/null)" = "$* " ] && basename "${f%/cmdline}"
	done
	true
}
# running WORDS: some process runs the command line WORDS
running() {
	[ -n "$(pids_of "$@")" ]
}
"$SREP_BIN" record -q -o "$TMP/o.data" -- sh -c 'sleep 6131 & sleep 6132' &
pid=$!
wait_until running sleep 6132
kill -INT $pid
wait $pid || true
! running sleep 6131 || fail "the command's background child outlived the recording"
! running sleep 6132 || fail "the command's child outlived the recording"
expect_exit 0 "$SREP_BIN" record -q -o "$TMP/o.data" -- sh -c 'sleep 6133 & exit 0'
left=$(pids_of sleep 6133)
[ -n "$left" ] || fail "a child the command left running was ended"
kill $left

# ---- lost events: tiny rings; the summary's figures equal schedrep info's ----
"$SREP_BIN" record -m 1 -o "$TMP/l.data" -- perf bench sched messaging -g 4 -l 100 >/dev/null 2>"$TMP/rec.err" ||
	fail "record -m 1 failed"
expect_exit 0 "$SREP_BIN" info --json "$TMP/l.data"
info_lost=$(sed -n 's/^[[:space:]]*"lost_events":[[:space:]]*\([0-9]*\),*$/\1/p' "$TMP/out")
info_ns=$(sed -n 's/^[[:space:]]*"lost_time_ns":[[:space:]]*\([0-9]*\),*$/\1/p' "$TMP/out")
ours=$(sed -n 's/^  lost: \([0-9]*\) events.*data loss \([0-9.]*\)% of \([0-9.]*\) s$/\1 \2 \3/p' \
	"$TMP/rec.err")
[ -n "$ours" ] || fail "no loss line in the summary"
[ -n "$info_ns" ] || fail "no lost_time_ns in info --json"
set -- $ours
[ "$1" = "$info_lost" ] || fail "LOST: summary says $1 events, schedrep info $info_lost"
# The lost time, not the percentage: both sides find the same intervals
# (samples in flight after a LOST record count as before it, loss.h), but
# their spans differ: the recorder's starts at the first record with a
# time, info's at the first event, and a FORK or EXIT record is no event
# when sched_process_fork or _exit says the same (under ASan beside the
# suite, 0.62 % against 0.80 % of spans that far apart). The summary's
# percent (2 decimals) of its span (3 decimals) gives the lost time to
# within its rounding.
awk -v pct="$2" -v span="$3" -v ns="$info_ns" 'BEGIN {
	est = pct / 100 * span * 1e9; d = est - ns; d = d < 0 ? -d : d
	exit !(d <= (0.005 / 100 * span + pct / 100 * 0.0005) * 1e9 + 1) }' ||
	fail "lost time: the summary's $2 % of $3 s against schedrep info's $info_ns ns"

# ---- errors: one line that says what to do ----
expect_exit 1 "$SREP_BIN" record -e no-such-event -o "$TMP/x.data" -- true
grep -q "unknown event 'no-such-event'" "$TMP/err" || fail "unknown event message"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "more than one line for an unknown event"
[ ! -e "$TMP/x.data" ] || fail "a failed start left a file"
expect_exit 1 "$SREP_BIN" record -e sched:no_such -o "$TMP/x.data" -- true
grep -q "unknown event 'sched:no_such'" "$TMP/err" || fail "unknown tracepoint message"
expect_exit 1 "$SREP_BIN" record -o "$TMP/x.data" -- /no/such/command
grep -q "cannot run '/no/such/command'" "$TMP/err" || fail "missing command message"
# a CPU past the last one online (perf_event_open would say only EINVAL)
offline=$(($(sed 's/.*[-,]//' /sys/devices/system/cpu/online) + 1))
expect_exit 1 "$SREP_BIN" record -C "$offline" -o "$TMP/x.data" -- true
grep -q -- "-C: CPU $offline is not online" "$TMP/err" || fail "offline CPU: $(cat "$TMP/err")"
expect_exit 2 "$SREP_BIN" record -m 3 -- true
expect_exit 2 "$SREP_BIN" record -p 1 -a
expect_exit 2 "$SREP_BIN" record --trigger signal -- true
if command -v setpriv >/dev/null && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 1 ]; then
	for ev in sched:sched_switch cpu-clock; do
		expect_exit 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$SREP_BIN" record -a -e $ev -o /nonexistent/x.data
		grep -q "root" "$TMP/err" || fail "unprivileged $ev: $(cat "$TMP/err")"
		[ "$(wc -l <"$TMP/err")" = 1 ] || fail "unprivileged $ev: more than one line"
	done
fi
exit 0
