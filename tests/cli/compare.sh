#!/bin/sh
# schedrep compare on the fixture pair of tests/mkpairs.c (the same workload
# on an x86_64 and an s390x "board" with known differences): golden JSON and
# text, exactly the known significant differences, scaling, a trace against
# itself, and the error paths.
. "$(dirname "$0")/lib.sh"
set -e

MKPAIRS="$(dirname "$SREP_BIN")/tests/lib/mkpairs"
"$MKPAIRS" "$TMP" || fail "mkpairs"
cd "$TMP"

expect_exit 0 "$SREP_BIN" compare --json a.data b.data
golden "$CLI/compare-pair.json"
cp "$TMP/out" "$TMP/pair.json"
# exactly the differences the pair was made with, nothing else
sig=$(jq -r '[.workload | to_entries[] | select(.value.significant) | "workload " + .key],
	[.cpus[] | .cpu as $c | .metrics | to_entries[] | select(.value.significant) |
	 "cpu\($c) " + .key],
	[.matched[] | (.a[0].comm + " " + (.a[0].tid|tostring)) as $t | .metrics | to_entries[] |
	 select(.value.significant) | "\($t) " + .key] | .[]' "$TMP/pair.json" | LC_ALL=C sort |
	tr '\n' ',')
want="cpu0 busy,cpu0 freq_1200000khz,cpu0 freq_1800000khz,cpu0 idle,cpu0 utilisation,\
cpu1 busy,cpu1 utilisation,worker 101 cpu_time,worker 101 lifetime,worker 101 sleep_s,\
worker 102 lifetime,worker 102 wait_max,worker 102 wait_mean,worker 102 wait_p50,\
worker 102 wait_p95,worker 102 wait_total,workload cpu_time,workload makespan,"
[ "$sig" = "$want" ] || fail "significant differences: $sig"
[ "$(jq -r '.matched[] | select(.a[0].tid == 102) | .metrics.wait_max | "\(.a) \(.b)"' \
	"$TMP/pair.json")" = "100000 300000" ] || fail "worker 2's wait"
[ "$(jq -c '[.unmatched_a[].comm, .unmatched_b[].comm]' "$TMP/pair.json")" = \
	'["kworker/0:1","extra"]' ] || fail "unmatched tasks"

# the table: golden, and it fits 80 columns
expect_exit 0 "$SREP_BIN" compare a.data b.data
golden "$CLI/compare-pair.stdout"
[ -z "$(awk 'length > 80' "$TMP/out")" ] || fail "table wider than 80 columns"

# B's durations halved: worker 1's 2 ms become A's 1 ms
expect_exit 0 "$SREP_BIN" compare --json --scale-b 0.5 a.data b.data
[ "$(jq '.matched[] | select(.a[0].tid == 101) | .metrics.cpu_time.diff' "$TMP/out")" = 0 ] ||
	fail "--scale-b"

# a trace against itself: no difference at all, every task paired
for m in auto comm pid; do
	expect_exit 0 "$SREP_BIN" compare --json --match $m b.data b.data
	[ "$(jq '.significant' "$TMP/out")" = 0 ] || fail "--match $m: b against itself differs"
	[ "$(jq '[.. | .diff? // empty | select(. != 0)] | length' "$TMP/out")" = 0 ] ||
		fail "--match $m: nonzero differences against itself"
	[ "$(jq '.unmatched_a + .unmatched_b | length' "$TMP/out")" = 0 ] ||
		fail "--match $m: unmatched tasks against itself"
done

# selection on both sides; -o writes the file
expect_exit 0 "$SREP_BIN" compare --json --only worker -o sel.json a.data b.data
[ "$(jq '.matched | length' sel.json)" = 2 ] || fail "--only worker"
[ "$(jq '.unmatched_a + .unmatched_b | length' sel.json)" = 0 ] || fail "--only: unmatched"

# one pair is "1 pair"
expect_exit 0 "$SREP_BIN" compare --only worker --exclude tid:102 --exclude tid:502 a.data b.data
grep -q "^tasks: 1 pair (--match auto), 0 only in A, 0 only in B$" "$TMP/out" ||
	fail "one pair: $(grep '^tasks:' "$TMP/out")"

# a selection per side: the boards' pids differ
expect_exit 0 "$SREP_BIN" compare --json --only-a tid:101 --only-b tid:501 a.data b.data
[ "$(jq -c '[.matched[] | [.a[0].tid, .b[0].tid]]' "$TMP/out")" = '[[101,501]]' ] ||
	fail "--only-a/--only-b: $(jq -c '[.matched[] | [.a[0].tid, .b[0].tid]]' "$TMP/out")"
[ "$(jq '.unmatched_a + .unmatched_b | length' "$TMP/out")" = 0 ] || fail "--only-a/-b: unmatched"
expect_exit 0 "$SREP_BIN" compare --json --only worker --exclude-b tid:502 a.data b.data
[ "$(jq -c '[(.matched | length), [.unmatched_a[].tid], [.unmatched_b[].tid]]' "$TMP/out")" = \
	'[1,[102],[]]' ] || fail "--exclude-b: $(jq -c '.unmatched_a' "$TMP/out")"
expect_exit 1 "$SREP_BIN" compare --only-b nosuch a.data b.data
grep -q "b.data: no task matches the selection of B" "$TMP/err" || fail "empty B: $(cat "$TMP/err")"
[ ! -s "$TMP/out" ] || fail "an empty selection printed a table"

# errors
expect_exit 2 "$SREP_BIN" compare a.data
expect_exit 2 "$SREP_BIN" compare --match tid a.data b.data
grep -q "expected auto, comm or pid" "$TMP/err" || fail "--match message"
expect_exit 2 "$SREP_BIN" compare --scale-a 0 a.data b.data
# an output that cannot be written fails before the work: nothing on stdout
expect_exit 1 "$SREP_BIN" compare --html "$TMP/nodir/x.html" a.data b.data
[ ! -s "$TMP/out" ] || fail "compare printed its table before failing on --html"
grep -q "nodir/x.html" "$TMP/err" || fail "--html failure does not name the file"
expect_exit 2 sh -c "'$SREP_BIN' compare - - < a.data"
grep -q "standard input can hold one of the traces" "$TMP/err" || fail "compare - - message"
expect_exit 1 "$SREP_BIN" compare a.data missing.data
grep -q "missing.data" "$TMP/err" || fail "missing file message"
printf 'not a trace\n' >text.data
expect_exit 1 "$SREP_BIN" compare text.data b.data
expect_exit 1 "$SREP_BIN" compare -o a.data a.data b.data
grep -q "refusing to overwrite the input" "$TMP/err" || fail "output over the input"
