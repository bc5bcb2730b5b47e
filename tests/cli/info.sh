#!/bin/sh
# schedrep info: golden text output for the bundled samples, counts equal to
# perf's own report --stats, standard input, and the error paths.
. "$(dirname "$0")/lib.sh"
set -e

for s in sample-x86_64 sample-s390x-zstd; do
	expect_exit 0 "$SREP_BIN" info "$DATA/$s.data"
	sed "s|$DATA/||" "$TMP/out" >"$TMP/out.rel" && mv "$TMP/out.rel" "$TMP/out"
	golden "$CLI/info-$s.stdout"
	info_counts >"$TMP/ours"
	perf_counts "$DATA/$s.report-stats.txt" >"$TMP/perfs"
	diff -u "$TMP/perfs" "$TMP/ours" >&2 || fail "$s: counts differ from perf report --stats"
done

# counting only gives the same counts
expect_exit 0 "$SREP_BIN" info --stats "$DATA/sample-s390x-zstd.data"
info_counts >"$TMP/fast"
diff -u "$TMP/perfs" "$TMP/fast" >&2 || fail "--stats counts differ"

# JSON carries the same counts
expect_exit 0 "$SREP_BIN" info --json "$DATA/sample-s390x-zstd.data"
grep -q '"format":[[:space:]]*"schedrep-info"' "$TMP/out" || fail "no format key"
grep -q '"sched:sched_switch":[[:space:]]*9759' "$TMP/out" || fail "JSON event count"
grep -q '"byte_order":[[:space:]]*"big"' "$TMP/out" || fail "JSON byte order"

# standard input: a file-mode trace is copied to a temporary file first
expect_exit 0 sh -c "'$SREP_BIN' info - < '$DATA/sample-x86_64.data'"
grep -q "SAMPLE" "$TMP/out" || fail "stdin"

# errors: one line naming the file, the offset and what was expected; exit 1
expect_exit 1 "$SREP_BIN" info "$TMP/missing.data"
grep -q "^schedrep: '$TMP/missing.data': cannot open" "$TMP/err" || fail "missing file message"
printf 'hello, not a trace\n' >"$TMP/text.data"
expect_exit 1 "$SREP_BIN" info "$TMP/text.data"
grep -q "offset 0x0: expected the magic 'PERFILE2'" "$TMP/err" || fail "not-perf message"
head -c 20000 "$DATA/sample-x86_64.data" >"$TMP/cut.data"
expect_exit 1 "$SREP_BIN" info "$TMP/cut.data"
grep -q "offset 0x[0-9a-f]*: " "$TMP/err" || fail "truncation message has no offset"
# a cut file: one warning saying what is lost, one error saying where it stopped
[ "$(wc -l <"$TMP/err")" -eq 2 ] || fail "truncation gives other than a warning and an error"
grep -q "warning: .*the file is cut short: it ends at 0x4e20" "$TMP/err" || fail "no word of what is lost"
grep -q "records before it were read, the rest is lost" "$TMP/err" || fail "no word of what was read"
mkdir "$TMP/empty"
(cd "$TMP/empty" && expect_exit 1 "$SREP_BIN" info)
grep -q "'perf.data': cannot open" "$TMP/err" || fail "no file, no ./perf.data: $(cat "$TMP/err")"
expect_exit 2 "$SREP_BIN" info a b

# a pipe-mode trace through standard input, counted as perf report -D counts it
PIPE="$CORPUS_ROOT/emulated/s390x-pipe.data"
if [ -f "$PIPE" ]; then
	expect_exit 0 sh -c "'$SREP_BIN' info - < '$PIPE'"
	info_counts >"$TMP/ours"
	perf_counts "${PIPE%.data}.report-D-stats.txt" >"$TMP/perfs"
	diff -u "$TMP/perfs" "$TMP/ours" >&2 || fail "s390x pipe on stdin: counts differ from perf report -D"
else
	part_skipped "pipe on stdin: no corpus at $CORPUS_ROOT (set SREP_CORPUS)"
fi

# the trace as perf takes it: the argument, -i FILE, or ./perf.data
mkdir "$TMP/cwd"
cp "$DATA/sample-x86_64.data" "$TMP/cwd/perf.data"
cd "$TMP/cwd"
for c in "info" "convert -q -o -" "callchains" "replay --dry-run"; do
	set +e
	$SREP_BIN $c perf.data >"$TMP/arg.out" 2>&1
	st=$?
	set -e
	expect_exit $st "$SREP_BIN" $c -i perf.data
	cat "$TMP/err" >>"$TMP/out"
	cmp -s "$TMP/out" "$TMP/arg.out" || fail "$c -i perf.data differs from $c perf.data"
	expect_exit $st "$SREP_BIN" $c
	cat "$TMP/err" >>"$TMP/out"
	cmp -s "$TMP/out" "$TMP/arg.out" || fail "$c without a file does not read ./perf.data"
	expect_exit 2 "$SREP_BIN" $c -i perf.data perf.data
	grep -q "expected one trace file" "$TMP/err" || fail "$c: -i and a file: $(cat "$TMP/err")"
done
