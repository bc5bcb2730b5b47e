#!/bin/sh
# compare A1 A2 ... --vs B1 B2 ...: repeated runs recorded here with
# 'perf sched record -- perf bench sched messaging', four with 50 loops (A)
# and four with 1600 (B: with 400, a 50-loop run on a loaded machine once
# switched more than a 400-loop one). The sides' medians and spreads are those of the
# runs' own two-trace figures; what grows with the loops (the workload's
# switches, sched-messaging's CPU time) is significant at the exact test's
# smallest p, 2/C(8,4); with 3 runs per side nothing can be, and the output
# says so; the two-trace form and its usage errors stay. Skips without perf
# or when perf cannot record here.
. "$(dirname "$0")/lib.sh"
set -e
command -v jq >/dev/null || { echo "SKIP: jq absent" >&2; exit 77; }
command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf on this machine" >&2; exit 77; }

# record SIDE N LOOPS
record() {
	perf sched record -q -o "$TMP/$1$2.data" -- perf bench sched messaging -g 1 -l "$3" \
		>/dev/null 2>"$TMP/rec.err" && [ -s "$TMP/$1$2.data" ]
}
for i in 1 2 3 4; do
	record a "$i" 50 && record b "$i" 1600 ||
		{ echo "SKIP: perf sched record failed: $(tail -n 2 "$TMP/rec.err")" >&2; exit 77; }
done
A="$TMP/a1.data $TMP/a2.data $TMP/a3.data $TMP/a4.data"
B="$TMP/b1.data $TMP/b2.data $TMP/b3.data $TMP/b4.data"

# shellcheck disable=SC2086
expect_exit 0 "$SREP_BIN" compare -q --json $A --vs $B
cp "$TMP/out" "$TMP/runs.json"
jq -e '.format == "schedrep-compare-runs" and .test.name == "mann-whitney-u-exact-two-sided"
	and .test.alpha == 0.05 and (.test.min_p * 70 | round) == 2 and .test.n_too_small == false' \
	"$TMP/runs.json" >/dev/null || fail "header: $(jq -c '.test' "$TMP/runs.json")"

# each run's value is its figure in a two-trace compare (run i against itself)
for i in 1 2 3 4; do
	expect_exit 0 "$SREP_BIN" compare -q --json "$TMP/a$i.data" "$TMP/a$i.data"
	want=$(jq '.workload.switches.a' "$TMP/out")
	got=$(jq ".rows[] | select(.group == \"workload\" and .metric == \"switches\") | .a.runs[$((i - 1))]" \
		"$TMP/runs.json")
	[ "$want" = "$got" ] || fail "run a$i: switches $got, its own compare says $want"
done
# median, min and max of the runs' values
jq -e '[.rows[] | (.a, .b) | (.runs | sort) as $v |
	.median == (($v[1] + $v[2]) / 2) and .min == $v[0] and .max == $v[3]] | all' \
	"$TMP/runs.json" >/dev/null || fail "a median or a spread is not that of the runs"

# 32 times the loops: every B run above every A run, p = 2/70, significant
for m in "workload switches" "sched-messaging cpu_time" "sched-messaging switches"; do
	set -- $m
	jq -e --arg g "$1" --arg m "$2" '.rows[] | select(.group == $g and .metric == $m) |
		.b.min > .a.max and (.p * 70 | round) == 2 and .significant and .u == 0' \
		"$TMP/runs.json" >/dev/null || fail "$m: not significant: $(jq -c --arg g "$1" \
		--arg m "$2" '.rows[] | select(.group == $g and .metric == $m)' "$TMP/runs.json")"
done
# the significant rows come first, and a p above 0.05 is never significant
jq -e '[.rows[] | .significant] as $s | ($s | index(false)) as $f |
	($f == null or ($s[$f:] | all | not)) and
	([.rows[] | select(.p > 0.05 and .significant)] | length == 0)' "$TMP/runs.json" >/dev/null ||
	fail "rows out of order, or a p above 0.05 flagged"

# the table says which test, the threshold and what 3 runs per side cannot show
# shellcheck disable=SC2086
expect_exit 0 "$SREP_BIN" compare -q $A --vs $B
grep -q "exact two-sided Mann-Whitney U" "$TMP/out" || fail "the table does not name the test"
grep -q "p <= 0.05" "$TMP/out" || fail "the table does not give the threshold"
grep -qE '^workload +switches .*\*$' "$TMP/out" || fail "workload switches not starred"
expect_exit 0 "$SREP_BIN" compare -q --json "$TMP/a1.data" "$TMP/a2.data" "$TMP/a3.data" \
	--vs "$TMP/b1.data" "$TMP/b2.data" "$TMP/b3.data"
jq -e '.test.n_too_small and .test.min_p == 0.1 and .significant == 0' "$TMP/out" >/dev/null ||
	fail "3 vs 3: $(jq -c '.test, .significant' "$TMP/out")"
expect_exit 0 "$SREP_BIN" compare -q "$TMP/a1.data" "$TMP/a2.data" "$TMP/a3.data" \
	--vs "$TMP/b1.data" "$TMP/b2.data" "$TMP/b3.data"
grep -q "n too small" "$TMP/out" || fail "3 vs 3: the table does not say n is too small"

# the two-trace form, also spelt with --vs, and the usage errors
expect_exit 0 "$SREP_BIN" compare -q --json "$TMP/a1.data" "$TMP/b1.data"
cp "$TMP/out" "$TMP/two.json"
expect_exit 0 "$SREP_BIN" compare -q --json "$TMP/a1.data" --vs "$TMP/b1.data"
cmp -s "$TMP/out" "$TMP/two.json" || fail "A --vs B differs from A B"
jq -e '.workload.switches' "$TMP/two.json" >/dev/null || fail "the two-trace form lost its JSON"
# shellcheck disable=SC2086
expect_exit 2 "$SREP_BIN" compare $A --vs
# shellcheck disable=SC2086
expect_exit 2 "$SREP_BIN" compare --html "$TMP/x.html" $A --vs $B
[ ! -e "$TMP/x.html" ] || fail "--html with runs left a file"
expect_exit 2 "$SREP_BIN" compare "$TMP/a1.data" --vs "$TMP/b1.data" --vs "$TMP/b2.data"
expect_exit 2 "$SREP_BIN" compare "$TMP/a1.data" "$TMP/a2.data" "$TMP/b1.data"
