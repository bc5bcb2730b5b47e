#!/bin/sh
# schedrep compare on the emulated corpus: the same 'perf bench sched
# messaging' workload recorded on six boards (s390x big-endian, armhf
# 32-bit, arm64 with perf 6.1 and 6.12, x86_64 with 2 and 4 CPUs). Every
# pair compares with all 81 workload tasks paired and none left over; a
# trace against itself differs nowhere; the per-task SWITCH record traces
# (no tracepoints) pair their workload too. Skips without the corpus.
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT/emulated"
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS (set SREP_CORPUS)" >&2; exit 77; }
boards="s390x armhf arm64 arm64-trixie x86_64 x86_64-smp4"

# workload tasks: paired, unmatched on A's side, unmatched on B's side
workload() {
	jq -r '[([.matched[] | select(.a[0].comm == "sched-messaging")] | length),
		([.unmatched_a[] | select(.comm == "sched-messaging")] | length),
		([.unmatched_b[] | select(.comm == "sched-messaging")] | length)] | join(" ")' "$1"
}

pairs=0
for a in $boards; do
	for b in $boards; do
		expect_exit 0 "$SREP_BIN" compare --json "$CORPUS/$a-messaging.data" \
			"$CORPUS/$b-messaging.data"
		got=$(workload "$TMP/out")
		[ "$got" = "81 0 0" ] || fail "$a vs $b: sched-messaging paired/only A/only B: $got"
		if [ "$a" = "$b" ]; then
			[ "$(jq '.significant' "$TMP/out")" = 0 ] || fail "$a against itself differs"
			[ "$(jq '[.. | .diff? // empty | select(. != 0)] | length' "$TMP/out")" = 0 ] ||
				fail "$a against itself: nonzero differences"
		fi
		pairs=$((pairs + 1))
	done
done
echo "$pairs messaging pairs: all 81 workload tasks paired"

# the same workload seen through per-task SWITCH records only
expect_exit 0 "$SREP_BIN" compare --json "$CORPUS/x86_64-switch.data" "$CORPUS/s390x-switch.data"
got=$(workload "$TMP/out")
[ "${got#81 }" != "$got" ] || fail "switch records: sched-messaging paired/only A/only B: $got"
echo "switch records: $got"
