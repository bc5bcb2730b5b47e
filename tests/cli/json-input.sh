#!/bin/sh
# The lossless JSON as input to every command: a trace and its own
# `convert -f json` export give zero differences in compare, the same
# replay plan, the same CRIU image sets, and the same Perfetto and SVG
# timelines (with selections and time windows relative to the trace start),
# on a fixture (mkpairs' b.data, big-endian), the bundled samples and a
# corpus trace (skipped without the corpus).
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT"
MKPAIRS="$(dirname "$SREP_BIN")/tests/lib/mkpairs"
"$MKPAIRS" "$TMP" || fail "mkpairs"
cp "$DATA/sample-x86_64.data" "$TMP/x86.data"
cp "$DATA/sample-s390x-zstd.data" "$TMP/s390x.data"
traces="b x86 s390x"
corpus="$CORPUS/emulated/arm64-messaging.data"
if [ -f "$corpus" ]; then
	cp "$corpus" "$TMP/arm64.data"
	traces="$traces arm64"
else
	part_skipped "no corpus at $CORPUS: only the fixture and the samples"
fi
cd "$TMP"

for t in $traces; do
	expect_exit 0 "$SREP_BIN" convert -q -f json "$t.data"
	j="$t.schedrep.json"
	head -n 1 "$j" | jq -e '.time_span.first > 0 and .time_span.last > .time_span.first' \
		>/dev/null || fail "$j: no time span on its first line"

	# compare: zero differences, every task paired with itself
	expect_exit 0 "$SREP_BIN" compare --json "$t.data" "$j"
	cp "$TMP/out" "$TMP/cmp.json"
	jq -e '.significant == 0 and (.unmatched_a + .unmatched_b | length) == 0 and
		(.matched | length) > 0 and all(.matched[]; .a == .b)' "$TMP/cmp.json" >/dev/null ||
		fail "$t: compare with its JSON: differences or unpaired tasks"
	# every figure with an A and a B side is the same on both (but the file names)
	jq -e 'del(.a.path, .b.path) | [.. | objects | select(has("a") and has("b")) |
		select(.a != .b)] | length == 0' "$TMP/cmp.json" >/dev/null ||
		fail "$t: compare with its JSON: $(jq -c 'del(.a.path, .b.path) | [.. | objects |
			select(has("a") and has("b")) | select(.a != .b)][0]' "$TMP/cmp.json")"
	jq -e '[.. | .diff? // empty | select(. != 0)] | length == 0' "$TMP/cmp.json" >/dev/null ||
		fail "$t: compare with its JSON: nonzero B-A"

	# replay --dry-run: the same plan, but for the line naming the file
	expect_exit 0 "$SREP_BIN" replay --dry-run "$t.data"
	sed 1d "$TMP/out" >"$TMP/plan.data"
	[ "$(head -n 1 "$TMP/out")" = "trace:     $t.data" ] || fail "$t: plan's first line"
	expect_exit 0 "$SREP_BIN" replay --dry-run "$j"
	sed 1d "$TMP/out" >"$TMP/plan.json"
	[ -s "$TMP/plan.data" ] || fail "$t: empty plan"
	diff -u "$TMP/plan.data" "$TMP/plan.json" >&2 || fail "$t: replay plans differ"

	# convert: Perfetto and SVG byte for byte, also with a selection and a relative window
	span=$(head -n 1 "$j" | jq '(.time_span.last - .time_span.first) / 1e9')
	window=$(echo "$span" | awk '{printf "%.9f,%.9f", $1 / 4, $1 / 2}')
	for args in "-f perfetto" "-f svg" "-f perfetto --only worker --only sched-messaging --children" \
		"-f perfetto --time $window" "-f svg --time 0.0005,"; do
		# shellcheck disable=SC2086
		expect_exit 0 "$SREP_BIN" convert -q $args -o - "$t.data"
		cp "$TMP/out" "$TMP/from.data"
		# shellcheck disable=SC2086
		expect_exit 0 "$SREP_BIN" convert -q $args -o - "$j"
		cmp -s "$TMP/out" "$TMP/from.data" || fail "$t: convert $args differs from JSON"
	done

	# criu: the same image sets byte for byte; timeline.json but for the input's name
	at=$(echo "$span" | awk '{printf "%.6f", $1 / 4}')
	every=$(echo "$span" | awk '{printf "%.6f", $1 / 3}')
	expect_exit 0 "$SREP_BIN" convert -q -f criu --at "$at" --every "$every" -o d.criu "$t.data"
	expect_exit 0 "$SREP_BIN" convert -q -f criu --at "$at" --every "$every" -o j.criu "$j"
	[ "$(ls d.criu | wc -l)" -ge 4 ] || fail "$t: fewer instants than asked for"
	diff -r -x timeline.json d.criu j.criu >&2 || fail "$t: CRIU images from JSON differ"
	grep -v '^  "input": ' d.criu/timeline.json >"$TMP/tl.data"
	grep -v '^  "input": ' j.criu/timeline.json >"$TMP/tl.json"
	cmp -s "$TMP/tl.data" "$TMP/tl.json" || fail "$t: timeline.json from JSON differs"
	grep -q "^  \"input\": \"$j\",$" j.criu/timeline.json || fail "$t: timeline names another input"
	rm -rf d.criu j.criu "$j"
done
