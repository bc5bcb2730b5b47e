#!/bin/sh
# simpoint-ref.sh - schedrep simpoint against the reference SimPoint 3.2 on
# the same frequency vectors and the same projection matrix: the k each
# chooses, the adjusted Rand index between their labels, and whether the
# simulation points and their weights are the same, per trace. With
# --simpoint32 both draw the k-means starts from SimPoint's default seeds.
#
#   bench/simpoint-ref.sh TRACE...        (perf.data with periodic samples)
#
# SimPoint 3.2 is built from a copy of its source that is never part of
# this tree: SIMPOINT_SRC (a checkout with analysiscode/), built into
# SIMPOINT_DIR (default /work/scratch/simpoint-ref). Each trace runs twice:
# with --simpoint32 (SimPoint 3.2's method: the two should agree) and with
# schedrep's default noise floor (docs/simpoint.md). INTERVAL (default 5M)
# and MAXK (default 15) apply to both tools.
. "$(dirname "$0")/common.sh"
SIMPOINT_DIR=${SIMPOINT_DIR:-/work/scratch/simpoint-ref}
INTERVAL=${INTERVAL:-5M}
MAXK=${MAXK:-15}
ARI="$TOP/tests/simpoint/ari.awk"

simpoint_bin() {
	bin=$SIMPOINT_DIR/build/simpoint
	if [ ! -x "$bin" ]; then
		: "${SIMPOINT_SRC:?set SIMPOINT_SRC to a SimPoint 3.2 source tree (with analysiscode/)}"
		mkdir -p "$SIMPOINT_DIR/build"
		cp "$SIMPOINT_SRC"/analysiscode/*.cpp "$SIMPOINT_SRC"/analysiscode/*.h "$SIMPOINT_DIR/build/"
		(cd "$SIMPOINT_DIR/build" && g++ -O2 -w -o simpoint ./*.cpp) >&2
	fi
	echo "$bin"
}

# labels DIR: SimPoint's -saveLabels (label, distance) -> one label per line
ref_labels() { awk '{ print $1 }' "$1"; }

one() {
	trace=$1 mode=$2 flag=$3
	out=$BENCH_DIR/sp-$(basename "$trace" .data)-$mode
	rm -rf "$out" "$out.ref"
	"$SCHEDREP" simpoint -q $flag --interval "$INTERVAL" --max-k "$MAXK" -o "$out" "$trace"
	mkdir -p "$out.ref"
	# the same vectors, projection, weights by length (-fixedLength off), k = 1..MAXK
	"$SP" -loadFVFile "$out/vectors.bb" -loadProjMatrixTxtFmt "$out/projection.txt" \
		-k "1:$MAXK" -fixedLength off -bicThreshold 0.9 -numInitSeeds 5 -iters 100 \
		-saveSimpoints "$out.ref/simpoints" -saveSimpointWeights "$out.ref/weights" \
		-saveLabels "$out.ref/labels" >"$out.ref/log" 2>&1
	ours_k=$(wc -l <"$out/simpoints")
	ref_k=$(wc -l <"$out.ref/simpoints")
	ari=$(ref_labels "$out.ref/labels" | paste -d' ' "$out/labels" - | awk -f "$ARI")
	n=$(wc -l <"$out/labels")
	# the points and weights, by interval (cluster numbers may differ; SimPoint
	# prints weights to 6 significant digits)
	paste -d' ' "$out.ref/simpoints" "$out.ref/weights" | sort -n >"$out.ref/pw"
	pts=$(paste -d' ' "$out/simpoints" "$out/weights" | sort -n | paste -d' ' - "$out.ref/pw" |
		awk 'function abs(x) { return x < 0 ? -x : x }
		     $1 != $5 || abs($3 - $7) > 1e-5 * $7 { bad = 1 } END { print bad ? "differ" : "same" }')
	printf '%-28s %-10s intervals %4d  k schedrep %2d  SimPoint %2d  ARI %s  points+weights %s\n' \
		"$(basename "$trace")" "$mode" "$n" "$ours_k" "$ref_k" "$ari" "$pts"
}

[ $# -gt 0 ] || { echo "usage: $0 TRACE..." >&2; exit 2; }
SP=$(simpoint_bin)
for t in "$@"; do
	one "$t" simpoint32 --simpoint32
	one "$t" default ""
done
