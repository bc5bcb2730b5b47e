#!/bin/sh
# bench/symbols.sh [BUILD_DIR] - what resolving callchains costs, on the
# corpus' callchain traces (../shared/corpus/callchains/ARCH/*.data).
#
# For each trace, with the target's files in a temporary symfs and its
# kallsyms decompressed, schedrep convert to standard output:
#   perfetto  --no-symbols (no stacks at all); symbols on but no symbol
#             files (every callchain an instant with its stack of addresses);
#             with --kallsyms K --symfs S (sleep slices name where tasks
#             blocked, the stacks are named). Ratios: with symbols over each
#             of the two: the issue's target is at most 2x. The stacks make
#             the output several times larger, so "sym / addr" is what
#             resolving costs, "sym / no-sym" also pays for the larger output
#   json      the same for the lossless JSON (with symbols, every callchain's
#             frames resolved)
#   script    schedrep callchains (resolve and print every frame), and its
#             peer 'perf script -F comm,tid,time,event,ip,sym,symoff,dso' with
#             the same files (this machine's perf); ratio perf / schedrep
# The corpus traces are small (about 400 callchains, converted in 2-5 ms): a
# fixed cost, parsing the kernel's kallsyms (50,000-95,000 lines, 5-12 ms in
# a fresh process, half of it page faults on the 4 MB copy and the table),
# dominates them. So a
# larger trace is recorded here too when perf can (root, or
# perf_event_paranoid <= 1): perf record -e sched:sched_switch -g of
# 'perf bench sched messaging -g 5 -l 300', symbolized from this machine's
# own files (/proc/kallsyms, /).
# Median wall time of RUNS runs (default 15) after a warm-up, with hyperfine.
# Figures are printed, never asserted: the machine is shared and noisy, so the
# load average is printed too.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$TOP/build}
SCHEDREP=$BUILD/schedrep
CORPUS=${SREP_CORPUS:-$TOP/../shared/corpus}/callchains
RUNS=${RUNS:-15}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedrep-bench-symbols-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

for tool in hyperfine xz; do
	command -v $tool >/dev/null || { echo "bench: '$tool' is needed (apt-get install $tool)" >&2; exit 2; }
done
[ -x "$SCHEDREP" ] || { echo "bench: build schedrep first ($SCHEDREP)" >&2; exit 2; }
[ -d "$CORPUS" ] || { echo "bench: no corpus at $CORPUS" >&2; exit 2; }
PERF=$(command -v perf || true)
# symbols on, but no file to take them from: every frame stays an address
mkdir "$WORK/no-files"
: >"$WORK/no-kallsyms"
NOFILES="--kallsyms $WORK/no-kallsyms --symfs $WORK/no-files --buildid-dir="

# median wall seconds of a command, "-" if it failed (JSON: perf's field list has commas)
wall() {
	if hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$WORK/h.json" "$1" >/dev/null 2>&1; then
		sed -n 's/.*"median": *\([0-9.e-]*\).*/\1/p' "$WORK/h.json" | head -n 1
	else
		echo -
	fi
}

# symfs ARCH TRIPLET LOADER: the target's files at the paths the traces name
symfs() {
	root="$WORK/root-$1"
	mkdir -p "$root/root" "$root/usr/lib/$2"
	for b in "$CORPUS/$1"/blocker "$CORPUS/$1"/blocker-marm "$CORPUS/$1"/blocker-thumb; do
		if [ -f "$b" ]; then ln -s "$b" "$root/root/$(basename "$b")"; fi
	done
	ln -s "$CORPUS/$1/libc.so.6" "$root/usr/lib/$2/libc.so.6"
	ln -s "$CORPUS/$1/$3" "$root/usr/lib/$2/$3"
	xz -dc "$CORPUS/$1/kallsyms.xz" >"$WORK/kallsyms-$1"
}

# row NAME TRACE SYMBOL-OPTIONS PERF-SYMBOL-OPTIONS
row() {
	frames=$("$SCHEDREP" info --json $3 "$2" 2>/dev/null |
		 awk -F: '/"frames"/ {gsub(/[ \t,]/, "", $2); print $2}')
	pa=$(wall "$SCHEDREP convert -q --no-symbols -o - $2")
	pn=$(wall "$SCHEDREP convert -q $NOFILES -o - $2")
	pb=$(wall "$SCHEDREP convert -q $3 -o - $2")
	ja=$(wall "$SCHEDREP convert -q -f json --no-symbols -o - $2")
	jn=$(wall "$SCHEDREP convert -q -f json $NOFILES -o - $2")
	jb=$(wall "$SCHEDREP convert -q -f json $3 -o - $2")
	cc=$(wall "$SCHEDREP callchains -q $3 $2")
	ps=-
	if [ -n "$PERF" ] && "$PERF" script -i "$2" >/dev/null 2>&1; then
		ps=$(wall "$PERF script -F comm,tid,time,event,ip,sym,symoff,dso $4 -i $2")
	fi
	awk -v n="$1" -v f="${frames:-0}" -v pa="$pa" -v pn="$pn" -v pb="$pb" -v ja="$ja" \
	    -v jn="$jn" -v jb="$jb" -v c="$cc" -v p="$ps" 'BEGIN {
		printf "%-40s %7d %6.1f %6.1f %6.1f %5.2fx %5.2fx %6.1f %6.1f %6.1f %5.2fx %5.2fx %6.1f ",
		       n, f, pa * 1e3, pn * 1e3, pb * 1e3, pb / pa, pb / pn,
		       ja * 1e3, jn * 1e3, jb * 1e3, jb / ja, jb / jn, c * 1e3
		if (p == "-") printf "%7s %6s\n", "-", "-"; else printf "%7.1f %5.2fx\n", p * 1e3, p / c }'
}

echo "schedrep: $SCHEDREP; perf: ${PERF:-absent}; $RUNS runs each; load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "median wall ms; convert writes to standard output (discarded)"
echo "no-sym: --no-symbols (no stacks at all); addr: symbols on, no symbol files (stacks of"
echo "addresses: the same output shape); sym: the target's files. Ratios: sym / no-sym, sym / addr"
printf "%-40s %7s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %7s %6s\n" "" "" perfetto "" "" "" "" \
	json "" "" "" "" "" "perf" ""
printf "%-40s %7s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %7s %6s\n" trace frames no-sym addr \
	sym /nosym /addr no-sym addr sym /nosym /addr callch script perf/us

for spec in "x86_64 x86_64-linux-gnu ld-linux-x86-64.so.2" "arm64 aarch64-linux-gnu ld-linux-aarch64.so.1" \
	    "armhf arm-linux-gnueabihf ld-linux-armhf.so.3" "s390x s390x-linux-gnu ld64.so.1"; do
	set -- $spec
	symfs "$1" "$2" "$3"
	sym="--kallsyms $WORK/kallsyms-$1 --symfs $WORK/root-$1 --buildid-dir="
	for t in "$CORPUS/$1"/*.data; do
		row "$1/$(basename "$t")" "$t" "$sym" "--kallsyms $WORK/kallsyms-$1 --symfs $WORK/root-$1"
	done
done

if [ -n "$PERF" ] && [ -r /proc/kallsyms ] &&
   "$PERF" record -q -e sched:sched_switch -g -o "$WORK/here.data" -- \
	   "$PERF" bench sched messaging -g 5 -l 300 >/dev/null 2>&1; then
	cp /proc/kallsyms "$WORK/kallsyms-here"
	row "recorded here ($(du -h "$WORK/here.data" | cut -f1))" "$WORK/here.data" \
	    "--kallsyms $WORK/kallsyms-here --buildid-dir=" "--kallsyms $WORK/kallsyms-here"
else
	echo "(no trace recorded here: perf cannot record)"
fi
