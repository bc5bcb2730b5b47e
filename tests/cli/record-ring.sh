#!/bin/sh
# schedrep record --ring: the flight recorder. Two SIGUSR1 give two
# standalone dumps that perf reads with schedrep info's counts, each with at
# most about the ring's size of samples, ending at its trigger; FIFO words
# dump and stop; --max-dumps stops; latency:MS fires on a workload made to
# be late and not on one that is never late. Needs root and perf.
. "$(dirname "$0")/lib.sh"
set -e

LATE="$(dirname "$SREP_BIN")/tests/lib/late_wakeups"

[ "$(id -u)" = 0 ] || { echo "SKIP: recording needs root here"; exit 77; }
command -v perf >/dev/null || { echo "SKIP: no perf to compare with"; exit 77; }
if ! "$SREP_BIN" record -q -o "$TMP/probe.data" -- true 2>"$TMP/err"; then
	echo "SKIP: cannot record here: $(cat "$TMP/err")"
	exit 77
fi

# a dump is a perf.data perf reads, with schedrep info's counts
check_dump() {
	perf report --stats -i "$1" >"$TMP/perf.txt" 2>"$TMP/perf.err" ||
		fail "perf cannot read the dump $1: $(cat "$TMP/perf.err")"
	perf_counts "$TMP/perf.txt" >"$TMP/perfs"
	expect_exit 0 "$SREP_BIN" info "$1"
	info_counts >"$TMP/ours"
	diff -u "$TMP/perfs" "$TMP/ours" >&2 || fail "$1: counts differ from perf's"
	grep -q "^rec COMM " "$TMP/ours" || fail "$1: no side-band COMM records"
}

# bytes of SAMPLE records in a trace, and the last sample's time (perf's view)
sample_bytes() {
	perf report -D -i "$1" 2>/dev/null | awk '
		function hex(s,  i, c, v) { v = 0; for (i = 3; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * 16 + c } return v }
		/PERF_RECORD_SAMPLE/ { sub(/.*\[/, ""); sub(/\].*/, ""); n += hex($0) }
		END { print n + 0 }'
}
last_sample() {
	perf script -F time -i "$1" 2>/dev/null | tail -n 1 | tr -d ' :'
}

# ---- two SIGUSR1 on a long workload: two dumps of at most 256 KiB ----
# (a small ring, and load until the dumps are taken; on a machine so busy
# that the recorder drains little, as under ASan with the suite running
# beside it, one dump may hold less: at least one must be more than half full)
( while :; do perf bench sched messaging -g 2 -l 40 >/dev/null; done ) &
load=$!
"$SREP_BIN" record -a --ring 256K -o "$TMP/fr" 2>"$TMP/rec.err" &
pid=$!
sleep 3
kill -USR1 $pid
sleep 3
kill -USR1 $pid
sleep 0.5
kill -INT $pid
wait $pid || fail "record --ring exited $?: $(cat "$TMP/rec.err")"
kill $load
wait $load || :
set -- "$TMP"/fr.[12].*
[ $# = 2 ] && [ -f "$1" ] && [ -f "$2" ] || fail "expected two dumps, got: $(ls "$TMP")"
fuller=0
for d in "$@"; do
	check_dump "$d"
	bytes=$(sample_bytes "$d")
	[ "$bytes" -gt 0 ] && [ "$bytes" -le 262144 ] || fail "$d holds $bytes bytes of samples"
	[ "$bytes" -le 131072 ] || fuller=$bytes
	# named after its trigger, its last sample is from just before it
	when=${d##*/fr.[12].}
	[ "$(last_sample "$d")" = "$when" ] || fail "$d: last sample at $(last_sample "$d"), trigger $when"
done
[ "$fuller" -gt 0 ] || fail "neither dump filled half of its 256 KiB ring"
grep -c "^schedrep record: dump [12] (signal at " "$TMP/rec.err" | grep -q 2 || fail "dumps not announced"
grep -q "2 dumps of '$TMP/fr.N.SECONDS'" "$TMP/rec.err" || fail "no flight recorder summary"

# ---- FIFO words; the FIFO is made and removed by the recorder ----
"$SREP_BIN" record -a --ring 1M --trigger fifo:"$TMP/ctl" -o "$TMP/ff" 2>"$TMP/rec.err" &
pid=$!
n=0
while [ ! -p "$TMP/ctl" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
sleep 0.3
echo dump >"$TMP/ctl"
sleep 0.5
echo stop >"$TMP/ctl"
wait $pid || fail "fifo stop exited $?: $(cat "$TMP/rec.err")"
[ ! -e "$TMP/ctl" ] || fail "the FIFO was left behind"
set -- "$TMP"/ff.*
[ $# = 2 ] || fail "fifo: expected two dumps, got $#"
check_dump "$2"
grep -q "dump 2 (fifo at" "$TMP/rec.err" || fail "fifo dump not announced"

# ---- --max-dumps ends the recording ----
"$SREP_BIN" record -a --ring 1M --max-dumps 1 -o "$TMP/md" 2>/dev/null &
pid=$!
sleep 0.5
kill -USR1 $pid
wait $pid || fail "--max-dumps 1 exited $?"
set -- "$TMP"/md.*
[ $# = 1 ] || fail "--max-dumps 1 wrote $# dumps"

# ---- latency:MS: a late task fires, a never-late one does not ----
"$SREP_BIN" record -a --ring 4M --trigger latency:300 --max-dumps 1 -o "$TMP/lt" \
	-- "$LATE" late 3 >"$TMP/late.out" 2>"$TMP/rec.err" || fail "latency trigger run failed"
grep -q "^schedrep record: dump 1 (latency at .*: task [0-9]* waited [0-9.]* ms)" "$TMP/rec.err" ||
	fail "the late workload did not fire the trigger: $(cat "$TMP/rec.err")"
set -- "$TMP"/lt.1.*
check_dump "$1"
"$SREP_BIN" record -a --ring 4M --trigger latency:300 -o "$TMP/id" \
	-- "$LATE" idle 2 >"$TMP/idle.out" 2>"$TMP/rec.err" || fail "idle run failed"
sleeper=$(sed -n 's/^sleeper tid //p' "$TMP/idle.out")
if grep -q "task $sleeper waited" "$TMP/rec.err"; then
	fail "the never-late sleeper fired the trigger: $(cat "$TMP/rec.err")"
fi
if grep -q "(latency at" "$TMP/rec.err"; then
	# a shared, loaded machine has other late tasks; only ours must not be
	echo "note: other tasks were late on this machine:" >&2
	grep "(latency at" "$TMP/rec.err" >&2
fi

# ---- usage ----
expect_exit 2 "$SREP_BIN" record --ring 1M -o - -a
expect_exit 2 "$SREP_BIN" record --ring 0 -a
expect_exit 2 "$SREP_BIN" record --ring 1M --trigger latency:0 -a
expect_exit 2 "$SREP_BIN" record --ring 1M --trigger bogus -a
expect_exit 1 "$SREP_BIN" record --ring 64K -a
grep -q "needs at least 128 KiB" "$TMP/err" || fail "small ring message"
exit 0
