#!/bin/sh
# simpoint-bbv.sh - what a sampled profile loses against exact basic-block
# vectors (issue 14's validation 3). tests/simpoint/phases.c runs its phases
# A B A C A B for a fixed number of loop rounds (the same instructions every
# run). Valgrind's exp-bbv writes the exact vectors of intervals of
# BBV_INTERVAL instructions; perf records the native run with cpu-clock at
# several sampling periods (no hardware counters here), and schedrep
# simpoint writes the sampled vectors of intervals of as many ns as make
# about the same number of intervals. SimPoint 3.2 clusters both (the same
# options: its own projection and seeds, -k 1:15, weights by length) and
# the script prints, per period: the k of each, the adjusted Rand index of
# each clustering against the true phase of each interval (the phase whose
# function ran most in it), and the weight each gives to the phases A, B
# and C through its simulation points. The intervals of the two are not the
# same (instructions against time): the phases' shares differ between them
# even without sampling, by each phase's instructions per ns, so the table
# also gives the shares each kind of interval has of the whole.
#
# Needs valgrind, perf (root or perf_event_paranoid <= 1), cc, python3 and
# SimPoint 3.2 as simpoint-ref.sh says (SIMPOINT_DIR, SIMPOINT_SRC).
# ROUNDS (default 2000), BBV_INTERVAL (default 10000000), PERIODS (ns,
# default "20000 100000 500000 2000000").
. "$(dirname "$0")/common.sh"
need valgrind valgrind
need perf linux-perf
need python3 python3
ROUNDS=${ROUNDS:-2000}
BBV_INTERVAL=${BBV_INTERVAL:-10000000}
PERIODS=${PERIODS:-20000 100000 500000 2000000}
SIMPOINT_DIR=${SIMPOINT_DIR:-/work/scratch/simpoint-ref}
SP=$SIMPOINT_DIR/build/simpoint
[ -x "$SP" ] || { echo "bench: build SimPoint first (bench/simpoint-ref.sh, SIMPOINT_SRC)" >&2; exit 2; }
D=$BENCH_DIR/bbv
mkdir -p "$D"
cd "$D"
${CC:-cc} -O2 -g -o phases "$TOP/tests/simpoint/phases.c"

# SimPoint 3.2 on a frequency-vector file: its labels and (point, weight) lines
cluster() {
	"$SP" -loadFVFile "$1" -k 1:15 -dim 15 -fixedLength off -numInitSeeds 5 -iters 100 \
		-saveSimpoints "$2.simpoints" -saveSimpointWeights "$2.weights" -saveLabels "$2.labels" \
		>"$2.log" 2>&1
}

if [ ! -s exact.bb ]; then
	valgrind --tool=exp-bbv --interval-size="$BBV_INTERVAL" --bb-out-file=exact.bb \
		--pc-out-file=exact.pc ./phases 0 "$ROUNDS" >/dev/null 2>valgrind.log
fi
cluster exact.bb exact
nr_exact=$(grep -c '^T' exact.bb)
echo "exact: exp-bbv, intervals of $BBV_INTERVAL instructions: $nr_exact intervals; load $(cut -d' ' -f1-3 /proc/loadavg)"

for p in $PERIODS; do
	"$PERF" record -q -e cpu-clock -c "$p" -o "s$p.data" -- ./phases 0 "$ROUNDS" >/dev/null 2>&1
	total=$("$SCHEDREP" simpoint -q --interval 1G -o "probe$p" "s$p.data" >/dev/null 2>&1;
		sed -n 's/.*"total":\([0-9]*\),.*/\1/p' "probe$p/plan.json")
	rm -rf "probe$p" "s$p"
	"$SCHEDREP" simpoint -q --interval $((total / nr_exact + 1)) -o "s$p" "s$p.data"
	cluster "s$p/vectors.bb" "sampled$p"
done

python3 - "$BBV_INTERVAL" $PERIODS <<'PY'
import re, sys
interval, periods = sys.argv[1], sys.argv[2:]

def ari(a, b):
    from collections import Counter
    c2 = lambda n: n * (n - 1) / 2
    n = len(a)
    sab = sum(c2(v) for v in Counter(zip(a, b)).values())
    sa = sum(c2(v) for v in Counter(a).values()); sb = sum(c2(v) for v in Counter(b).values())
    exp = sa * sb / c2(n); top = (sa + sb) / 2
    return 1.0 if top == exp else (sab - exp) / (top - exp)

def vectors(path):
    return [{int(d): float(c) for d, c in re.findall(r":(\d+):(\d+(?:\.\d+)?)", l)}
            for l in open(path) if l.startswith("T")]

def truth(vecs, phase_of_dim):
    out = []
    for v in vecs:
        per = {}
        for d, c in v.items():
            ph = phase_of_dim.get(d)
            if ph: per[ph] = per.get(ph, 0) + c
        out.append(max(per, key=per.get) if per else "-")
    return out

def summary(prefix, vecs, phases):
    labels = [int(l.split()[0]) for l in open(prefix + ".labels")]
    pts = [int(l.split()[0]) for l in open(prefix + ".simpoints")]
    wts = [float(l.split()[0]) for l in open(prefix + ".weights")]
    w = {}
    for p, x in zip(pts, wts):
        w[phases[p]] = w.get(phases[p], 0) + x
    total = sum(sum(v.values()) for v in vecs)
    share = {}
    for v, ph in zip(vecs, phases):
        share[ph] = share.get(ph, 0) + sum(v.values()) / total
    return len(pts), ari(labels, phases), w, share

# exact: block ids to functions from exp-bbv's pc file ("F:id:pc:fn..." lines)
phase_dim = {}
for l in open("exact.pc"):
    f = l.rstrip("\n").split(":")
    if len(f) >= 4 and f[0] == "F":
        for name in f[3:]:
            m = re.match(r"phase_([abc])", name)
            if m: phase_dim[int(f[1])] = m.group(1).upper()
ev = vectors("exact.bb"); eph = truth(ev, phase_dim)
ek, eari, ew, eshare = summary("exact", ev, eph)
fmt = lambda d: " ".join("%s %.3f" % (k, d.get(k, 0)) for k in "ABC")
print("%-26s k %2d  ARI vs phases %.4f  point weights %s  interval shares %s" % ("exact (exp-bbv)", ek, eari, fmt(ew), fmt(eshare)))
for p in periods:
    dims = {int(l.split()[0]): l.split()[1] for l in open("s%s/dims" % p)}
    pd = {d: re.search(r"phase_([abc])", n).group(1).upper() for d, n in dims.items() if re.search(r"phase_([abc])", n)}
    sv = vectors("s%s/vectors.bb" % p); sph = truth(sv, pd)
    k, a, w, share = summary("sampled%s" % p, sv, sph)
    err = max(abs(w.get(x, 0) - ew.get(x, 0)) for x in "ABC")
    print("%-26s k %2d  ARI vs phases %.4f  point weights %s  interval shares %s  max weight diff vs exact %.3f" %
          ("cpu-clock every %s ns" % p, k, a, fmt(w), fmt(share), err))
PY
