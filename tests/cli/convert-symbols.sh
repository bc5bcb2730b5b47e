#!/bin/sh
# schedrep convert with symbols on the corpus' callchain traces of the four
# architectures, held to the guest perf's own 'perf script' of each trace:
# - perfetto: every event with a callchain is an instant whose stack is
#   perf script's frames, line for line; every sleep slice names the kernel
#   function and user frame that perf's frames of its switch-out give (the
#   first kernel frame past the scheduler's, the first named user frame);
#   a summary of those names per task is kept as a golden file;
# - json: each event's frames carry perf's function names; --lines adds
#   blocker.c lines;
# - without symbol files: addresses; --no-symbols: none of it.
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT/callchains"
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS (set SREP_CORPUS)" >&2; exit 77; }
command -v xz >/dev/null || { echo "SKIP: xz absent" >&2; exit 77; }

# perf_frames SCRIPT: perf's frame lines, leading blanks gone, a blank line after each event
perf_frames() {
	awk '/^\t/ {sub(/^[ \t]+/, ""); print; next} /^$/ {print ""}' "$1"
}

# our_frames JSON: the stacks of the perfetto instants, in the same layout
our_frames() {
	jq -r '.traceEvents[] | select(.ph == "i" and .args.stack) | (.args.stack[], "")' "$1"
}

# perf_blocked SCRIPT: "TID USEC KERNEL USER" per event, from perf's frames,
# with the rules of srep_symbolizer__blocked_in() and srep_frame__label()
perf_blocked() {
	awk 'BEGIN {RS = ""; FS = "\n"}
	function label(addr, sym, dso,   base) {
		if (sym != "[unknown]") { sub(/\+0x[0-9a-f]+$/, "", sym); return sym }
		if (dso ~ /^\[/) return "0x" addr
		base = dso; sub(/.*\//, "", base); return base "+0x" addr
	}
	{
		split($1, h, " "); t = h[3]; sub(/:$/, "", t); split(t, tt, ".")
		k = "-"; u = "-"; named = 0
		for (i = 2; i <= NF; i++) {
			line = $i; sub(/^[ \t]+/, "", line); split(line, w, " ")
			dso = line; sub(/^[^(]*\(/, "", dso); sub(/\)$/, "", dso)
			kern = dso ~ /^\[/ && dso != "[unknown]" && dso != "[vdso]"
			if (kern && k == "-" && (w[2] == "[unknown]" || w[2] !~ \
			    /^(__schedule|schedule|preempt_schedule|io_schedule|__cond_resched|_cond_resched)/))
				k = label(w[1], w[2], dso)
			if (!kern && !named && (u == "-" || w[2] != "[unknown]")) {
				u = label(w[1], w[2], dso); named = w[2] != "[unknown]"
			}
		}
		print h[2], tt[1] tt[2], k, u
	}' "$1"
}

# our_blocked JSON: "TID USEC KERNEL USER" per sleep slice (its start is the switch-out)
our_blocked() {
	jq -r '.traceEvents[] | select(.ph == "X" and .args.state) |
		"\(.tid) \(.ts | floor) \(.args.blocked_in // "-") \(.args.user_frame // "-")"' "$1"
}

: >"$TMP/summary"
for spec in "x86_64 x86_64-linux-gnu ld-linux-x86-64.so.2" \
	    "arm64 aarch64-linux-gnu ld-linux-aarch64.so.1" \
	    "armhf arm-linux-gnueabihf ld-linux-armhf.so.3" "s390x s390x-linux-gnu ld64.so.1"; do
	set -- $spec
	callchain_symfs "$1" "$2" "$3"
	sym="--kallsyms $TMP/kallsyms-$1 --symfs $TMP/root-$1 --buildid-dir="
	traces=sched-callchain
	# armhf's dwarf stacks unwind further than the guest perf's (docs/symbols.md)
	[ "$1" = armhf ] || traces="$traces dwarf"
	for trace in $traces; do
		expect_exit 0 "$SREP_BIN" convert $sym -o "$TMP/$1.json" "$CORPUS/$1/$trace.data"
		grep -q "^schedrep: [0-9]* callchains, .* resolved" "$TMP/err" ||
			fail "$1 $trace: no symbol summary"
		perf_frames "$CORPUS/$1/$trace.script.txt" >"$TMP/perf-frames"
		our_frames "$TMP/$1.json" >"$TMP/our-frames"
		cmp -s "$TMP/perf-frames" "$TMP/our-frames" ||
			fail "$1 $trace: stacks differ from the guest perf's frames"
		perf_blocked "$CORPUS/$1/$trace.script.txt" | sort >"$TMP/perf-blocked"
		our_blocked "$TMP/$1.json" | sort >"$TMP/our-blocked"
		n=$(wc -l <"$TMP/our-blocked")
		[ "$n" -gt 200 ] || fail "$1 $trace: only $n sleep slices"
		# every sleep slice is a switch-out perf printed, with the same names
		bad=$(LC_ALL=C comm -23 "$TMP/our-blocked" "$TMP/perf-blocked" | head -n 3)
		[ -z "$bad" ] || fail "$1 $trace: sleep slices perf's frames do not give: $bad"
		[ "$trace" = dwarf ] && continue
		jq -r '([.traceEvents[] | select(.ph == "M" and .name == "thread_name") |
			{key: "\(.tid)", value: .args.name}] | from_entries) as $name |
			.traceEvents[] | select(.ph == "X" and .args.state) |
			"\($name["\(.tid)"]) \(.args.state) \(.args.blocked_in // "-") <- \(.args.user_frame // "-")"' \
			"$TMP/$1.json" |
			LC_ALL=C sort | uniq -c | awk -v a="$1" '{$1 = a " " $1; print}' >>"$TMP/summary"
	done
done
cp "$TMP/summary" "$TMP/out"
golden "$CLI/convert-symbols.stdout"
# the lock worker names the lock where perf does (arm64: under pthread_mutex_lock)
grep -q '^arm64 40 .*blk-lock S futex_wait_queue <- pthread_mutex_lock$' "$TMP/summary" ||
	fail "arm64: the lock worker's sleeps do not name pthread_mutex_lock"

# json: the frames' names are perf's, in perf's order; --lines names blocker.c
expect_exit 0 "$SREP_BIN" convert -q -f json --kallsyms "$TMP/kallsyms-arm64" \
	--symfs "$TMP/root-arm64" --buildid-dir= -o "$TMP/arm64.schedrep.json" \
	"$CORPUS/arm64/sched-callchain.data"
jq -r 'select(.frames) | (.frames[] | .symbol // "[unknown]"), ""' "$TMP/arm64.schedrep.json" \
	>"$TMP/our-syms"
awk '/^\t/ {sub(/^[ \t]+[0-9a-f]+ /, ""); sub(/\+0x[0-9a-f]+ \(.*$/, ""); sub(/ \(.*$/, "");
	print; next} /^$/ {print ""}' "$CORPUS/arm64/sched-callchain.script.txt" >"$TMP/perf-syms"
cmp -s "$TMP/perf-syms" "$TMP/our-syms" || fail "json: frame names differ from perf's"
expect_exit 0 "$SREP_BIN" convert -q -f json --lines --kallsyms "$TMP/kallsyms-x86_64" \
	--symfs "$TMP/root-x86_64" --buildid-dir= -o - "$CORPUS/x86_64/sched-callchain.data"
jq -e -s '[.[] | select(.frames) | .frames[] | select(.symbol == "take_lock" or
	.symbol == "worker_nap") | .file | select(. != null and test("blocker\\.c$"))] |
	length > 10' "$TMP/out" >/dev/null || fail "json --lines: no blocker.c lines"

# no symbol files: addresses, [unknown] frames
expect_exit 0 "$SREP_BIN" convert -q --symfs "$TMP/nothing" --buildid-dir= -o "$TMP/bare.json" \
	"$CORPUS/arm64/sched-callchain.data"
[ "$(our_blocked "$TMP/bare.json" | awk '$3 !~ /^0x[0-9a-f]+$/ ||
	($4 != "-" && $4 !~ /^(0x[0-9a-f]+|[^ ]+\+0x[0-9a-f]+)$/)' | wc -l)" = 0 ] ||
	fail "without symbol files, sleep slices name something else than addresses"
our_frames "$TMP/bare.json" | grep -v '^$' >"$TMP/bare-frames"
[ "$(grep -vc '^[0-9a-f]* \[unknown\] (' "$TMP/bare-frames")" = 0 ] ||
	fail "without symbol files, frames that are not [unknown]"
[ "$(wc -l <"$TMP/bare-frames")" -gt 7000 ] || fail "without symbol files, frames missing"

# --no-symbols: no stacks, no blocking names
expect_exit 0 "$SREP_BIN" convert -q --no-symbols -o "$TMP/none.json" "$CORPUS/arm64/sched-callchain.data"
jq -e '[.traceEvents[] | select(.args.stack or .args.blocked_in or .args.user_frame)] |
	length == 0' "$TMP/none.json" >/dev/null || fail "--no-symbols: stacks or blocking names"
expect_exit 0 "$SREP_BIN" convert -q -f json --no-symbols -o - "$CORPUS/arm64/sched-callchain.data"
! grep -q '"frames"' "$TMP/out" || fail "json --no-symbols: frames"
exit 0
