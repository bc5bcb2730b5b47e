# bench/fidelity.sh - how a replayed run is measured against its recording
# (sourced by bench/replay.sh and bench/rtapp.sh, which set PERF): per-task
# CPU time and wakeups between tasks, from sched events read by perf script,
# the same way for the original trace and for a recording of its replay.

# fidelity_start NAME: what both benches need before they start (root for
# perf sched record, a built schedrep), and TMP, removed on exit
fidelity_start() {
	[ "$(id -u)" = 0 ] || { echo "$1: run as root (perf sched record)" >&2; exit 2; }
	[ -x "$SCHEDREP" ] || { echo "$1: build schedrep first ($SCHEDREP)" >&2; exit 2; }
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/schedrep-bench-XXXXXX")
	trap 'rm -rf "$TMP"' EXIT
}

# "TID CPU_NS" for every task of a perf.data: its on-CPU intervals, from
# sched_switch. A switch-out without the switch-in before it (this host's
# kernel records few switches away from the idle task) is completed with
# the task's first sched_stat_runtime on that CPU since (time - runtime).
cpu_per_tid() {
	"$PERF" script --ns -F cpu,time,event,trace -i "$1" 2>/dev/null | awk '
	/sched:sched_stat_runtime:/ {
		cpu = $1; gsub(/[][]/, "", cpu); t = $2; sub(/:$/, "", t); t += 0
		match($0, / pid=[0-9]+/); p = substr($0, RSTART + 5, RLENGTH - 5)
		match($0, /runtime=[0-9]+/); r = substr($0, RSTART + 8, RLENGTH - 8) / 1e9
		if (cur[cpu] != p && !((cpu, p) in came)) came[cpu, p] = t - r
	}
	/sched:sched_switch:/ {
		cpu = $1; gsub(/[][]/, "", cpu); t = $2; sub(/:$/, "", t); t += 0
		match($0, /prev_pid=[0-9]+/); prev = substr($0, RSTART + 9, RLENGTH - 9)
		match($0, /next_pid=[0-9]+/); nxt = substr($0, RSTART + 9, RLENGTH - 9)
		if ((cpu in cur) && cur[cpu] == prev)
			ns[prev] += (t - tin[cpu]) * 1e9
		else if ((cpu, prev) in came && came[cpu, prev] >= tin[cpu])
			ns[prev] += (t - came[cpu, prev]) * 1e9
		delete came[cpu, prev]
		delete came[cpu, nxt]
		tin[cpu] = t; cur[cpu] = nxt
	}
	END { for (p in ns) printf "%s %.0f\n", p, ns[p] }' | sort -n
}

# |error| % per task: MAP (task replay_tid), ORIG and REPLAY cpu lists, over TIDS
errors() {
	awk -v scale="$5" 'FILENAME == ARGV[1] {want[$1] = 1; next}
	     FILENAME == ARGV[2] {map[$1] = $2; next}
	     FILENAME == ARGV[3] {orig[$1] = $2; next}
	     {rep[$1] = $2}
	     END { for (t in want) if (orig[t] > 0 && (t in map)) {
			e = (rep[map[t]] - orig[t] / scale) / (orig[t] / scale) * 100
			print (e < 0 ? -e : e) } }' "$1" "$2" "$3" "$4" | sort -g
}

# "MEDIAN P95" of a sorted list, linear interpolation between ranks
stats() {
	awk '{v[NR] = $1} END {
		if (!NR) { print "- -"; exit }
		for (q = 50; q <= 95; q += 45) {
			pos = q / 100 * (NR - 1) + 1; lo = int(pos)
			x = lo < NR ? v[lo] + (v[lo + 1] - v[lo]) * (pos - lo) : v[NR]
			printf "%.1f%s", x, q == 50 ? " " : "\n" } }' "$1"
}

# "TID COMM" of every task that a perf.data switches to or from (its last comm)
tid_comms() {
	"$PERF" script -F event,trace -i "$1" 2>/dev/null | awk '/sched:sched_switch:/ {
		match($0, /prev_comm=.* prev_pid=[0-9]+/)
		s = substr($0, RSTART + 10, RLENGTH - 10); p = s; sub(/.* prev_pid=/, "", p)
		sub(/ prev_pid=[0-9]+$/, "", s); comm[p] = s
	}
	END { for (p in comm) print p, comm[p] }' | sort -n
}

# the wakeups among a set of tasks, "WAKER WAKEE" each: sched_waking events
# (what perf sched record records when the kernel has them, else
# sched_wakeup) whose waker (the task running when it was issued) and wakee
# are both in TIDS (a file, one tid per line). The kernel records no wakeup
# of a task that is not asleep.
wake_pairs() {
	"$PERF" script -F tid,event,trace -i "$1" 2>/dev/null | awk '
	FILENAME == ARGV[1] {in_set[$1] = 1; next}
	/sched:sched_wak(ing|eup):/ {
		match($0, / pid=[0-9]+/); p = substr($0, RSTART + 5, RLENGTH - 5)
		if (($1 in in_set) && (p in in_set)) print $1, p
	}' "$2" -
}

# a run's wakeups against the recording's, pair by pair: MAP (recorded tid,
# run tid), the recording's and the run's wake_pairs; prints "FORWARD
# REVERSE EXTRA UNRELATED": a recorded waker->wakee pair reproduced (up to
# its recorded count), the other way round (a waker that came first and
# waited for its wakee), a recorded pair more often than recorded, and
# pairs with no recorded wakeup either way (the player's own start)
wake_classes() {
	awk 'FILENAME == ARGV[1] {orig[$2] = $1; next}
	     FILENAME == ARGV[2] {left[$1 " " $2]++; seen[$1 " " $2] = 1; next}
	     { w = orig[$1]; p = orig[$2]
	       if (left[w " " p] > 0) { left[w " " p]--; fwd++ }
	       else if ((p " " w) in seen) rev++
	       else if ((w " " p) in seen) extra++
	       else unrel++ }
	     END { printf "%d %d %d %d\n", fwd, rev, extra, unrel }' "$1" "$2" "$3"
}

# the wakeups of a wake_pairs list (in time order) after rt-app's own start,
# "WAKER WAKEE" each: NTHREADS is the run's thread count. rt-app 1.0's start
# is, in this order: its threads' barrier (the last thread to reach it
# wakes every other one: a burst of wakeups by one thread), the file's
# barrier "start" (its last arriver broadcasts: a second burst by one
# thread; arrivals that queue on the barrier's mutex wake each other
# before it) and the queue on that mutex after the broadcast (each thread,
# once through, wakes the next: a chain, each wakeup issued by the
# previous one's wakee). The start ends with that chain: found as the
# second burst of at least NTHREADS / 2 consecutive wakeups by one thread,
# then every wakeup whose waker is the one woken just before. A wakeup of
# the workload that comes between two of the chain's ends it early and is
# counted after the start with what follows (the count after the start is
# never too low). Nothing is printed when no second burst is found.
after_start() {
	awk -v n="$2" '{w[NR] = $1; p[NR] = $2}
	END {	i = 1
		while (i <= NR && bursts < 2) {
			j = i
			while (j < NR && w[j + 1] == w[i]) j++
			if (j - i + 1 >= n / 2) bursts++
			i = j + 1
		}
		if (bursts < 2) exit
		while (i <= NR && w[i] == p[i - 1]) i++
		for (; i <= NR; i++) print w[i], p[i] }' "$1"
}
