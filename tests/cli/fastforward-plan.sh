#!/bin/sh
# fastforward-plan.sh - the plan of 'schedrep simpoint' drives 'schedrep
# fastforward' directly: perf records a task-clock profile of
# tests/simpoint/phases.c (phases A B A C A B of 150 ms of CPU each),
# simpoint picks one interval per phase kind, and fastforward --plan runs
# the same program with phases half as long again (so that every planned
# count is reached whatever the run-to-run spread): one checkpoint per
# planned point in order of start, each at or past its planned count and
# inside the interval it stands for, the action called in the same order
# with the counts the log gives.
. "$(dirname "$0")/lib.sh"
set -e
command -v perf >/dev/null || { echo "SKIP: perf missing (Debian: linux-perf)" >&2; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: python3 missing (reads the JSON)" >&2; exit 77; }
cd "$TMP"
CC=${SREP_CC:-cc}
$CC -O2 -o phases "$SREP_TOP_SRCDIR/tests/simpoint/phases.c" 2>cc.err ||
	{ cat cc.err >&2; echo "SKIP: no C compiler to build the workload ($CC)" >&2; exit 77; }

if ! perf record -q -e task-clock -c 1000000 -o prof.data -- ./phases 150 >prof.out 2>perf.err; then
	cat perf.err >&2
	grep -qi "permission\|paranoid" perf.err && { echo "SKIP: perf may not record here" >&2; exit 77; }
	fail "perf record failed"
fi
expect_exit 0 "$SREP_BIN" simpoint -q --interval 50M --max-k 8 -o sp prof.data
expect_exit 0 "$SREP_BIN" fastforward -q -o ff --plan sp/plan.json \
	--exec 'echo "{n} {count}" >>calls' -- ./phases 225 >/dev/null

python3 - sp/plan.json ff/fastforward.json calls <<'PY' || fail "the checkpoints do not follow the plan"
import json, sys
plan, log = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
calls = [l.split() for l in open(sys.argv[3])]
points = sorted(plan["points"], key=lambda p: p["start"])
targets = log["targets"]
assert plan["event"] == "task-clock" and plan["unit"] == "ns", plan["event"]
assert len(targets) == len(points) >= 2, (len(targets), len(points))
for n, (p, t) in enumerate(zip(points, targets), 1):
    assert t["plan_point"] == p["index"] and t["requested"] == p["start"], (n, p, t)
    assert t["skid"] == t["reached"] - t["requested"] >= 0, (n, t)
    # inside the interval it stands for
    assert t["reached"] < p["end"], (n, t["reached"], p["end"])
    assert calls[n - 1] == [str(n), str(t["reached"])], (n, calls[n - 1])
    print("point %d: interval %d, planned %d ns, reached %d ns, skid %d ns (%.2f%% of the interval)" %
          (n, p["index"], p["start"], t["reached"], t["skid"], 100.0 * t["skid"] / plan["interval"]),
          file=sys.stderr)
assert len(calls) == len(points)
PY
exit 0
