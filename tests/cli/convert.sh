#!/bin/sh
# schedrep convert: output names, standard input and output, the summary
# line, selections and time windows, usage errors, and atomic output (an
# error or Ctrl-C leaves no file behind).
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT"
cp "$DATA/sample-x86_64.data" "$TMP/x86.data"

# the default output is the input's name with the format's suffix, in the
# current directory (the input's may be read-only)
mkdir "$TMP/cwd"
cd "$TMP/cwd"
expect_exit 0 "$SREP_BIN" convert "$TMP/x86.data"
mv x86.json "$TMP/x86.json" || fail "no x86.json in the current directory"
[ -z "$(ls -A)" ] || fail "more than x86.json in the current directory: $(ls -A)"
[ ! -e "$TMP/x86.json.tmp" ] && [ "$(ls "$TMP" | grep -c '^x86')" = 2 ] ||
	fail "an output beside the input: $(ls "$TMP")"
grep -q "^schedrep: wrote 'x86.json' (perfetto): [0-9]* events, [0-9]* tasks$" "$TMP/err" ||
	fail "summary line: $(cat "$TMP/err")"
cd "$TMP"
rmdir cwd
[ ! -s "$TMP/out" ] || fail "convert printed on stdout"
jq -e '.traceEvents | length > 1000' "$TMP/x86.json" >/dev/null || fail "not a timeline"
jq -e '.otherData.arch == "x86_64"' "$TMP/x86.json" >/dev/null || fail "otherData"

# -o - is standard output, and stdin gives the same timeline as the file
expect_exit 0 "$SREP_BIN" convert -q -o - "$TMP/x86.data"
cmp -s "$TMP/out" "$TMP/x86.json" || fail "-o - differs from the file"
[ ! -s "$TMP/err" ] || fail "-q still printed: $(cat "$TMP/err")"
expect_exit 0 sh -c "'$SREP_BIN' convert -q -o - - < '$TMP/x86.data'"
cmp -s "$TMP/out" "$TMP/x86.json" || fail "stdin differs from the file"
# standard input without -o goes to standard output, but not to a terminal
expect_exit 0 sh -c "'$SREP_BIN' convert -q - < '$TMP/x86.data'"
cmp -s "$TMP/out" "$TMP/x86.json" || fail "stdin without -o differs from the file"
if command -v script >/dev/null; then
	script -qec "'$SREP_BIN' convert - < '$TMP/x86.data'" /dev/null >"$TMP/tty.out" 2>&1 &&
		fail "stdin to a terminal: exit 0"
	grep -q "standard output is a terminal: name the output with -o FILE" "$TMP/tty.out" ||
		fail "stdin to a terminal: $(head -c 300 "$TMP/tty.out")"
	[ "$(wc -c <"$TMP/tty.out")" -lt 2000 ] || fail "stdin to a terminal: the timeline was written"
	rm -f "$TMP/tty.out"
else
	part_skipped "no script(1): the terminal check did not run"
fi

# selection: only the tasks asked for have thread tracks
pid=$(jq -r '[.traceEvents[] | select(.ph == "M" and .name == "process_name" and
	(.args.name | endswith("sched-messaging")))][0].pid' "$TMP/x86.json")
expect_exit 0 "$SREP_BIN" convert -q -o - --only "$pid" "$TMP/x86.data"
others=$(jq "[.traceEvents[] | select(.ph == \"X\" and .pid != $pid and .pid != 1073741824)] | length" "$TMP/out")
[ "$others" = 0 ] || fail "--only $pid shows $others slices of other processes"
jq -e "[.traceEvents[] | select(.ph == \"X\" and .pid == $pid)] | length > 10" "$TMP/out" >/dev/null ||
	fail "--only $pid lost its slices"
# with its children: the 40 workers it forked (-g 1), all named sched-messaging
expect_exit 0 "$SREP_BIN" convert -q -o - --only "$pid" --children "$TMP/x86.data"
jq -e '[.traceEvents[] | select(.ph == "M" and .name == "thread_name" and .pid != 1073741824)] |
	length == 41 and all(.args.name | endswith("sched-messaging"))' "$TMP/out" >/dev/null ||
	fail "--only $pid --children: not the 41 sched-messaging tasks"
expect_exit 0 "$SREP_BIN" convert -q -o - --exclude 'sched-*' "$TMP/x86.data"
jq -e '[.traceEvents[] | select(.ph == "M" and .name == "thread_name" and
	(.args.name | endswith("sched-messaging")))] | length == 0' "$TMP/out" >/dev/null ||
	fail "--exclude 'sched-*' kept sched-messaging threads"

# a time window: nothing outside it
expect_exit 0 "$SREP_BIN" convert -q -o - --time 0.001,0.002 "$TMP/x86.data"
first=$(jq '.otherData.first_timestamp_ns' "$TMP/x86.json")
jq -e --argjson t0 "$first" '[.traceEvents[] | select(.ph != "M") |
	select(.ts * 1000 < $t0 + 1000000 - 1 or (.ts + (.dur // 0)) * 1000 > $t0 + 2000000 + 1)] |
	length == 0' "$TMP/out" >/dev/null || fail "--time 0.001,0.002 shows events outside"

# the summary counts what was written: the lossless JSON's event lines in the window
expect_exit 0 "$SREP_BIN" convert -f json --time 0.001,0.002 -o "$TMP/w.json" "$TMP/x86.data"
said=$(sed -n "s/^schedrep: wrote .*(json): \([0-9]*\) events, .*/\1/p" "$TMP/err")
lines=$(grep -c '"t":' "$TMP/w.json")
[ -n "$said" ] && [ "$said" = "$lines" ] || fail "the summary says '$said' events, the file has $lines"
rm -f "$TMP/w.json"
# an empty window or selection is an error, and leaves no output
for args in "--time 100,200" "--time @1,@2" "--only nosuchtask" "--only tid:999999"; do
	rm -f "$TMP/e.json"
	# shellcheck disable=SC2086
	expect_exit 1 "$SREP_BIN" convert -f json $args -o "$TMP/e.json" "$TMP/x86.data"
	grep -qE "no event passes|holds no part of the trace|no task of the trace matches" "$TMP/err" ||
		fail "convert $args: $(cat "$TMP/err")"
	[ ! -e "$TMP/e.json" ] || fail "convert $args left an output"
done

# --cpu: the samples of the listed CPUs, all of them and no other; the records
# that name tasks stay (compared with the unfiltered file's lines)
expect_exit 0 "$SREP_BIN" convert -f json -q -o "$TMP/all.json" "$TMP/x86.data"
expect_exit 0 "$SREP_BIN" convert -f json -q --cpu 1 -o "$TMP/c1.json" "$TMP/x86.data"
jq -c 'select(.src == "tp" and .cpu == 1)' "$TMP/all.json" >"$TMP/want"
jq -c 'select(.src == "tp")' "$TMP/c1.json" >"$TMP/got"
[ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got" ||
	fail "--cpu 1: $(wc -l <"$TMP/got") samples, the unfiltered file has $(wc -l <"$TMP/want") on CPU 1"
[ "$(jq -c 'select(.src == "rec")' "$TMP/all.json" | wc -l)" = \
  "$(jq -c 'select(.src == "rec")' "$TMP/c1.json" | wc -l)" ] || fail "--cpu 1 dropped records"
expect_exit 1 "$SREP_BIN" convert -f json --cpu 7 -o "$TMP/e.json" "$TMP/x86.data"
grep -q "no event passes --cpu 7" "$TMP/err" || fail "--cpu 7: $(cat "$TMP/err")"
expect_exit 2 "$SREP_BIN" convert -f criu --cpu 0 -o "$TMP/c.criu" "$TMP/x86.data"
grep -q "describes whole tasks" "$TMP/err" || fail "criu --cpu: $(cat "$TMP/err")"
rm -f "$TMP/all.json" "$TMP/c1.json" "$TMP/want" "$TMP/got"

# a failed write: one message, with the path and the system's reason
if [ -w /dev/full ]; then
	for fmt in json perfetto svg; do
		expect_exit 1 "$SREP_BIN" convert -f $fmt -o /dev/full "$TMP/x86.data"
		[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "^schedrep: '/dev/full': .*: No space left on device$" \
			"$TMP/err" || fail "-f $fmt -o /dev/full said: $(cat "$TMP/err")"
		expect_exit 1 sh -c "'$SREP_BIN' convert -f $fmt -o - '$TMP/x86.data' >/dev/full"
		[ "$(wc -l <"$TMP/err")" = 1 ] && grep -q ": No space left on device$" "$TMP/err" ||
			fail "-f $fmt -o - >/dev/full said: $(cat "$TMP/err")"
	done
else
	part_skipped "no /dev/full: write failures not tried"
fi

# the lossless JSON: read back, it gives the very same timeline, from a file or stdin
expect_exit 0 "$SREP_BIN" convert -f json "$TMP/x86.data"
grep -q "^schedrep: wrote 'x86.schedrep.json' (json): " "$TMP/err" || fail "json summary"
head -n 1 "$TMP/x86.schedrep.json" | jq -e '.format == "schedrep-events" and .version == 1' >/dev/null ||
	fail "no schedrep-events header"
tail -n 1 "$TMP/x86.schedrep.json" | jq -e '.end and .events > 4000' >/dev/null || fail "no closing line"
expect_exit 0 "$SREP_BIN" convert -q -o - "$TMP/x86.schedrep.json"
cmp -s "$TMP/out" "$TMP/x86.json" || fail "the timeline of the JSON differs from the perf.data's"
expect_exit 0 sh -c "'$SREP_BIN' convert -q -o - - < '$TMP/x86.schedrep.json'"
cmp -s "$TMP/out" "$TMP/x86.json" || fail "the JSON on stdin differs"
expect_exit 0 "$SREP_BIN" info "$TMP/x86.schedrep.json"
grep -q "^file: .*(schedrep-json, file mode)" "$TMP/out" || fail "info on the JSON"
rm -f "$TMP/x86.schedrep.json"

# a format's own option: offered in --help once, refused for another format
expect_exit 0 "$SREP_BIN" convert --help
dups=$(sed -n 's/^    \(-[a-z], \)\{0,1\} *\(--[a-z-]*\).*/\2/p' "$TMP/out" | sort | uniq -d)
[ -z "$dups" ] || fail "options offered twice in --help: $dups"
grep -q -- "--width <pixels> *\[svg\]" "$TMP/out" || fail "--help does not offer svg's --width"
expect_exit 0 "$SREP_BIN" convert -q -f svg --width 900 -o - "$TMP/x86.data"
grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="900"' "$TMP/out" || fail "--width 900"
expect_exit 2 "$SREP_BIN" convert --width 900 "$TMP/x86.data"
grep -q "'--width' is an option of --format svg" "$TMP/err" || fail "--width without -f svg"
expect_exit 2 "$SREP_BIN" convert -f svg --width 9 "$TMP/x86.data"

# a pipe on stdin is copied when the selection needs the whole task table first
expect_exit 0 sh -c "cat '$TMP/x86.data' | '$SREP_BIN' convert -q -o - --only 'sched-*' -"
cp "$TMP/out" "$TMP/piped.json"
expect_exit 0 "$SREP_BIN" convert -q -o - --only 'sched-*' "$TMP/x86.data"
cmp -s "$TMP/out" "$TMP/piped.json" || fail "--only on a pipe differs from the file"
rm -f "$TMP/piped.json"
pipe="$CORPUS/emulated/s390x-pipe.data"
if [ -f "$pipe" ]; then
	expect_exit 0 sh -c "cat '$pipe' | '$SREP_BIN' convert -q -f json -o - -"
	cp "$TMP/out" "$TMP/piped.json"
	expect_exit 0 "$SREP_BIN" convert -q -f json -o - "$pipe"
	# the same but for the path the first line names
	sed '1s|"path":"[^"]*"||' "$TMP/out" >"$TMP/a"
	sed '1s|"path":"[^"]*"||' "$TMP/piped.json" >"$TMP/b"
	cmp -s "$TMP/a" "$TMP/b" || fail "a big-endian pipe-mode stream on stdin converts differently"
	rm -f "$TMP/a" "$TMP/b" "$TMP/piped.json"
fi

# usage errors: exit 2, one message and the usage line
for bad in "--format nope" "--only tid:x" "--time 2,1" "--time soon," "--output"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$SREP_BIN" convert "$TMP/x86.data" $bad
	grep -q "^usage: schedrep convert" "$TMP/err" || fail "$bad: no usage line"
done
# no file: ./perf.data, as perf
mkdir "$TMP/empty"
(cd "$TMP/empty" && expect_exit 1 "$SREP_BIN" convert)
rmdir "$TMP/empty"
grep -q "'perf.data': cannot open" "$TMP/err" || fail "no file: $(cat "$TMP/err")"
expect_exit 2 "$SREP_BIN" convert "$TMP/x86.data" "$TMP/x86.data"

# failures leave nothing behind: a missing input, a truncated one, the input as output
rm -f "$TMP/x86.json"
expect_exit 1 "$SREP_BIN" convert "$TMP/missing.data"
head -c 200000 "$DATA/sample-x86_64.data" >"$TMP/cut.data"
expect_exit 1 "$SREP_BIN" convert "$TMP/cut.data"
grep -q "offset 0x[0-9a-f]*" "$TMP/err" || fail "truncation without an offset"
expect_exit 1 "$SREP_BIN" convert -o "$TMP/x86.data" "$TMP/x86.data"
grep -q "refusing to overwrite the input" "$TMP/err" || fail "overwrote the input?"
cmp -s "$TMP/x86.data" "$DATA/sample-x86_64.data" || fail "the input changed"
left=$(ls "$TMP" | grep -v -e '^x86.data$' -e '^cut.data$' -e '^out$' -e '^err$' || true)
[ -z "$left" ] || fail "files left behind: $left"

# a FIFO (or a device such as /dev/null) as output is written directly, not
# replaced by a regular file renamed over it
mkfifo "$TMP/out.fifo"
cat "$TMP/out.fifo" >"$TMP/from-fifo.json" &
reader=$!
expect_exit 0 "$SREP_BIN" convert -q -o "$TMP/out.fifo" "$TMP/x86.data"
[ -p "$TMP/out.fifo" ] || { kill "$reader"; fail "the output FIFO was replaced"; }
wait "$reader"
expect_exit 0 "$SREP_BIN" convert -q -o - "$TMP/x86.data"
cmp -s "$TMP/out" "$TMP/from-fifo.json" || fail "the FIFO got other bytes than standard output"
rm -f "$TMP/out.fifo" "$TMP/from-fifo.json"
expect_exit 1 "$SREP_BIN" convert -q -o "$TMP" "$TMP/x86.data"
grep -q "is a directory" "$TMP/err" || fail "a directory as output: $(cat "$TMP/err")"

# Ctrl-C while writing: exit 130 and no file (a pipe-mode stream that stalls)
pipe="$CORPUS/emulated/x86_64-pipe.data"
if [ -f "$pipe" ]; then
	mkfifo "$TMP/fifo"
	(head -c 300000 "$pipe"; exec sleep 30) >"$TMP/fifo" &
	feeder=$!
	"$SREP_BIN" convert -q -o "$TMP/stalled.json" - <"$TMP/fifo" &
	conv=$!
	sleep 1
	kill -INT "$conv"
	set +e
	wait "$conv"
	status=$?
	set -e
	kill "$feeder" 2>/dev/null || true
	[ "$status" = 130 ] || fail "interrupted convert exited $status, expected 130"
	left=$(ls "$TMP" | grep -e stalled -e schedrep-tmp || true)
	[ -z "$left" ] || fail "an interrupted convert left $left"
else
	part_skipped "no corpus at $CORPUS: Ctrl-C not tried"
fi
