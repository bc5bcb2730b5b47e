#!/bin/sh
# schedrep callchains: on the corpus' arm64 and x86_64 traces, with the
# target's files in a temporary symfs, the output equals the guest perf's
# own 'perf script' byte for byte, for -g (arm64: with the callers perf
# unwinds from the sampled link register) and for --call-graph dwarf (user
# stacks unwound); a stripped binary with its debug file gives the same;
# without symbols every frame is still printed; errors, and a trace without
# callchains.
. "$(dirname "$0")/lib.sh"
set -e

# a trace without callchains says so (the bundled sample has none)
expect_exit 1 "$SREP_BIN" callchains "$DATA/sample-x86_64.data"
grep -q "no event has a callchain" "$TMP/err" || fail "no reason for an empty output"

CORPUS="$CORPUS_ROOT/callchains"
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS (set SREP_CORPUS)" >&2; exit 77; }
command -v xz >/dev/null || { echo "SKIP: xz absent" >&2; exit 77; }

for spec in "x86_64 x86_64-linux-gnu ld-linux-x86-64.so.2" \
	    "arm64 aarch64-linux-gnu ld-linux-aarch64.so.1"; do
	set -- $spec
	for stripped in "" -stripped; do
		callchain_symfs "$1" "$2" "$3" "$stripped"
		for trace in sched-callchain dwarf; do
			expect_exit 0 "$SREP_BIN" callchains --kallsyms "$TMP/kallsyms-$1" \
				--symfs "$TMP/root-$1$stripped" --buildid-dir "" "$CORPUS/$1/$trace.data"
			cmp -s "$TMP/out" "$CORPUS/$1/$trace.script.txt" ||
				fail "$1$stripped $trace: output differs from the guest perf's"
			grep -q "callchains, .* frames, .* resolved" "$TMP/err" || fail "$1: no summary"
		done
	done
done
# 4 of arm64's 410 dwarf samples have an empty stack copy: perf unwinds nothing there either
grep -q '^schedrep: 410 samples carry --call-graph dwarf user stacks, 406 unwound$' "$TMP/err" ||
	fail "arm64 dwarf: unwound count"

# no symbol files at all: every frame printed, unresolved ones as [unknown]
expect_exit 0 "$SREP_BIN" callchains -q --symfs "$TMP/empty" --buildid-dir "" \
	"$CORPUS/s390x/sched-callchain.data"
[ "$(grep -c '^	' "$TMP/out")" = "$(grep -c '^	' "$CORPUS/s390x/sched-callchain.script.txt")" ] ||
	fail "s390x without symbols: frame count differs from perf's"
grep -q '\[unknown\] (\[kernel.kallsyms\])' "$TMP/out" || fail "no [unknown] kernel frame"
[ ! -s "$TMP/err" ] || fail "-q printed something"

# -o writes the same, atomically
expect_exit 0 "$SREP_BIN" callchains -q -o "$TMP/cc.txt" --kallsyms "$TMP/kallsyms-x86_64" \
	--symfs "$TMP/root-x86_64" --buildid-dir "" "$CORPUS/x86_64/sched-callchain.data"
cmp -s "$TMP/cc.txt" "$CORPUS/x86_64/sched-callchain.script.txt" || fail "-o output differs"

# --lines: blocker frames name blocker.c
expect_exit 0 "$SREP_BIN" callchains -q --lines --kallsyms "$TMP/kallsyms-x86_64" \
	--symfs "$TMP/root-x86_64" --buildid-dir "" "$CORPUS/x86_64/sched-callchain.data"
grep -q 'worker_nap+0x[0-9a-f]* (/root/blocker)  \(\./\)\?blocker\.c:[0-9]' "$TMP/out" ||
	fail "--lines: no blocker.c line"

# info counts the same frames as callchains resolves, text and JSON
expect_exit 0 "$SREP_BIN" info --kallsyms "$TMP/kallsyms-x86_64" --symfs "$TMP/root-x86_64" \
	--buildid-dir "" "$CORPUS/x86_64/sched-callchain.data"
grep -q '^callchains:    389 callchains, 4234 frames, 3802 resolved (89.8%): kernel 2966/2966, user 836/1268$' \
	"$TMP/out" || fail "info: callchain line"
expect_exit 0 "$SREP_BIN" info --json --kallsyms "$TMP/kallsyms-x86_64" --buildid-dir "" \
	--symfs "$TMP/root-x86_64" "$CORPUS/x86_64/sched-callchain.data"
grep -q '"user_resolved":[[:space:]]*836' "$TMP/out" || fail "info --json: user_resolved"
# --no-symbols: nothing resolved, no line
expect_exit 0 "$SREP_BIN" info --no-symbols "$CORPUS/x86_64/sched-callchain.data"
! grep -q '^callchains:' "$TMP/out" || fail "info --no-symbols: callchain line"
# --call-graph dwarf stacks are counted; without the target's files none unwinds
expect_exit 0 "$SREP_BIN" info --symfs "$TMP/empty" --buildid-dir "" "$CORPUS/s390x/dwarf.data"
grep -q '^callchains:    409 samples carry --call-graph dwarf user stacks, 0 unwound$' \
	"$TMP/out" || fail "info: dwarf stacks line"
# no callchains: no line, and null in JSON
expect_exit 0 "$SREP_BIN" info --buildid-dir "" "$DATA/sample-x86_64.data"
! grep -q '^callchains:' "$TMP/out" || fail "info: callchain line without callchains"
expect_exit 0 "$SREP_BIN" info --json --stats "$DATA/sample-x86_64.data"
grep -q '"callchains":[[:space:]]*null' "$TMP/out" || fail "info --json --stats: callchains"

# errors: a kallsyms that cannot be read, a vmlinux that is not ELF
expect_exit 1 "$SREP_BIN" callchains --kallsyms "$TMP/missing" "$CORPUS/x86_64/sched-callchain.data"
grep -q "^schedrep: kallsyms '$TMP/missing'" "$TMP/err" || fail "missing kallsyms message"
expect_exit 1 "$SREP_BIN" callchains --vmlinux "$TMP/kallsyms-x86_64" "$CORPUS/x86_64/sched-callchain.data"
mkdir "$TMP/empty"
(cd "$TMP/empty" && expect_exit 1 "$SREP_BIN" callchains)
grep -q "'perf.data': cannot open" "$TMP/err" || fail "no file: $(cat "$TMP/err")"
