#!/bin/sh
# latency, timehist, script and map options against this machine's perf (6.1) on the
# corpus traces it reads (the Debian 12 file-mode traces): each output must
# be byte for byte perf's. Skips without perf 6.1 or the corpus.
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT/emulated"
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS (set SREP_CORPUS)" >&2; exit 77; }
command -v perf >/dev/null 2>&1 || { echo "SKIP: no perf on this machine" >&2; exit 77; }
case "$(perf --version 2>/dev/null)" in
"perf version 6.1."*) ;;
*) echo "SKIP: $(perf --version 2>&1) is not perf 6.1" >&2; exit 77 ;;
esac
boards="s390x armhf arm64 x86_64 x86_64-smp4"

# same CMD PERFOPTS -- SCHEDREPOPTS: one comparison
n=0
same() {
	cmd=$1
	shift
	popts=""
	while [ "$1" != -- ]; do popts="$popts $1"; shift; done
	shift
	if [ "$cmd" = script ]; then
		# shellcheck disable=SC2086
		perf script $popts -i "$data" >"$TMP/perf" 2>/dev/null || fail "perf script$popts failed"
	else
		# shellcheck disable=SC2086
		perf sched "$cmd" $popts -i "$data" >"$TMP/perf" 2>/dev/null ||
			fail "perf sched $cmd$popts failed"
	fi
	expect_exit 0 "$SREP_BIN" "$cmd" --perf 6.1 "$@" "$data"
	cmp -s "$TMP/perf" "$TMP/out" || {
		diff "$TMP/perf" "$TMP/out" | head -5 >&2
		fail "$b: schedrep $cmd $* differs from perf sched $cmd$popts"
	}
	n=$((n + 1))
}

for b in $boards; do
	data="$CORPUS/$b-messaging.data"
	# windows inside each trace (one wholly outside is an error in schedrep)
	t0=$(perf script -F time -i "$data" 2>/dev/null | awk 'NR == 1 {print int($1 * 10) / 10; exit}')
	w1=$(awk -v t="$t0" 'BEGIN {printf "%.1f,%.1f", t + 0.2, t + 0.4}')
	w2=$(awk -v t="$t0" 'BEGIN {printf "%.1f,", t + 0.3}')
	w3=$(awk -v t="$t0" 'BEGIN {printf "%.1f,%.1f", t + 0.2, t + 0.3}')
	same latency -- 
	same latency -p -- -p
	same latency -s max,runtime -- -s max,runtime
	same latency -p -s pid -- -p -s pid
	same timehist -s -- -s
	same timehist -S -w -M --state -- -S -w -M --state
	same timehist -I -s -- -I -s
	same timehist -C 1 -S -- -C 1 -S
	same timehist -s --state -- -s --state
	# perf's --time is absolute: '@' in schedrep
	same timehist -S --time "$w1" -- -S --time "@${w1%,*},@${w1#*,}"
	same timehist -S --time "$w2" -- -S --time "@$w2"
	same timehist -S -w -p 15 -- -S -w --only 15
	same script -F comm,pid,tid,time,event -- -F comm,pid,tid,time,event
	same script -F -cpu,+pid -- -F -cpu,+pid
	same script -C 1 --time "$w3" -- -C 1 --time "@${w3%,*},@${w3#*,}"
	# perf draws as many columns as this machine has CPUs: compare where they agree
	[ "$b" = x86_64-smp4 ] || same map --
	same map --compact -- --compact
	same map --cpus 1 -- --cpus 1
	same map --compact --cpus 0 -- --compact --cpus 0
done
echo "$n outputs equal to perf 6.1's"
