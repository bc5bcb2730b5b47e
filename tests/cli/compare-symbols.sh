#!/bin/sh
# schedrep compare "where tasks block" on the corpus' -g traces of two
# architectures (x86_64 as A, arm64 as B), each symbolized from its own
# files through the -a and -b options: golden text (80 columns) and JSON
# whose sites add up to each task's sleep on both sides; the lock worker
# blocks in futex_wait_queue on both; an -a/-b option wins over the one for
# both; without symbol files the sites are addresses; --no-symbols and
# traces without callchains give no sites.
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT/callchains"
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS (set SREP_CORPUS)" >&2; exit 77; }
command -v xz >/dev/null || { echo "SKIP: xz absent" >&2; exit 77; }

callchain_symfs x86_64 x86_64-linux-gnu ld-linux-x86-64.so.2
callchain_symfs arm64 aarch64-linux-gnu ld-linux-aarch64.so.1
ln -s "$CORPUS/x86_64/sched-callchain.data" "$TMP/x86_64.data"
ln -s "$CORPUS/arm64/sched-callchain.data" "$TMP/arm64.data"
cd "$TMP"
SYMS="--buildid-dir= --kallsyms-a kallsyms-x86_64 --symfs-a root-x86_64
      --kallsyms-b kallsyms-arm64 --symfs-b root-arm64"

# the table: golden, 80 columns, and a line per trace saying what resolved
expect_exit 0 "$SREP_BIN" compare $SYMS x86_64.data arm64.data
golden "$CLI/compare-symbols.stdout"
[ -z "$(awk 'length > 80' "$TMP/out")" ] || fail "table wider than 80 columns"
grep -q '^schedrep: A: 389 callchains, .* kernel 2966/2966' "$TMP/err" || fail "A's summary"
grep -q '^schedrep: B: 435 callchains, .* kernel 5275/5275' "$TMP/err" || fail "B's summary"

# JSON: on each side every pair's sites add up to its sleep (S and D)
expect_exit 0 "$SREP_BIN" compare --json $SYMS x86_64.data arm64.data
cp "$TMP/out" "$TMP/sym.json"
bad=$(jq -r '.matched[] | select(([.blocking[].blocked.a] | add // 0) !=
	(.metrics.sleep_s.a + .metrics.sleep_d.a) or ([.blocking[].blocked.b] | add // 0) !=
	(.metrics.sleep_s.b + .metrics.sleep_d.b)) | .a[0].comm' "$TMP/sym.json")
[ -z "$bad" ] || fail "sites do not add up to the sleep of: $bad"
# the lock worker: futex_wait_queue on both sides, under its named user frames
[ "$(jq -r '.matched[] | select(.a[0].comm == "blk-lock") | .blocking[] |
	select(.kernel == "futex_wait_queue") | "\(.user) \(.sleeps_a) \(.sleeps_b)"' \
	"$TMP/sym.json" | LC_ALL=C sort | tr '\n' ,)" = \
	"pthread_mutex_lock 0 40,worker_lock 14 0," ] || fail "blk-lock's sites"
# the nap worker: one site; its sleeps are those whose end the trace shows (a
# switch-in is recorded only when the task before is one of the workload's)
[ "$(jq -r '.matched[] | select(.a[0].comm == "blk-nap") | .blocking[] |
	"\(.kernel) \(.user) \(.sleeps_a) \(.sleeps_b)"' "$TMP/sym.json")" = \
	"do_nanosleep clock_nanosleep 14 24" ] || fail "blk-nap's site"

# an -a/-b option wins over the one for both, whatever the order
expect_exit 0 "$SREP_BIN" compare --json --symfs "$TMP/nothing" --kallsyms kallsyms-arm64 $SYMS \
	x86_64.data arm64.data
cmp -s "$TMP/out" "$TMP/sym.json" || fail "the -a/-b options did not win"

# no symbol files: every site named by its address
expect_exit 0 "$SREP_BIN" compare --json -q --buildid-dir= --symfs "$TMP/nothing" \
	x86_64.data arm64.data
[ "$(jq -r '[.matched[].blocking[] | .kernel, .user | select(. != null) |
	select(test("^(0x[0-9a-f]+|[^ ]+\\+0x[0-9a-f]+)$") | not)] | length' "$TMP/out")" = 0 ] ||
	fail "without symbol files, names that are not addresses"
jq -e '[.matched[].blocking[]] | length > 5' "$TMP/out" >/dev/null || fail "no sites by address"
[ ! -s "$TMP/err" ] || fail "-q printed something"

# --no-symbols, or no callchains: no sites, no table
expect_exit 0 "$SREP_BIN" compare --json --no-symbols x86_64.data arm64.data
jq -e '[.matched[].blocking[]] | length == 0' "$TMP/out" >/dev/null || fail "--no-symbols: sites"
expect_exit 0 "$SREP_BIN" compare --no-symbols x86_64.data arm64.data
! grep -q '^where tasks block' "$TMP/out" || fail "--no-symbols: the table"
expect_exit 0 "$SREP_BIN" compare "$DATA/sample-x86_64.data" "$DATA/sample-x86_64.data"
! grep -q '^where tasks block' "$TMP/out" || fail "a table without callchains"

# the HTML report has the table, with both sides' sites
expect_exit 0 "$SREP_BIN" compare -q --html "$TMP/r.html" $SYMS x86_64.data arm64.data
grep -q "<table id='blocking'>" "$TMP/r.html" || fail "no blocking table in the report"
grep -q '<td class=.m.>pthread_mutex_lock</td>' "$TMP/r.html" || fail "report: B's site"
grep -q '<td class=.m.>worker_lock</td>' "$TMP/r.html" || fail "report: A's site"

# a kallsyms that cannot be read is an error, for either side
expect_exit 1 "$SREP_BIN" compare --kallsyms-b "$TMP/missing" x86_64.data arm64.data
grep -q "kallsyms '$TMP/missing'" "$TMP/err" || fail "missing kallsyms message"
exit 0
