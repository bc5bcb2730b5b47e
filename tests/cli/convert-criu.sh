#!/bin/sh
# schedrep convert --format criu: the output directory, its instants and
# timeline.json on the bundled s390x sample and on a fixture (mkpairs'
# b.data, golden timeline.json), what CRIU's crit reads of them (without crit, which
# ./quickstart.sh installs, those checks are reported as skipped),
# targets that are refused, and atomic output: an --at outside the trace,
# or SIGINT/SIGTERM while writing, leave no directory behind.
. "$(dirname "$0")/lib.sh"
set -e

cp "$DATA/sample-s390x-zstd.data" "$TMP/s.data"

# crit: Debian's criu package (./quickstart.sh installs it)
have_crit() {
	command -v crit >/dev/null 2>&1
}
crit=no
if have_crit; then
	crit=yes
else
	part_skipped "crit is not installed: the crit checks did not run"
fi

# no_leftovers DIR: nothing of an output in DIR but the inputs
no_leftovers() {
	left=$(ls -A "$1" | grep -v -e '^s\.data$' -e '^out$' -e '^err$' -e '^b\.data$' \
		-e '^a\.data$' || true)
	[ -z "$left" ] || fail "left behind in $1: $left"
}

# ---- the s390x sample ----

# the default: NAME.criu/, one instant at the trace's last event, and timeline.json
# (in the current directory)
cd "$TMP"
expect_exit 0 "$SREP_BIN" convert -f criu "$TMP/s.data"
grep -q "^schedrep: wrote 's.criu' (criu): 26693 events, 134 tasks$" "$TMP/err" ||
	fail "summary line: $(cat "$TMP/err")"
[ "$(ls "$TMP/s.criu" | tr '\n' ' ')" = "000-2.549522s timeline.json " ] ||
	fail "s.criu holds $(ls "$TMP/s.criu" | tr '\n' ' ')"
jq -e '.format == "schedrep-criu-timeline" and .version == 1 and .input == "s.data" and
	.arch == "s390x" and .criu_arch == "S390" and (.instants | length) == 1 and
	.instants[0].dir == "000-2.549522s" and .instants[0].reasons == ["end"] and
	.instants[0].processes[0].pid == 1 and .instants[0].processes[0].ppid == 0' \
	"$TMP/s.criu/timeline.json" >/dev/null || fail "timeline.json of the default instant"
set0="$TMP/s.criu/000-2.549522s"
[ -f "$set0/inventory.img" ] && [ -f "$set0/pstree.img" ] || fail "no inventory or pstree image"
# one core image per thread of timeline.json's processes, and no other
want=$(jq -r '[.instants[0].processes[].threads[]] | sort | map("core-\(.).img") | .[]' \
	"$TMP/s.criu/timeline.json")
got=$(ls "$set0" | grep '^core-' | sort -t- -k2 -n)
[ "$want" = "$got" ] || fail "core images differ from the threads of timeline.json"

# --at, --every and a selection: instants in time order, one directory each
expect_exit 0 "$SREP_BIN" convert -q -f criu --at 0.25 --every 1s --at 2 \
	--only sched-messaging --children -o "$TMP/m.criu" "$TMP/s.data"
[ "$(ls "$TMP/m.criu" | tr '\n' ' ')" = \
	"000-0.250000s 001-1.000000s 002-2.000000s timeline.json " ] ||
	fail "instants: $(ls "$TMP/m.criu" | tr '\n' ' ')"
[ "$(jq -c '[.instants[] | [.dir, .reasons, (.processes | length)]]' "$TMP/m.criu/timeline.json")" = \
	'[["000-0.250000s",["at"],61],["001-1.000000s",["every"],82],["002-2.000000s",["at","every"],82]]' ] ||
	fail "instants in timeline.json: $(jq -c '[.instants[] | [.dir, .reasons]]' "$TMP/m.criu/timeline.json")"
jq -e '[.instants[].processes[1:][].comm] | unique == ["sched-messaging"]' \
	"$TMP/m.criu/timeline.json" >/dev/null || fail "--only sched-messaging --children kept others"

# a pipe on standard input gives the same sets (its directory is named with -o)
expect_exit 0 sh -c "cat '$TMP/s.data' | '$SREP_BIN' convert -q -f criu --at 0.25 --every 1s \
	--at 2 --only sched-messaging --children -o '$TMP/p.criu' -"
diff -r -x timeline.json "$TMP/m.criu" "$TMP/p.criu" >&2 || fail "stdin gives other images"

if [ $crit = yes ]; then
	# crit x ps: one tree under pid 1, as many processes as pstree.img holds
	crit x "$set0" ps >"$TMP/ps" || fail "crit x $set0 ps failed"
	[ "$(sed -n 1p "$TMP/ps")" = "    PID   PGID    SID   COMM" ] || fail "crit x ps header"
	[ "$(sed -n 2p "$TMP/ps")" = "      1      1      1   init" ] || fail "crit x ps root"
	[ $(($(wc -l <"$TMP/ps") - 1)) = "$(jq '.instants[0].processes | length' \
		"$TMP/s.criu/timeline.json")" ] || fail "crit x ps lists another number of processes"
	crit decode -i "$set0/pstree.img" >"$TMP/pstree.json" || fail "crit decode pstree.img"
	jq -e --slurpfile t "$TMP/s.criu/timeline.json" '.magic == "PSTREE" and
		[.entries[] | [.pid, .ppid, .threads]] ==
		[$t[0].instants[0].processes[] | [.pid, .ppid, .threads]]' \
		"$TMP/pstree.json" >/dev/null || fail "crit's pstree differs from timeline.json"
	m="$TMP/m.criu/001-1.000000s"
	crit decode -i "$m/core-395.img" >"$TMP/core.json" || fail "crit decode core-395.img"
	jq -e '.magic == "CORE" and .entries[0].mtype == "S390" and
		.entries[0].tc.comm == "sched-messaging" and .entries[0].tc.task_state == 1' \
		"$TMP/core.json" >/dev/null || fail "crit decode core-395.img: $(cat "$TMP/core.json")"
	# decode, encode: the same bytes
	for f in "$m/pstree.img" "$m/core-395.img" "$m/inventory.img"; do
		crit decode -i "$f" -o "$TMP/x.json" && crit encode -i "$TMP/x.json" -o "$TMP/x.img" ||
			fail "crit decode/encode $f"
		cmp -s "$f" "$TMP/x.img" || fail "crit decode then encode changed $f"
	done
	rm -f "$TMP/x.json" "$TMP/x.img" "$TMP/ps" "$TMP/pstree.json" "$TMP/core.json"
fi
rm -rf "$TMP/s.criu" "$TMP/m.criu" "$TMP/p.criu"

# ---- a fixture: server 500 forks workers 501 and 502, 502 exits at 1.1 ms; extra 600 ----
MKPAIRS="$(dirname "$SREP_BIN")/tests/lib/mkpairs"
"$MKPAIRS" "$TMP" || fail "mkpairs"
cd "$TMP"
expect_exit 0 "$SREP_BIN" convert -q -f criu --at 0.0005 --at 0.002 b.data
[ "$(ls b.criu | tr '\n' ' ')" = "000-0.000500s 001-0.002000s timeline.json " ] ||
	fail "b.criu holds $(ls b.criu | tr '\n' ' ')"
cp b.criu/timeline.json "$TMP/out"
golden "$CLI/convert-criu-pair.timeline.json"
if [ $crit = yes ]; then
	crit x b.criu/000-0.000500s ps >"$TMP/out" || fail "crit x ps (fixture)"
	printf '%s\n' "    PID   PGID    SID   COMM" "      1      1      1   init" \
		"    500    500    500       server" "    501    501    501           worker" \
		"    502    502    502           worker" "    600    600    600       extra" >"$TMP/want"
	diff -u "$TMP/want" "$TMP/out" >&2 || fail "crit x ps at 0.5 ms"
	crit x b.criu/001-0.002000s ps >"$TMP/out" || fail "crit x ps (fixture)"
	grep -v "   502   " "$TMP/want" | diff -u - "$TMP/out" >&2 || fail "crit x ps at 2 ms"
	rm -f "$TMP/want"
fi
rm -rf b.criu

# ---- targets ----

# an empty directory is replaced; a non-empty one, a file, the input are refused
mkdir empty.criu
expect_exit 0 "$SREP_BIN" convert -q -f criu -o empty.criu/ b.data
[ -f empty.criu/timeline.json ] || fail "an empty target directory was not filled"
expect_exit 1 "$SREP_BIN" convert -f criu -o empty.criu b.data
grep -q "^schedrep: 'empty.criu' exists and is not empty: refusing to replace it" "$TMP/err" ||
	fail "non-empty target: $(cat "$TMP/err")"
[ "$(ls empty.criu | wc -l)" = 2 ] || fail "a refused target changed"
rm -rf empty.criu
echo text >file.criu
expect_exit 1 "$SREP_BIN" convert -f criu -o file.criu b.data
grep -q "'file.criu' exists and is not a directory" "$TMP/err" || fail "file target: $(cat "$TMP/err")"
[ "$(cat file.criu)" = text ] || fail "the file was changed"
rm -f file.criu
expect_exit 1 "$SREP_BIN" convert -f criu -o b.data b.data
grep -q "refusing to overwrite the input" "$TMP/err" || fail "input as output"
# a directory cannot go to standard output, and standard input has no name to derive one from
expect_exit 2 "$SREP_BIN" convert -f criu -o - b.data
grep -q "writes a directory: name it with -o DIR" "$TMP/err" || fail "-o -: $(cat "$TMP/err")"
expect_exit 2 sh -c "'$SREP_BIN' convert -f criu - < b.data"
grep -q "writes a directory: name it with -o DIR" "$TMP/err" || fail "stdin: $(cat "$TMP/err")"
# criu's options belong to criu; their values are checked before the trace is read
expect_exit 2 "$SREP_BIN" convert --at 0.1 b.data
grep -q "'--at' is an option of --format criu" "$TMP/err" || fail "--at without -f criu"
for bad in "--at soon" "--every 0" "--every-instructions x"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$SREP_BIN" convert -f criu $bad b.data
	grep -q "^usage: schedrep convert" "$TMP/err" || fail "$bad: no usage line"
done
no_leftovers "$TMP"

# ---- atomic output ----

# an instant outside the trace: exit 1, the trace's span named, nothing left
expect_exit 1 "$SREP_BIN" convert -f criu --at 0.001 --at 9 b.data
grep -q "^schedrep: --at '9': instant 9.000000 s (@5179.000000000) is outside the trace (0.000000 .. 0.006000 s)$" \
	"$TMP/err" || fail "--at 9: $(cat "$TMP/err")"
expect_exit 1 "$SREP_BIN" convert -f criu --every-instructions 1000 b.data
grep -q "no instructions or cycles samples" "$TMP/err" || fail "--every-instructions: $(cat "$TMP/err")"
no_leftovers "$TMP"

# SIGINT, SIGTERM while writing: 2549 instants of 134 tasks take seconds; stopped
# after the first instants are written, exit 130 and the temporary tree is gone
for sig in INT TERM; do
	"$SREP_BIN" convert -q -f criu --every 1ms -o "$TMP/big.criu" "$TMP/s.data" \
		>"$TMP/out" 2>"$TMP/err" &
	pid=$!
	tries=0
	until tmp=$(ls -d "$TMP"/big.criu.schedrep-tmp-* 2>/dev/null) &&
		[ "$(ls "$tmp" | wc -l)" -ge 3 ]; do
		tries=$((tries + 1))
		[ $tries -lt 600 ] || { kill $pid; fail "no instant was written"; }
		sleep 0.05
	done
	kill -$sig $pid
	set +e
	wait $pid
	status=$?
	set -e
	[ $status = 130 ] || fail "SIG$sig: exit $status, expected 130"
	no_leftovers "$TMP"
done
