#!/bin/sh
# schedrep convert -f pftrace, checked by the real consumer: Perfetto's trace
# processor loads each corpus trace with scheduler data (every architecture,
# both byte orders, file, pipe and zstd files, tracepoints and SWITCH
# records) and its tables must say what schedrep says:
#  - sched: one row per context switch, and per missing switch (one whose
#    prev is not the task the CPU's last switch put there, or not idle
#    before the CPU's first; a switch-in of a task the records left running
#    on another CPU); per thread, the summed durations equal
#    schedrep's running time (compare --json) to the nanosecond;
#  - thread_state: per thread, S (with I) and D time within 1 us of
#    schedrep's sleep_s and sleep_d, and R (with R+) within 1 us of its
#    wait_total (Perfetto starts a new task's Runnable at its creation,
#    schedrep at sched_wakeup_new: that gap is added); every Runnable's
#    start and waker are a wakeup (or fork) schedrep reports, waker and all;
#  - thread and process: tid, tgid, name (the last comm) and parent process
#    as in schedrep's task table (the lossless JSON's first line);
#  - metadata: trace_config_pbtxt holds perf's command line (info --json);
#  - stats: no error or data_loss rows, except the data loss of CPUs whose
#    LOST records the trace holds.
# The Chrome JSON of each trace loads without errors and keeps every flow.
# The callchains of the corpus's -g recordings are callstack samples whose
# frames are the ones 'schedrep callchains' names.
. "$(dirname "$0")/lib.sh"
set -e

# beside the corpus: ../shared/tools (SREP_TRACE_PROCESSOR names another)
TP=${SREP_TRACE_PROCESSOR:-$CORPUS_ROOT/../tools/trace_processor_shell}
[ -x "$TP" ] || { echo "SKIP: no trace processor at $TP" >&2; exit 77; }
"$TP" --version >/dev/null 2>&1 || { echo "SKIP: $TP does not run here (libprotobuf32?)" >&2; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq is not installed" >&2; exit 77; }

# block N of a multi-query answer (blank-line separated), header dropped, tab separated
block() {
	awk -v RS= -v n="$1" 'NR == n' "$TMP/tp.csv" | tail -n +2 | tr -d '"' | tr , '\t'
}

# schedrep's figures for trace $1: per tid running, S and D time; the task table
schedrep_side() {
	"$SREP_BIN" info --json "$1" >"$TMP/info.json"
	"$SREP_BIN" compare -q --match pid --json "$1" "$1" >"$TMP/cmp.json"
	jq -r '.matched[] | select((.a | length) == 1) |
		[.a[0].tid, .metrics.cpu_time.a, .metrics.sleep_s.a, .metrics.sleep_d.a,
		 .metrics.wait_total.a] | @tsv' "$TMP/cmp.json" | sort -k1,1 >"$TMP/srep-times"
	"$SREP_BIN" convert -q -f json "$1" -o "$TMP/t.schedrep.json"
	# "TIME WAKEE WAKER" of every wakeup and fork; per new task, fork to wakeup_new
	tail -n +2 "$TMP/t.schedrep.json" | jq -r '(select(.k == "wakeup") | "\(.t) \(.u.tid) \(.tid)"),
		(select(.k == "fork") | "\(.t) \(.u.child_tid) \(.u.parent_tid)")' |
		LC_ALL=C sort -u >"$TMP/srep-wakers"
	tail -n +2 "$TMP/t.schedrep.json" | jq -r '(select(.k == "fork") | "\(.u.child_tid) F \(.t)"),
		(select(.k == "wakeup" and .u.type == "new") | "\(.u.tid) W \(.t)")' |
		awk '$2 == "F" && !($1 in f) { f[$1] = $3 } $2 == "W" && !($1 in w) { w[$1] = $3 }
		     END { for (t in w) if (t in f && w[t] >= f[t]) print t "\t" w[t] - f[t] }' |
		sort -k1,1 >"$TMP/srep-newgap"
	# tids the table holds once (a reused tid is two tasks; Perfetto's table is per utid)
	head -1 "$TMP/t.schedrep.json" | jq -r '.tasks[] | select(.tid > 0) |
		[.tid, .pid, (.comms[-1][1] // ""), .ppid] | @tsv' | sort -k1,1 >"$TMP/srep-tasks"
	cut -f1 "$TMP/srep-tasks" | uniq -d >"$TMP/reused"
}

check_pftrace() {
	f=$1 name=$(basename "$1")
	last=$(jq '.time.last_ns' "$TMP/info.json")
	switches=$(jq '.model_events.switch // 0' "$TMP/info.json")
	"$SREP_BIN" convert -q -f pftrace "$f" -o "$TMP/t.pftrace"
	"$TP" query "$TMP/t.pftrace" "
select count(*) from sched;
select t.tid, sum(case when s.dur < 0 then $last - s.ts else s.dur end)
  from sched s join thread t using(utid) where t.tid != 0 group by t.tid;
select t.tid,
  sum(case when s.state in ('S', 'I') then (case when s.dur < 0 then $last - s.ts else s.dur end) else 0 end),
  sum(case when s.state = 'D' then (case when s.dur < 0 then $last - s.ts else s.dur end) else 0 end)
  from thread_state s join thread t using(utid) where t.tid != 0 group by t.tid;
select t.tid, p.pid, t.name, pp.pid from thread t left join process p using(upid)
  left join process pp on p.parent_upid = pp.upid where t.tid != 0;
select name, idx, severity, value from stats
  where severity in ('error', 'data_loss') and value > 0;
select t.tid, sum(case when s.dur > 0 then s.dur else 0 end)
  from thread_state s join thread t using(utid) where s.state in ('R', 'R+') and t.tid != 0
  group by t.tid;
select s.ts, t.tid, w.tid from thread_state s join thread t using(utid)
  join thread w on s.waker_utid = w.utid where s.state in ('R', 'R+');
select 'end'" >"$TMP/tp.csv" 2>"$TMP/tp.err" || { cat "$TMP/tp.err" >&2; fail "$name: trace processor"; }

	rows=$(block 1)
	gaps=0
	if [ "$(jq '.events["sched:sched_switch"] // 0' "$TMP/info.json")" -gt 0 ]; then
		# a switch whose prev is not what the CPU's last switch put there
		# (the idle task before the first) gets the missing switch before
		# it; a task switched in while left running on another CPU gets a
		# switch to idle there (docs/pftrace.md)
		gaps=$("$SREP_BIN" script "$f" | awk '/ sched:sched_switch: / {
			cpu = $3; match($0, / prev_pid=[0-9]+/); p = substr($0, RSTART + 10, RLENGTH - 10)
			match($0, / next_pid=[0-9]+/); n = substr($0, RSTART + 10, RLENGTH - 10)
			was = (cpu in last) ? last[cpu] : 0; if (was != p) gaps++
			for (c in last) if (c != cpu && n > 0 && last[c] == n) { gaps++; last[c] = 0 }
			last[cpu] = n }
			END { print gaps + 0 }')
		[ "$rows" = $((switches + gaps)) ] ||
			fail "$name: $rows sched rows for $switches switches and $gaps gaps"
	elif [ "$(awk '$2 > 0' "$TMP/srep-times" | wc -l)" -gt 0 ]; then
		[ "$rows" -gt 0 ] || fail "$name: no sched rows from SWITCH records"
	else	# records without the CPU: no CPU track, no running time either side
		[ "$rows" = 0 ] || fail "$name: $rows sched rows from switches on no known CPU"
	fi

	block 2 | sort -k1,1 | join -t "$(printf '\t')" -a1 -e0 -o 0,1.2,2.2 "$TMP/srep-times" - |
		awk -F '\t' '$2 != $3 { print "tid " $1 ": schedrep " $2 ", perfetto " $3; bad++ }
			END { exit bad > 0 }' >"$TMP/bad" ||
		fail "$name: running time differs for $(wc -l <"$TMP/bad") tasks: $(head -3 "$TMP/bad")"

	block 3 | sort -k1,1 | join -t "$(printf '\t')" -a1 -e0 -o 0,1.3,1.4,2.2,2.3 "$TMP/srep-times" - |
		awk -F '\t' 'function abs(x) { return x < 0 ? -x : x }
			abs($2 - $4) > 1000 || abs($3 - $5) > 1000 { print "tid " $1 ": S " $2 "/" $4 ", D " $3 "/" $5; bad++ }
			END { exit bad > 0 }' >"$TMP/bad" ||
		fail "$name: thread states differ for $(wc -l <"$TMP/bad") tasks: $(head -3 "$TMP/bad")"

	block 4 | sort -k1,1 >"$TMP/tp-tasks"
	join -t "$(printf '\t')" -a1 -e- -o 0,1.2,1.3,1.4,2.2,2.3,2.4 "$TMP/srep-tasks" "$TMP/tp-tasks" |
		awk -F '\t' 'NR == FNR { reused[$1] = 1; next }
			!($1 in reused) && ($2 != $5 || $3 != $6 || ($4 >= 0 && $4 != $7)) {
				print "tid " $1 ": " $2 "/" $3 "/" $4 " vs " $5 "/" $6 "/" $7; bad++ }
			END { exit bad > 0 }' "$TMP/reused" - >"$TMP/bad" ||
		fail "$name: $(wc -l <"$TMP/bad") tasks differ (pid/name/ppid): $(head -3 "$TMP/bad")"

	# Runnable: schedrep's wait_total plus the new task's fork-to-wakeup_new
	# gap, where wakeups are traced (from SWITCH records alone schedrep knows
	# no wakeup, and Perfetto's Runnable is then creation and preemption)
	if [ "$(jq '[.events | to_entries[] | select(.key | test("sched_wak")) | .value] | add // 0' \
		"$TMP/info.json")" -gt 0 ]; then
		block 6 | sort -k1,1 >"$TMP/tp-runnable"
		join -t "$(printf '\t')" -a1 -e0 -o 0,1.5,2.2 "$TMP/srep-times" "$TMP/srep-newgap" |
			join -t "$(printf '\t')" -a1 -e0 -o 0,1.2,1.3,2.2 - "$TMP/tp-runnable" |
			awk -F '\t' 'function abs(x) { return x < 0 ? -x : x }
				abs($2 + $3 - $4) > 1000 { print "tid " $1 ": wait " $2 " + new " $3 " vs R " $4; bad++ }
				END { exit bad > 0 }' >"$TMP/bad" ||
			fail "$name: Runnable time differs for $(wc -l <"$TMP/bad") tasks: $(head -3 "$TMP/bad")"
		runnable="Runnable matches"
	else
		runnable="no wakeups traced"
	fi
	# (a wakeup whose sample names no current task, tid -1, may have any waker)
	block 7 | tr '\t' ' ' | LC_ALL=C sort -u | LC_ALL=C comm -13 "$TMP/srep-wakers" - |
		awk 'NR == FNR { if ($3 == -1) unknown[$1 " " $2] = 1; next }
		     !(($1 " " $2) in unknown)' "$TMP/srep-wakers" - >"$TMP/bad"
	[ ! -s "$TMP/bad" ] ||
		fail "$name: $(wc -l <"$TMP/bad") Runnable starts that are no wakeup of schedrep's: $(head -3 "$TMP/bad")"

	lost=$(jq '.lost.lost_events' "$TMP/info.json")
	block 5 | awk -F '\t' -v lost="$lost" '!(lost > 0 && $1 == "ftrace_cpu_has_data_loss")' >"$TMP/bad"
	[ ! -s "$TMP/bad" ] || fail "$name: import errors: $(head -3 "$TMP/bad")"
	# perf's command line, as trace processor shows the trace's config
	want=$(jq -r '(.cmdline // []) | join(" ")' "$TMP/info.json")
	"$TP" query "$TMP/t.pftrace" "select str_value from metadata where name = 'trace_config_pbtxt'" \
		2>/dev/null | sed -n 's/^ *legacy_config: "\(.*\)"$/\1/p' >"$TMP/cmdline"
	[ "$(cat "$TMP/cmdline")" = "$want" ] ||
		fail "$name: command line '$(cat "$TMP/cmdline")' in Perfetto's metadata, '$want' in the trace"
	echo "$name: $rows sched rows ($switches switches, $gaps gaps), $(wc -l <"$TMP/srep-times") tasks match;" \
		"$runnable; $(block 7 | wc -l) Runnable starts with their waker"
}

# the Chrome JSON: no import errors, every flow bound
check_json() {
	"$SREP_BIN" convert -q -f perfetto "$1" -o "$TMP/t.json"
	flows=$(grep -c '"ph":"s"' "$TMP/t.json" || true)
	"$TP" query "$TMP/t.json" "select count(*) from flow;
select name from stats where severity in ('error', 'data_loss') and value > 0" \
		>"$TMP/tp.csv" 2>"$TMP/tp.err" || { cat "$TMP/tp.err" >&2; fail "$1: trace processor on JSON"; }
	[ "$(block 1)" = "$flows" ] || fail "$(basename "$1"): $(block 1) flows of $flows in Perfetto"
	[ -z "$(block 2)" ] || fail "$(basename "$1"): JSON import errors: $(block 2)"
}

# callstacks: the recorded callchains as perf_sample rows whose frames, leaf
# to root, are the names 'schedrep callchains' prints for the same events
check_stacks() {
	dir=$1 arch=$(basename "$1")
	xz -dc "$dir/kallsyms.xz" >"$TMP/kallsyms"
	"$SREP_BIN" convert -q -f pftrace --kallsyms "$TMP/kallsyms" --symfs "$dir" \
		-o "$TMP/cc.pftrace" "$dir/sched-callchain.data"
	"$SREP_BIN" callchains -q --kallsyms "$TMP/kallsyms" --symfs "$dir" "$dir/sched-callchain.data" |
		awk '/^\t/ { sub(/^\t */, ""); sub(/^[0-9a-f]+ /, ""); sub(/ \([^(]*\)$/, "")
			      sub(/\+0x[0-9a-f]+$/, ""); stack = stack (stack == "" ? "" : ";") $0; next }
		     stack != "" { print stack; stack = "" }
		     END { if (stack != "") print stack }' | LC_ALL=C sort >"$TMP/srep-stacks"
	"$TP" query "$TMP/cc.pftrace" "
with recursive up(sample, callsite, n) as (
  select id, callsite_id, 0 from perf_sample
  union all
  select up.sample, c.parent_id, up.n + 1 from up join stack_profile_callsite c on c.id = up.callsite
  where c.parent_id is not null)
select group_concat(name, ';') from (select up.sample, f.name from up
  join stack_profile_callsite c on c.id = up.callsite join stack_profile_frame f on f.id = c.frame_id
  order by up.sample, up.n) group by sample;
select name from stats where severity in ('error', 'data_loss') and value > 0" \
		>"$TMP/tp.csv" 2>"$TMP/tp.err" || { cat "$TMP/tp.err" >&2; fail "$arch: trace processor on stacks"; }
	block 1 | LC_ALL=C sort >"$TMP/tp-stacks"
	[ -s "$TMP/srep-stacks" ] || fail "$arch: no callchains to compare"
	cmp -s "$TMP/srep-stacks" "$TMP/tp-stacks" ||
		fail "$arch: Perfetto's stacks differ from schedrep's: $(diff "$TMP/srep-stacks" "$TMP/tp-stacks" | head -4)"
	[ -z "$(block 2)" ] || fail "$arch: import errors with stacks: $(block 2)"
	echo "$arch: $(wc -l <"$TMP/tp-stacks") callstack samples, frames as schedrep names them"
}

# sched_blocked_reason: every sleep (a switch-out into S, D or I) whose
# callchain has kernel frames is a thread_state row whose blocked_function is
# the first kernel function 'schedrep callchains' shows outside the scheduler
# (an unnamed one as its address) and whose io_wait says whether it slept in
# io_schedule*(); no sleep row without; no import errors. Uses check_stacks'
# trace and kallsyms. Events pair by tid and perf's microsecond time.
check_blocked() {
	dir=$1 arch=$(basename "$1")
	"$SREP_BIN" callchains -q --kallsyms "$TMP/kallsyms" --symfs "$dir" "$dir/sched-callchain.data" |
		awk '/^\t/ { if (done || $NF != "([kernel.kallsyms])") next
			      name = $2; sub(/\+0x[0-9a-f]+$/, "", name)
			      if (name == "[unknown]") name = "0x" $1
			      if (name ~ /^(__schedule|schedule|preempt_schedule|io_schedule|__cond_resched|_cond_resched)/) {
				      io = io || name ~ /^io_schedule/; next }
			      print tid "\t" t "\t" name "\t" io; done = 1; next }
		     NF { for (i = 2; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++) ;
			  tid = $(i - 1); t = $i; sub(/:$/, "", t); sub(/\./, "", t); sub(/^0+/, "", t)
			  done = 0; io = 0 }' | LC_ALL=C sort >"$TMP/srep-blocked"
	cut -f1,2 "$TMP/srep-blocked" | uniq -d >"$TMP/bad"
	[ ! -s "$TMP/bad" ] || fail "$arch: two callchains of one task in a microsecond: $(head -1 "$TMP/bad")"
	"$SREP_BIN" script --json "$dir/sched-callchain.data" | jq -r 'select(.event == "sched:sched_switch") |
		.fields.prev_state as $s | select($s == 1 or $s == 2 or $s == 128) |
		[.fields.prev_pid, (.time / 1000 | floor)] | @tsv' | LC_ALL=C sort >"$TMP/srep-sleeps"
	awk -F '\t' 'NR == FNR { site[$1 "\t" $2] = $3 "\t" $4; next }
		{ k = $1 "\t" $2; print k "\t" (k in site ? site[k] : "[NULL]\t[NULL]") }' \
		"$TMP/srep-blocked" "$TMP/srep-sleeps" | LC_ALL=C sort >"$TMP/want-blocked"
	"$TP" query "$TMP/cc.pftrace" "
select t.tid, s.ts / 1000, s.blocked_function, s.io_wait from thread_state s join thread t using(utid)
  where s.state in ('S', 'D', 'I');
select name from stats where severity in ('error', 'data_loss') and value > 0" \
		>"$TMP/tp.csv" 2>"$TMP/tp.err" || { cat "$TMP/tp.err" >&2; fail "$arch: trace processor on blocked reasons"; }
	block 1 | LC_ALL=C sort >"$TMP/tp-blocked"
	[ -s "$TMP/srep-blocked" ] || fail "$arch: no sleep with a kernel callchain"
	cmp -s "$TMP/want-blocked" "$TMP/tp-blocked" ||
		fail "$arch: Perfetto's blocked functions differ from schedrep's: $(diff "$TMP/want-blocked" "$TMP/tp-blocked" | head -4)"
	[ -z "$(block 2)" ] || fail "$arch: import errors with blocked reasons: $(block 2)"
	echo "$arch: $(awk -F '\t' '$3 != "[NULL]"' "$TMP/tp-blocked" | wc -l) of $(wc -l <"$TMP/srep-sleeps") sleeps named where they blocked, as schedrep names them"
}

n=0
for f in "$DATA"/sample-*.data "$CORPUS_ROOT"/emulated/*.data; do
	[ -f "$f" ] || continue
	schedrep_side "$f"
	check_pftrace "$f"
	check_json "$f"
	n=$((n + 1))
done
for d in "$CORPUS_ROOT"/callchains/*/; do
	[ -f "$d/sched-callchain.data" ] && [ -f "$d/kallsyms.xz" ] || continue
	command -v xz >/dev/null || { part_skipped "xz missing: callstacks not checked"; break; }
	check_stacks "${d%/}"
	check_blocked "${d%/}"
done
[ -d "$CORPUS_ROOT/emulated" ] || part_skipped "no corpus at $CORPUS_ROOT: only tests/data traces checked"
[ "$n" -gt 0 ] || fail "no trace checked"
