#!/bin/sh
# simpoint-workloads.sh - three different programs profiled here with
# cpu-clock (perf record -e cpu-clock -c 100000: no hardware counters on
# these machines), then bench/simpoint-ref.sh on each: schedrep simpoint
# against SimPoint 3.2 on the same vectors (issue 14's validation 1).
#   xz      xz -6 of 8 MB of this machine's shared libraries (one thread)
#   python  sorting, JSON, regular expressions and dicts, three rounds
#   sort    GNU sort of 54 MB of base64 text (one thread)
# Needs root or perf_event_paranoid <= 1, perf, xz, python3; SIMPOINT_SRC as
# simpoint-ref.sh says. The traces stay in $BENCH_DIR/sp.
. "$(dirname "$0")/common.sh"
need perf linux-perf
need xz xz-utils
need python3 python3
D=$BENCH_DIR/sp
mkdir -p "$D"
cd "$D"
if [ ! -s in8 ]; then
	find /usr/lib -name '*.so*' -type f 2>/dev/null | sort | xargs cat 2>/dev/null | head -c 8000000 >in8
	find /usr/lib -name '*.so*' -type f 2>/dev/null | sort | xargs cat 2>/dev/null | head -c 40000000 |
		base64 >text.txt
fi
cat >phases.py <<'PY'
import json, re, random
random.seed(1)
data = [random.random() for _ in range(600000)]
for _ in range(3):
    s = sorted(data)
    txt = json.dumps(s[:200000])
    n = len(re.findall(r"0\.1[0-9]+", txt))
    d = {}
    for i, x in enumerate(s[:300000]):
        d[i % 1000] = d.get(i % 1000, 0) + x
print(n, len(d))
PY
rec() {
	name=$1
	shift
	[ -s "$name.data" ] || "$PERF" record -q -e cpu-clock -c 100000 -o "$name.data" -- "$@" >/dev/null 2>&1
}
rec xz xz -6 -T1 -c in8
rec python python3 phases.py
rec sort sort --parallel=1 -S 200M text.txt
sh "$TOP/bench/simpoint-ref.sh" "$D/xz.data" "$D/python.data" "$D/sort.data"
