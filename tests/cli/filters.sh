#!/bin/sh
# --time and --cpu on the commands that are not perf's (info, callchains,
# replay, compare; convert's are in convert.sh): what passes is what the
# unfiltered 'schedrep script --json' shows between the bounds and on those
# CPUs, and a window wholly outside the trace is an error.
. "$(dirname "$0")/lib.sh"
set -e
command -v jq >/dev/null || { echo "SKIP: jq absent" >&2; exit 77; }

f="$DATA/sample-x86_64.data"
"$SREP_BIN" script --json "$f" >"$TMP/all.jsonl"

# samples per event of the events in $TMP/all.jsonl that jq filter $1 keeps
per_event() {
	jq -s -S "map(select($1)) | group_by(.event) | map({(.[0].event): length}) | add" \
		"$TMP/all.jsonl"
}

# info --cpu 0: the samples of CPU 0 the unfiltered script shows, per event
expect_exit 0 "$SREP_BIN" info --json "$f"
jq -S '.events' "$TMP/out" >"$TMP/whole"
expect_exit 0 "$SREP_BIN" info --json --cpu 0 "$f"
jq -S '.selected.samples' "$TMP/out" >"$TMP/got"
per_event '.cpu == 0' >"$TMP/want"
diff -u "$TMP/want" "$TMP/got" >&2 || fail "info --cpu 0: samples differ from script's on CPU 0"
# the records of the whole file stay perf's
jq -S '.events' "$TMP/out" | cmp -s - "$TMP/whole" || fail "info --cpu 0 changed the whole file's counts"

# info --time: the samples between the bounds, in ns
expect_exit 0 "$SREP_BIN" info --json --time 0.1,0.12 "$f"
from=$(jq '.selected.from_ns' "$TMP/out")
to=$(jq '.selected.to_ns' "$TMP/out")
jq -S '.selected.samples' "$TMP/out" >"$TMP/got"
per_event ".time >= $from and .time <= $to" >"$TMP/want"
[ "$(jq 'add' "$TMP/want")" -gt 100 ] || fail "the window 0.1,0.12 holds too few samples to test"
diff -u "$TMP/want" "$TMP/got" >&2 || fail "info --time 0.1,0.12: samples differ from script's"
expect_exit 0 "$SREP_BIN" info --time 0.1,0.12 -C 1 "$f"
grep -q "pass --time 0.1,0.12 --cpu 1" "$TMP/out" || fail "info text does not name the filter"

# windows wholly outside the trace, and --stats with a filter
for c in info callchains; do
	expect_exit 1 "$SREP_BIN" $c --time 100, "$f"
	grep -q "holds no part of the trace" "$TMP/err" || fail "$c --time 100,: $(cat "$TMP/err")"
done
expect_exit 2 "$SREP_BIN" info --stats --cpu 0 "$f"

# replay --dry-run: the plan of the window only
expect_exit 1 "$SREP_BIN" replay --dry-run --time @1,@2 "$f"
grep -q "holds no part of the trace" "$TMP/err" || fail "replay --time @1,@2: $(cat "$TMP/err")"

# compare: the same filters on both sides; the workload's switches (out of
# tasks other than idle) of CPU 0 and CPU 1 add up to the unfiltered count,
# and those of a window equal script's between the bounds
expect_exit 1 "$SREP_BIN" compare --time 100, "$f" "$f"
grep -q "holds no part of the trace" "$TMP/err" || fail "compare --time 100,: $(cat "$TMP/err")"
switches() {
	expect_exit 0 "$SREP_BIN" compare -q --json "$@" "$f" "$f"
	jq -e '.workload.switches | if .a == .b then .a else error("A and B differ") end' "$TMP/out"
}
all=$(switches)
c0=$(switches --cpu 0)
c1=$(switches -C 1)
[ "$c0" -gt 0 ] && [ "$c1" -gt 0 ] && [ $((c0 + c1)) = "$all" ] ||
	fail "compare: switches on CPU 0 ($c0) and 1 ($c1) do not add up to $all"
win=$(switches --time 0.1,0.12)
want=$(jq -s "map(select(.event == \"sched:sched_switch\" and .fields.prev_pid != 0 and
	.time >= $from and .time <= $to)) | length" "$TMP/all.jsonl")
[ "$win" = "$want" ] || fail "compare --time 0.1,0.12: $win switches, script shows $want"

# replay --dry-run --time: every task planned inside the 20 ms window
expect_exit 0 "$SREP_BIN" replay --dry-run --time 0.1,0.12 "$f"
awk '$1 ~ /^[0-9]+$/ && NF >= 13 { n++; if ($4 + $5 / 1000 > 0.020001) bad = bad " " $1 }
	END { if (!n || bad != "") { print n " tasks, outside:" bad; exit 1 } }' "$TMP/out" >&2 ||
	fail "replay --time 0.1,0.12 plans outside the window"
expect_exit 2 "$SREP_BIN" replay --dry-run --cpu 0 "$f"

# callchains: the events of CPU 1 the unfiltered script shows (every sample
# of a -g trace has a callchain)
CC="$CORPUS_ROOT/callchains/x86_64/sched-callchain.data"
[ -f "$CC" ] || { part_skipped "no corpus trace $CC"; exit 0; }
"$SREP_BIN" script --json "$CC" >"$TMP/all.jsonl"
expect_exit 0 "$SREP_BIN" callchains -q --cpu 1 "$CC"
grep -v '^[[:space:]]' "$TMP/out" | grep . | awk '{ print $(NF-2), $(NF-1) }' >"$TMP/got"
jq -r 'select(.cpu == 1) | [.tid, (.time / 1000 | floor)] | @tsv' "$TMP/all.jsonl" |
	awk '{ printf "%d %d.%06d:\n", $1, $2 / 1000000, $2 % 1000000 }' >"$TMP/want"
[ -s "$TMP/want" ] && diff -u "$TMP/want" "$TMP/got" >&2 ||
	fail "callchains --cpu 1: events differ from script's on CPU 1"
