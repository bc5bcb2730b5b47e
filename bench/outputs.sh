#!/bin/sh
# outputs.sh - every command's output on every corpus trace, into one
# directory, with a manifest of checksums: run it before and after a change
# that must not change any output byte, then compare the two manifests.
#
#   bench/outputs.sh OUTDIR            # writes OUTDIR/*.out and OUTDIR/MANIFEST
#   diff before/MANIFEST after/MANIFEST
#   ONLY=perf bench/outputs.sh OUTDIR  # info and the perf-named commands only
#
# SCHEDREP (default build/schedrep) is the binary; SREP_CORPUS (default
# ../shared/corpus) the corpus. Standard error is kept too (warnings are
# output), with the corpus and output paths replaced by fixed names so two
# runs from different directories compare equal.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
SCHEDREP=${SCHEDREP:-$TOP/build/schedrep}
CORPUS=${SREP_CORPUS:-$TOP/../shared/corpus}
OUT=${1:?usage: outputs.sh OUTDIR}
[ -d "$CORPUS" ] || { echo "outputs: no corpus at $CORPUS" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
CORPUS=$(cd "$CORPUS" && pwd)

# run NAME CMD...: stdout to NAME.out, stderr (paths neutralised) to NAME.err,
# the exit status to NAME.rc
run() {
	name=$1
	shift
	set +e
	"$@" >"$OUT/$name.out" 2>"$OUT/$name.err"
	echo $? >"$OUT/$name.rc"
	set -e
	sed -i -e "s#$CORPUS#CORPUS#g" -e "s#$OUT#OUT#g" "$OUT/$name.err"
}

# perf_cmds TRACE NAME: script, timehist, map and latency, both perf dialects,
# the options that change what is printed, text and JSON
perf_cmds() {
	for v in 6.1 6.12; do
		run "$2.script-$v" "$SCHEDREP" script -q --perf $v "$1"
		run "$2.script-F-$v" "$SCHEDREP" script -q --perf $v -F comm,pid,tid,time,event "$1"
		run "$2.script-cpu-$v" "$SCHEDREP" script -q --perf $v -F -cpu,+pid "$1"
		run "$2.timehist-$v" "$SCHEDREP" timehist -q --perf $v "$1"
		run "$2.timehist-SwM-$v" "$SCHEDREP" timehist -q --perf $v -S -w -M --state "$1"
		run "$2.timehist-Is-$v" "$SCHEDREP" timehist -q --perf $v -I -s "$1"
		run "$2.timehist-s-$v" "$SCHEDREP" timehist -q --perf $v -s --state "$1"
		run "$2.map-$v" "$SCHEDREP" map -q --perf $v "$1"
		run "$2.map-compact-$v" "$SCHEDREP" map -q --perf $v --compact "$1"
		run "$2.latency-$v" "$SCHEDREP" latency -q --perf $v "$1"
		run "$2.latency-p-$v" "$SCHEDREP" latency -q --perf $v -p -s max,runtime "$1"
	done
	run "$2.script-json" "$SCHEDREP" script -q --json "$1"
	run "$2.timehist-json" "$SCHEDREP" timehist -q --json -w -M --state "$1"
	run "$2.map-json" "$SCHEDREP" map -q --json "$1"
	run "$2.latency-json" "$SCHEDREP" latency -q --json -p "$1"
}

n=0
for f in "$CORPUS"/emulated/*.data "$CORPUS"/callchains/*/*.data "$CORPUS"/public/*; do
	case $f in *.txt | *.md | *.xz) continue ;; esac
	[ -f "$f" ] || continue
	b=$(echo "${f#$CORPUS/}" | tr '/' '_')
	run "$b.info" "$SCHEDREP" info "$f"
	run "$b.info-json" "$SCHEDREP" info --json "$f"
	run "$b.info-stats" "$SCHEDREP" info --stats "$f"
	# the converters need a trace that reads; skip the rest for one that does not
	[ "$(cat "$OUT/$b.info.rc")" = 0 ] || continue
	perf_cmds "$f" "$b"
	n=$((n + 1))
	[ "${ONLY:-}" != perf ] || continue
	for fmt in perfetto pftrace json svg rt-app; do
		run "$b.convert-$fmt" "$SCHEDREP" convert -q -f "$fmt" -o - "$f"
	done
	run "$b.convert-criu" "$SCHEDREP" convert -q -f criu --every 0.5 -o "$OUT/$b.criu" "$f"
	[ -d "$OUT/$b.criu" ] && (cd "$OUT/$b.criu" && find . -type f | sort | xargs -r sha256sum) \
		>"$OUT/$b.convert-criu.out" && rm -rf "$OUT/$b.criu"
	run "$b.callchains" "$SCHEDREP" callchains "$f"
	run "$b.replay-dry" "$SCHEDREP" replay --dry-run "$f"
	run "$b.compare-self" "$SCHEDREP" compare --json --no-symbols "$f" "$f"
done
(cd "$OUT" && find . -maxdepth 1 -type f ! -name MANIFEST | sort | xargs sha256sum) >"$OUT/MANIFEST"
echo "outputs: $n traces converted, $(wc -l <"$OUT/MANIFEST") files in $OUT/MANIFEST" >&2
