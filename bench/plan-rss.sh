#!/bin/sh
# bench/plan-rss.sh [TRACE] - peak memory of the commands that build a
# replay plan (issue 19: at most 48 MiB whatever the trace's size):
# 'schedrep convert -f rt-app' and 'schedrep replay --dry-run', with the
# default selection and with '--only ONLY --children', beside
# 'schedrep info' (the peer: it decodes the same events and keeps no plan).
# Prints peak RSS (/usr/bin/time -v, mapped file pages included) and CPU
# seconds (user + system) of one run each, the median of RUNS for CPU,
# and the ratio to info's. Figures, no assertions; the load is printed.
#
# BASE=OTHER_BINARY adds the same rows for another build (before/after in
# one run, paired: each command runs on both binaries in turn).
# Environment: SREP_BIN (default ./build/schedrep), RUNS (default 3),
# ONLY (default sched-messaging); TRACE defaults to common.sh's trace.
RUNS=${RUNS:-3}
ONLY=${ONLY:-sched-messaging}
. "$(dirname "$0")/common.sh"
[ -x "$SCHEDREP" ] || { echo "bench: no $SCHEDREP: build first (or set SREP_BIN)" >&2; exit 2; }
need /usr/bin/time time
work_dir
TRACE=$(big_trace "${1:-}")

echo "trace: $TRACE ($(stat -c %s "$TRACE" | awk '{ printf "%.1f", $1 / 1e6 }') MB)"
echo "machine: $(nproc) CPUs, load: $(uptime | sed 's/.*load average: //')"
echo

# "RSS_MiB CPU_s" of one run
rss_cpu() {
	/usr/bin/time -v -o "$WORK/v" sh -c "exec $* >/dev/null 2>&1" || true
	awk '/Maximum resident set size/ { rss = $NF / 1024 }
	     /User time|System time/ { cpu += $NF }
	     END { printf "%.1f %.2f\n", rss, cpu }' "$WORK/v"
}

# "max_RSS median_CPU" over RUNS runs
measure() {
	for i in $(seq "$RUNS"); do
		rss_cpu "$@"
	done | sort -k2,2n | awk '{ r[NR] = $1; c[NR] = $2; if ($1 > m) m = $1 }
		END { printf "%.1f %.2f\n", m, c[int((NR + 1) / 2)] }'
}

printf '%-8s %-50s %9s %7s %9s %7s\n' binary command "RSS MiB" "x info" "cpu s" "x info"
row() {	# label bin name args...
	label=$1 bin=$2 name=$3
	shift 3
	set -- $(measure "'$bin'" "$@")
	[ "$name" != info ] || { info_rss=$1; info_cpu=$2; }
	printf '%-8s %-50s %9.1f %6.2fx %9.2f %6.2fx\n' "$label" "$name" "$1" \
		"$(echo "$1 $info_rss" | awk '{ print $1 / $2 }')" "$2" \
		"$(echo "$2 $info_cpu" | awk '{ print ($2 > 0) ? $1 / $2 : 0 }')"
}

each() {	# name args...: on this build, then on BASE
	name=$1
	shift
	row new "$SCHEDREP" "$name" "$@"
	[ -z "${BASE:-}" ] || row base "$BASE" "$name" "$@"
}

T="'$TRACE'"
info_rss=1 info_cpu=0
row new "$SCHEDREP" info info "$T"
each "convert -f rt-app" convert -f rt-app -q -o /dev/null "$T"
each "convert -f rt-app --only $ONLY --children" convert -f rt-app -q -o /dev/null \
	--only "$ONLY" --children "$T"
each "replay --dry-run" replay --dry-run "$T"
each "replay --dry-run --only $ONLY --children" replay --dry-run --only "$ONLY" --children "$T"
echo
echo "target (issue 19): peak RSS <= 48 MiB for every command, whatever the trace's size"
