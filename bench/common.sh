# common.sh - helpers for the bench scripts (sourced). Figures are printed,
# never asserted: machines here are shared and noisy.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
SCHEDREP=${SCHEDREP:-${SREP_BIN:-$TOP/build/schedrep}}
PERF=${PERF:-perf}
BENCH_DIR=${BENCH_DIR:-${TMPDIR:-/tmp}/schedrep-bench}
RUNS=${RUNS:-5}
mkdir -p "$BENCH_DIR"

need() {
	command -v "$1" >/dev/null 2>&1 || { echo "bench: '$1' is needed (apt-get install $2)" >&2; exit 2; }
}

# the ~100 MB trace the issues name: perf sched record of perf bench sched messaging
big_trace() {
	t=${1:-$BENCH_DIR/sched-messaging-g10-l2000.data}
	if [ ! -s "$t" ]; then
		echo "bench: recording $t (perf sched record, needs root) ..." >&2
		"$PERF" sched record -o "$t" -- "$PERF" bench sched messaging -g 10 -l 2000 >/dev/null 2>&1
	fi
	echo "$t"
}

# median wall seconds of a command over $RUNS runs (one warm-up), via hyperfine
wall() {
	hyperfine -N --warmup 1 --runs "$RUNS" --export-csv "$BENCH_DIR/h.csv" "$1" >/dev/null 2>&1
	awk -F, 'NR == 2 {print $4}' "$BENCH_DIR/h.csv"
}

# peak resident set of a command, MB (GNU time -v)
peak_rss_mb() {
	/usr/bin/time -v sh -c "$1 >/dev/null 2>&1" 2>&1 | awk '/Maximum resident/ {printf "%.1f", $6 / 1024}'
}

row() {	# name wall_s rss_mb bytes events peer_wall
	awk -v n="$1" -v w="$2" -v r="$3" -v b="$4" -v e="$5" -v p="$6" 'BEGIN {
		printf "%-34s %8.3f s %9.0f MB/s %10.2f Mev/s %8.1f MB  %6.2fx\n",
		       n, w, b / w / 1e6, e / w / 1e6, r, p / w }'
}

# a scratch directory for one script's outputs, removed at exit unless KEEP=1
work_dir() {
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedrep-bench-XXXXXX")
	if [ "${KEEP:-0}" != 1 ]; then
		trap 'rm -rf "$WORK"' EXIT
		trap 'rm -rf "$WORK"; exit 130' INT TERM HUP PIPE
	fi
}
