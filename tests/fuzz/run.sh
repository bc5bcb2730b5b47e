#!/bin/sh
# tests/fuzz/run.sh - run the libFuzzer targets of a --enable-fuzzers build.
#
#   run.sh smoke BUILDDIR SECONDS        each target SECONDS on its seeds and
#                                        every regression input (CI); fails on
#                                        any finding
#   run.sh campaign BUILDDIR SECONDS OUT each target (FUZZ_TARGETS, default all) SECONDS, keeping its
#                                        growing corpus and findings in OUT/TARGET/;
#                                        prints executions, coverage, findings
#
# Seeds: the fixture writer's small traces of every layout (tests/fuzz/seeds)
# and their lossless JSON, the regression inputs tests/data/bad/*, and for
# fuzz_symbols a kallsyms text and ELF files; the first byte of a
# fuzz_export or fuzz_symbols input picks what it exercises. Inputs are
# kept under 64 KiB (ELF files: 256 KiB) so that each run stays fast.
#
# Leaks inside libtraceevent on formats it fails to parse are not ours
# (tests/lib/lsan.supp; src/reader/tp_check.c lists the upstream faults); every
# other leak, and any sanitizer report, is a finding.
set -eu
MODE=${1:?usage: run.sh smoke|campaign BUILDDIR SECONDS [OUT]}
B=$(cd "${2:?}" && pwd)
SECONDS_EACH=${3:?}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
TARGETS=${FUZZ_TARGETS:-"fuzz_reader fuzz_pipe fuzz_export fuzz_symbols fuzz_record"}
WORK=${4:-$(mktemp -d "${TMPDIR:-/tmp}/schedrep-fuzz-XXXXXX")}
mkdir -p "$WORK"

# seeds TARGET DIR: the starting corpus of a target
seeds() {
	mkdir -p "$2"
	case $1 in
	fuzz_symbols)
		printf '\000ffffffff81000000 T _text\nffffffff81000010 t start [mod]\n' >"$2/kallsyms"
		for f in "$B/schedrep" /bin/true; do
			{ printf '\001'; head -c 200000 "$f"; } >"$2/elf-$(basename "$f")"
		done ;;
	fuzz_record)
		head -c 512 /dev/urandom >"$2/random" ;;
	*)
		"$B/tests/fuzz/seeds" "$2"
		cp "$SRC"/tests/data/bad/*.data "$2"/
		for f in "$2"/fixture-0[0-4].data; do
			"$B/schedrep" convert -q -f json -o "${f%.data}.schedrep.json" "$f"
		done
		if [ "$1" = fuzz_export ]; then
			for f in "$2"/*; do
				for x in 0 1 2 3; do
					{ printf "\\00$x"; cat "$f"; } >"$f.x$x"
				done
				rm -f "$f"
			done
		fi ;;
	esac
}

status=0
printf '%-13s %9s %10s %8s %7s %s\n' target seconds execs exec/s cov findings
for t in $TARGETS; do
	dir="$WORK/$t"
	mkdir -p "$dir/corpus" "$dir/findings"
	[ -n "$(ls -A "$dir/corpus")" ] || seeds "$t" "$dir/corpus"
	max_len=65536
	[ "$t" = fuzz_symbols ] && max_len=262144
	set +e
	# inputs found before that are not traces (tests/data/bad/TARGET/): replayed once
	if [ -d "$SRC/tests/data/bad/$t" ] && ! LSAN_OPTIONS="suppressions=$SRC/tests/lib/lsan.supp" \
		"$B/tests/fuzz/$t" "$SRC/tests/data/bad/$t"/* >"$dir/regress.log" 2>&1; then
		grep -E 'ERROR|SUMMARY|runtime error' "$dir/regress.log" | head -n 5 >&2
		status=1
	fi
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$SRC/tests/lib/lsan.supp" \
		"$B/tests/fuzz/$t" -max_total_time="$SECONDS_EACH" \
		-artifact_prefix="$dir/findings/" -max_len=$max_len -rss_limit_mb=2048 \
		-print_final_stats=1 "$dir/corpus" >"$dir/log" 2>&1
	rc=$?
	set -e
	execs=$(awk '/stat::number_of_executed_units/ {print $2}' "$dir/log")
	rate=$(awk '/stat::average_exec_per_sec/ {print $2}' "$dir/log")
	cov=$(grep -oE 'cov: [0-9]+' "$dir/log" | tail -n 1 | awk '{print $2}')
	# slow units are kept for a look, not counted: crashes, leaks, timeouts, OOMs are
	found=$(ls "$dir/findings" | grep -cE '^(crash|leak|timeout|oom)-' || true)
	printf '%-13s %9s %10s %8s %7s %s\n' "$t" "$SECONDS_EACH" "${execs:-?}" "${rate:-?}" \
		"${cov:-?}" "$found"
	if [ "$rc" != 0 ] || [ "$found" != 0 ]; then
		status=1
		grep -E 'ERROR|SUMMARY|==[0-9]+==' "$dir/log" | head -n 10 >&2
	fi
done
[ "$MODE" = smoke ] && [ -z "${4:-}" ] && rm -rf "$WORK"
exit $status
