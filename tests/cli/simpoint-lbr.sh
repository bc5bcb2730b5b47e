#!/bin/sh
# simpoint-lbr.sh - "schedrep simpoint" on a profile with branch stacks
# (tests/lib/mklbr: perf record -b -c 10000 of a loop whose phases A B A B A B
# each run two basic blocks of their own): the vectors are the basic blocks
# between taken branches, named by their start, each sample's count shared
# by their sizes; a stack that does not chain falls back to the sample's
# address; the phases are found; both byte orders and word sizes agree;
# --per-thread analyses each thread alone.
. "$SREP_TOP_SRCDIR/tests/cli/lib.sh"
set -e
MKLBR="$(dirname "$SREP_BIN")/tests/lib/mklbr"
[ -x "$MKLBR" ] || { echo "SKIP: $MKLBR not built" >&2; exit 77; }
ARI="$SREP_TOP_SRCDIR/tests/simpoint/ari.awk"
cd "$TMP"

for f in le64 le32 be64 be32; do
	"$MKLBR" "$f.data" "$f" || fail "mklbr $f"
	expect_exit 0 "$SREP_BIN" simpoint -q --no-symbols --interval 1M -o "$f" "$f.data"
done

grep -q "vectors: 5 dimensions (basic blocks of the branch stacks" le64/summary.txt ||
	fail "the summary does not say the vectors are basic blocks: $(grep vectors: le64/summary.txt)"
# the blocks' starts (0x401020 and 0x401140 are no 64-byte address blocks),
# and 0x402000: the first sample's stack does not chain, its address counts
[ "$(awk '{ printf "%s ", $2 }' le64/dims)" = "0x402000 0x401000 0x401020 0x401100 0x401140 " ] ||
	fail "dimensions: $(tr '\n' ' ' <le64/dims)"

# interval 1 (all phase A): 0x401000's blocks are 5 + 3 x 13 bytes of every
# stack, 0x401020's 4 x 45: the 1,000,000 cycles are shared 44 : 180
sed -n 2p le64/vectors.bb | awk '{
	split($1, a, ":"); split($2, b, ":")
	if (a[2] != 2 || b[2] != 3 || a[3] + b[3] != 1000000) exit 1
	r = a[3] / b[3]; exit !(r > 0.2440 && r < 0.2449) }' ||
	fail "interval 1's vector is not shared by block size: $(sed -n 2p le64/vectors.bb)"

# the true phase of interval i is that of most of its samples: A B A B A B,
# ten each, then a short 61st with the last sample of B
ari=$(awk '!/^#/ { print int(($1 < 60 ? $1 : 59) / 10) % 2, $5 }' le64/intervals.txt |
	awk -f "$ARI")
awk -v a="$ari" 'BEGIN { exit !(a == 1) }' || fail "phases not found: adjusted Rand index $ari"

# --per-thread: with a second thread running A's loop all along, the first
# thread's analysis is exactly the one-thread profile's, the second's one phase
"$MKLBR" threads.data le64 threads || fail "mklbr threads"
expect_exit 0 "$SREP_BIN" simpoint -q --per-thread --no-symbols --interval 1M -o thr threads.data
[ "$(grep -v '^#' thr/threads.txt | cut -f1,2,5,6 | tr '\t\n' ' ')" = \
  "50 phases 2 tid-50/ 51 steady 1 tid-51/ " ] || fail "threads.txt: $(cat thr/threads.txt)"
for o in dims vectors.bb labels simpoints weights; do
	cmp -s "le64/$o" "thr/tid-50/$o" || fail "--per-thread: thread 50's $o differs from the one-thread profile's"
done
[ "$(sort -u thr/tid-51/labels)" = 0 ] || fail "--per-thread: the steady thread has several phases"

for f in le32 be64 be32; do
	for o in dims vectors.bb labels simpoints weights; do
		cmp -s "le64/$o" "$f/$o" || fail "$f's $o differs from le64's"
	done
done
exit 0
