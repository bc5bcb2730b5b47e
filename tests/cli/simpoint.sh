#!/bin/sh
# simpoint.sh - "schedrep simpoint" finds the phases of a program whose
# phases are known (tests/simpoint/phases.c: A B A C A B, each a different
# loop), from the recorded fixture and, where perf can record here, from a
# fresh recording; its files are SimPoint's formats and the plan's shape;
# one seed gives one answer; bad inputs end with one clear line.
. "$SREP_TOP_SRCDIR/tests/cli/lib.sh"
set -e
FIX="$DATA/simpoint-phases.data"
ARI="$SREP_TOP_SRCDIR/tests/simpoint/ari.awk"

# truth_vs_found DIR TRUTH: "TRUE FOUND" per interval, the true phase being
# the one running at the middle of the interval (the program's own clock)
truth_vs_found() {
	awk 'FNR == NR { if ($1 == "PHASE") { t[++n] = $3; p[n] = $2 } next }
	     /^#/ { next }
	     { time[$1] = $4; cl[$1] = $5; last = $1 }
	     END {
		for (i = 0; i <= last; i++) {
			mid = i < last ? (time[i] + time[i + 1]) / 2 : time[i]
			ph = p[1]
			for (j = 1; j <= n; j++) if (t[j] <= mid) ph = p[j]
			print ph, cl[i]
		}
	     }' "$2" "$1/intervals.txt"
}

# check_phases DIR TRUTH LABEL: adjusted Rand index against the truth >= 0.9
check_phases() {
	ari=$(truth_vs_found "$1" "$2" | awk -f "$ARI")
	echo "$3: adjusted Rand index vs the true phases: $ari"
	awk -v a="$ari" 'BEGIN { exit !(a >= 0.9) }' || fail "$3: ARI $ari < 0.9"
}

# check_files DIR: SimPoint's formats, the weights summing to 1, the plan's shape
check_files() {
	for f in simpoints weights vectors.bb dims projection.txt labels intervals.txt \
		summary.txt plan.json phases.svg; do
		[ -s "$1/$f" ] || fail "$1/$f missing or empty"
	done
	grep -qv '^T\(:[0-9][0-9]*:[0-9][0-9]* \)*$' "$1/vectors.bb" &&
		fail "vectors.bb is not in SimPoint's T:id:count format"
	k=$(wc -l <"$1/simpoints")
	[ "$k" = "$(wc -l <"$1/weights")" ] || fail "simpoints and weights differ in length"
	awk '{ s += $1 } END { exit !(s > 0.999999 && s < 1.000001) }' "$1/weights" ||
		fail "the weights do not sum to 1"
	grep -q '^{"version":1,"event":"cpu-clock\(:u\)\{0,1\}","unit":"ns","interval":5000000,"total":[0-9]*,$' \
		"$1/plan.json" || fail "plan.json header: $(head -1 "$1/plan.json")"
	[ "$(grep -c '"index":[0-9]*,"cluster":[0-9]*,"start":[0-9]*,"end":[0-9]*,"weight":[0-9.e-]*,"time_ns":[0-9]*,"threads":\[[0-9,]*\]}' \
		"$1/plan.json")" = "$k" ] || fail "plan.json has not $k points of the agreed shape"
	# points by start; the total is where the last interval ends
	sed -n 's/.*"start":\([0-9]*\),.*/\1/p' "$1/plan.json" | sort -n -c ||
		fail "plan.json points are not sorted by start"
	total=$(sed -n 's/.*"total":\([0-9]*\),.*/\1/p' "$1/plan.json")
	[ "$(tail -n 1 "$1/intervals.txt" | cut -d' ' -f3)" = "$total" ] ||
		fail "the last interval does not end at the total $total"
	check_svg "$1"
}

# check_svg DIR: phases.svg has one strip rect per interval with its label's
# cluster, one colour per cluster, and a marker under each simulation point
check_svg() {
	svg=$1/phases.svg
	if command -v xmllint >/dev/null; then
		xmllint --noout "$svg" || fail "$svg is not well-formed XML"
	fi
	sed -n 's/.*class="iv" data-interval="[0-9]*" data-cluster="\([0-9-]*\)".*/\1/p' "$svg" |
		cmp -s - "$1/labels" || fail "$svg: the strip's clusters are not the labels"
	[ "$(sed -n 's/.*class="iv".* fill="\([^"]*\)".*/\1/p' "$svg" | sort -u | wc -l)" = \
	  "$(sort -u "$1/labels" | wc -l)" ] || fail "$svg: not one colour per cluster"
	sed -n 's/.*class="point" data-interval="\([0-9]*\)".*/\1/p' "$svg" | sort -n |
		cmp -s - "$(cut -d' ' -f1 "$1/simpoints" | sort -n >"$TMP/pts"; echo "$TMP/pts")" ||
		fail "$svg: the markers are not the simulation points"
}

if [ -f "$FIX" ]; then
	expect_exit 0 "$SREP_BIN" simpoint --interval 5M -o "$TMP/a" "$FIX"
	grep -q '^k = ' "$TMP/out" || fail "no summary on stdout"
	check_files "$TMP/a"
	check_phases "$TMP/a" "$DATA/simpoint-phases.truth" fixture
	# the same seed, the same answer; address blocks alone find the phases too
	expect_exit 0 "$SREP_BIN" simpoint -q --interval 5M -o "$TMP/b" "$FIX"
	diff -r "$TMP/a" "$TMP/b" >&2 || fail "two runs with one seed differ"
	expect_exit 0 "$SREP_BIN" simpoint -q --no-symbols --interval 5M -o "$TMP/c" "$FIX"
	check_phases "$TMP/c" "$DATA/simpoint-phases.truth" "fixture, address blocks"
	# more clusters asked for than there are intervals
	expect_exit 1 "$SREP_BIN" simpoint --interval 500M --max-k 30 -o "$TMP/d" "$FIX"
	grep -q 'fewer than the 30 clusters' "$TMP/err" || fail "k > intervals: $(cat "$TMP/err")"
	[ "$(wc -l <"$TMP/err")" = 1 ] || fail "more than one line for k > intervals"
	[ ! -e "$TMP/d" ] || fail "an output was left after an error"
else
	part_skipped "$FIX missing"
fi

# a trace without periodic samples: scheduler tracepoints only
expect_exit 1 "$SREP_BIN" simpoint -o "$TMP/e" "$DATA/sample-x86_64.data"
grep -q 'no samples with periods' "$TMP/err" || fail "no periods: $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/err")" = 1 ] || fail "more than one line for a trace without periods"
expect_exit 2 "$SREP_BIN" simpoint --interval 0 "$FIX"

# a fresh recording, where perf can record here
CC=${SREP_CC:-cc}
if ! command -v perf >/dev/null 2>&1; then
	part_skipped "perf not installed: no fresh recording"
elif ! $CC -O2 -g -o "$TMP/phases" "$SREP_TOP_SRCDIR/tests/simpoint/phases.c" 2>"$TMP/cc.err"; then
	part_skipped "cannot build the phases program: $(head -1 "$TMP/cc.err")"
# user-space samples only: on a loaded machine the kernel's share (timer
# interrupts, scheduling) is noise that the phases do not own
elif ! perf record -q -k CLOCK_MONOTONIC -e cpu-clock:u -c 100000 -o "$TMP/live.data" -- \
	"$TMP/phases" >"$TMP/live.truth" 2>"$TMP/rec.err"; then
	part_skipped "perf cannot record here: $(head -1 "$TMP/rec.err")"
else
	expect_exit 0 "$SREP_BIN" simpoint -q --interval 5M -o "$TMP/live" "$TMP/live.data"
	check_files "$TMP/live"
	check_phases "$TMP/live" "$TMP/live.truth" "fresh recording"
fi
exit 0
