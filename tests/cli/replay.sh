#!/bin/sh
# schedrep replay: the plan (--dry-run, golden), options refused before
# anything runs, short real replays with their JSON report (little- and
# big-endian traces), SIGINT with the partial report, and --keep-prio
# refused without privilege. No timing is asserted: bench/replay.sh measures.
. "$(dirname "$0")/lib.sh"
set -e

S="$DATA/sample-x86_64.data"

# the plan; without --only, idle, kernel threads and perf record are left out
expect_exit 0 "$SREP_BIN" replay --dry-run "$S"
sed "s|$DATA/||" "$TMP/out" >"$TMP/out.rel" && mv "$TMP/out.rel" "$TMP/out"
golden "$CLI/replay-dry-run-sample-x86_64.stdout"
grep -q "the recording tool: pid 20880 (2 threads)" "$TMP/out" || fail "perf record not found"
grep -q " 20911  sched-messaging " "$TMP/out" || fail "perf bench (named perf before) was left out"

# --scale divides what the plan expects
expect_exit 0 "$SREP_BIN" replay --dry-run --only sched-messaging "$S"
grep "^recorded:" "$TMP/out" | sed 's/^recorded:/expected:/' >"$TMP/want"
grep "^expected:" "$TMP/out" | diff -u "$TMP/want" - >&2 || fail "scale 1 changes the figures"
expect_exit 0 "$SREP_BIN" replay --dry-run --only sched-messaging --scale 10 "$S"
grep -q "^scale:     run 10, sleep 10$" "$TMP/out" || fail "scale line"
grep -q "^expected:  cpu 8.126 ms, span 7.448 ms$" "$TMP/out" || fail "scaled expectations"
expect_exit 0 "$SREP_BIN" replay --dry-run --only sched-messaging --scale 10 --scale-sleep 1 "$S"
grep -q "^scale:     run 10, sleep 1$" "$TMP/out" || fail "--scale-sleep does not override --scale"

# bad options: one message and the usage line, exit 2, nothing replayed
for bad in "--scale 0" "--scale -1" "--scale nan" "--scale-run inf" "--scale-sleep 1x" \
	"--repeat 0" "--max-threads x" "--cpu-map 0=" "--cpu-map 1=2,1=3" "--only tid:x" \
	"--dry-run --report $TMP/r.json"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$SREP_BIN" replay $bad "$S"
	grep -q "^usage: schedrep replay" "$TMP/err" || fail "$bad: no usage line"
	[ ! -s "$TMP/out" ] || fail "$bad: something was printed on stdout"
done
[ ! -e "$TMP/r.json" ] || fail "--dry-run --report wrote a report"
mkdir "$TMP/empty"
(cd "$TMP/empty" && expect_exit 1 "$SREP_BIN" replay)
grep -q "'perf.data': cannot open" "$TMP/err" || fail "no file: $(cat "$TMP/err")"
expect_exit 2 "$SREP_BIN" replay "$S" "$S"

# too many threads, or nothing to replay: refused before any thread starts
expect_exit 1 "$SREP_BIN" replay --max-threads 40 --only sched-messaging "$S"
grep -q "41 tasks to replay, more than --max-threads 40" "$TMP/err" || fail "max-threads message"
[ ! -s "$TMP/out" ] || fail "a report after refusing"
expect_exit 1 "$SREP_BIN" replay --only no-such-task "$S"
grep -q "nothing to replay" "$TMP/err" || fail "empty selection message"

# a real replay, ten times faster than recorded (about 10 ms), with its JSON report
expect_exit 0 "$SREP_BIN" replay -q --only sched-messaging --scale 10 --report "$TMP/r.json" "$S"
grep -q '"format":[[:space:]]*"schedrep-replay-report"' "$TMP/r.json" || fail "report format"
for k in median_cpu_error_pct p95_cpu_error_pct span_error_pct; do
	grep -q "\"$k\":[[:space:]]*[-0-9]" "$TMP/r.json" || fail "summary has no number for $k"
done
[ "$(grep -c '"state":[[:space:]]*"done"' "$TMP/r.json")" = 41 ] || fail "not every mockup finished"
[ "$(grep -c ' sched-messaging ' "$TMP/out")" = 41 ] || fail "the table has not 41 rows"
grep -q "^cpu time:  expected 8.126 ms" "$TMP/out" || fail "table summary"
[ ! -s "$TMP/err" ] || fail "-q printed on stderr"

# big-endian s390x with zstd, the report on stdout, mockups following the recorded CPUs
expect_exit 0 "$SREP_BIN" replay -q --only sched-messaging --scale 20 --cpu-map auto --report - \
	"$DATA/sample-s390x-zstd.data"
[ "$(grep -c '"state":[[:space:]]*"done"' "$TMP/out")" = 81 ] || fail "s390x: not every mockup finished"
grep -q '"cpu_map":[[:space:]]*"auto"' "$TMP/out" || fail "s390x: cpu map"

# SIGINT, SIGTERM: the mockups stop, the partial report follows, exit 130
for sig in INT TERM; do
	rm -f "$TMP/err"	# the last round's line must not count
	"$SREP_BIN" replay --only sched-messaging --scale 0.01 --report "$TMP/part.json" "$S" \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	tries=0
	until grep -q "^schedrep: replaying" "$TMP/err" 2>/dev/null; do
		tries=$((tries + 1))
		[ $tries -lt 300 ] || { kill $pid; fail "the replay did not start"; }
		sleep 0.05
	done
	kill -$sig $pid
	set +e
	wait $pid
	status=$?
	set -e
	[ $status = 130 ] || fail "SIG$sig: exit $status, expected 130"
	grep -q "interrupted (partial figures)" "$TMP/out" || fail "no partial report after SIG$sig"
	grep -q '"complete":[[:space:]]*false' "$TMP/part.json" || fail "SIG$sig: JSON not partial"
	grep -q '"state":[[:space:]]*"stopped"' "$TMP/part.json" || fail "SIG$sig: nothing stopped"
done

# --keep-prio: migration/0 was recorded at RT priority 99; refused without privilege
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	expect_exit 0 "$SREP_BIN" replay -q --keep-prio --only 'migration/*' "$S"
	chmod 755 "$TMP"
	cp "$S" "$TMP/s.data"
	chmod 644 "$TMP/s.data"
	expect_exit 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SREP_BIN" replay --keep-prio --only 'migration/*' "$TMP/s.data"
	grep -q "keep-prio: task 18 (migration/0) was recorded with RT priority 99" "$TMP/err" ||
		fail "no clear --keep-prio error"
	[ ! -s "$TMP/out" ] || fail "--keep-prio: something ran"
fi
