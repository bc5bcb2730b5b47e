#!/bin/sh
# schedrep compare --html: the report is one self-contained file (nothing
# fetched; one inline script, the tasks table's filter), and a real browser
# renders it: headless Chromium (Debian's 'chromium', installed when missing
# and running as root; the test skips otherwise) has the task names in its
# DOM, the timelines and charts as SVG shapes, the table's filter works, and
# its screenshot shows both traces' bar colours. Without Chromium the file
# itself is checked: one colour per comm, distinct in the legend; value
# labels right of the p95 ticks; on two corpus traces, the bar charts say
# how many tasks they leave out and the long tasks table is collapsed.
. "$(dirname "$0")/lib.sh"
set -e

MKPAIRS="$(dirname "$SREP_BIN")/tests/lib/mkpairs"
"$MKPAIRS" "$TMP" || fail "mkpairs"
expect_exit 0 "$SREP_BIN" compare --html "$TMP/report.html" "$TMP/a.data" "$TMP/b.data"
grep -q "^tasks: 3 pairs" "$TMP/out" || fail "the table is not printed with --html"
html="$TMP/report.html"
grep -qi '<link\|<img\|@import\|url(\|https\?:\|<script[^>]*src' "$html" && fail "the report refers outside"
[ "$(grep -o '<script' "$html" | wc -l)" = 1 ] || fail "not one inline script"
for id in timeline cpu-chart wait-chart; do
	grep -q "<svg id='$id'" "$html" || fail "no $id"
done

# the timeline's colours: one per comm, the same in A and B and in the
# legend; the legend's colours all different
timeline_colours() {
	sed -n "/<svg id='timeline'/,/<\/svg>/p" "$1" | awk '
		match($0, /fill=.#[0-9a-f]+. fill-opacity=[^>]*><title>[^<]*/) {
			s = substr($0, RSTART, RLENGTH); fill = substr(s, 7, 7)
			sub(/.*<title>/, "", s)
			if (s in c && c[s] != fill) { print "FAIL " s " is " c[s] " and " fill; bad = 1 }
			c[s] = fill; slices++
		}
		/width=.10. height=.10. fill=/ {
			match($0, /fill=.#[0-9a-f]+/); fill = substr($0, RSTART + 6, 7)
			name = $0; sub(/.*<text[^>]*>/, "", name); sub(/<.*/, "", name)
			if (fill in legend) { print "FAIL legend colour " fill " twice"; bad = 1 }
			legend[fill] = 1
			if ((name in c) && c[name] != fill) { print "FAIL legend " name; bad = 1 }
			entries++
		}
		END { print (bad ? "bad" : "ok"), slices + 0, entries + 0 }'
}
timeline_colours "$html" >"$TMP/colours"
read -r verdict slices entries <"$TMP/colours" || true
[ "$verdict" = ok ] && [ "$slices" -gt 0 ] && [ "$entries" -gt 0 ] ||
	fail "timeline colours: $(cat "$TMP/colours")"

# every p95 tick of a bar chart lies left of its row's value label
ticks_clear() {
	awk '/<rect class=.t./ {
		match($0, /<text class=.v. x=.[0-9.]+/); lx = substr($0, RSTART + 19, RLENGTH - 19) + 0
		rows++
		s = $0
		while (match(s, /<rect class=.t. x=.[0-9.]+/)) {
			tx = substr(s, RSTART + 18, RLENGTH - 18) + 0
			if (tx + 2 > lx) { print "FAIL tick at " tx ", label at " lx; bad = 1 }
			s = substr(s, RSTART + RLENGTH)
		}
	} END { print (bad ? "bad" : "ok"), rows + 0 }' "$1"
}
ticks_clear "$html" >"$TMP/ticks"
read -r verdict rows <"$TMP/ticks" || true
[ "$verdict" = ok ] && [ "$rows" -gt 0 ] || fail "p95 ticks: $(cat "$TMP/ticks")"

# two corpus traces: 130 task pairs, more than a bar chart or the table shows
CA="$CORPUS_ROOT/emulated/arm64-messaging.data" CB="$CORPUS_ROOT/emulated/x86_64-messaging.data"
if [ -f "$CA" ] && [ -f "$CB" ]; then
	expect_exit 0 "$SREP_BIN" compare --html "$TMP/corpus.html" "$CA" "$CB"
	pairs=$(sed -n 's/^tasks: \([0-9]*\) pairs.*/\1/p' "$TMP/out")
	[ "${pairs:-0}" -gt 30 ] || fail "expected more than 30 pairs, got '$pairs'"
	grep -q "<h2>CPU time per task: the largest 30 of $pairs tasks</h2>" "$TMP/corpus.html" ||
		fail "the CPU time chart does not say it shows 30 of $pairs"
	ticks_clear "$TMP/corpus.html" >"$TMP/ticks"
	read -r verdict rows <"$TMP/ticks" || true
	[ "$verdict" = ok ] && [ "$rows" -gt 10 ] || fail "corpus p95 ticks: $(cat "$TMP/ticks")"
	timeline_colours "$TMP/corpus.html" >"$TMP/colours"
	read -r verdict slices entries <"$TMP/colours" || true
	[ "$verdict" = ok ] && [ "$entries" -ge 5 ] || fail "corpus colours: $(cat "$TMP/colours")"
	# the tasks table: its first 40 rows shown, the others hidden until asked
	sed -n "/<table id='tasks'>/,/<\/table>/p" "$TMP/corpus.html" >"$TMP/tasks"
	total=$(grep -c '^<tr' "$TMP/tasks")
	hidden=$(grep -c '^<tr[^>]* hidden>' "$TMP/tasks")
	[ "$total" -gt 40 ] && [ "$hidden" = $((total - 40)) ] ||
		fail "tasks table: $hidden of $total rows hidden, expected all but 40"
	grep -q "The first 40 of $total rows" "$TMP/corpus.html" || fail "the table does not say it is cut"
	echo "corpus: $pairs pairs, $total table rows ($hidden hidden), $entries legend colours"
else
	part_skipped "no corpus traces $CA, $CB: the long report was not checked"
fi

if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: chromium is not installed (./quickstart.sh installs it): the browser test did not run"
	exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3 to read the screenshot"; exit 77; }

browse() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TMP/profile" --window-size=1000,1400 "$@" "file://$html" \
		2>"$TMP/chromium.log"
}

# the DOM as the browser built it
browse --dump-dom >"$TMP/dom.html" || { tail -5 "$TMP/chromium.log" >&2; fail "chromium --dump-dom"; }
for name in worker kworker/0:1 extra "A cpu0" "B cpu1"; do
	grep -q "$name" "$TMP/dom.html" || fail "'$name' is not in the DOM"
done
nrect=$(grep -o '<rect' "$TMP/dom.html" | wc -l)
[ "$nrect" -ge 20 ] || fail "only $nrect SVG rects in the DOM"

# the filter, as the script applies it: '#filter=WORD' fills the box
if [ -f "$TMP/corpus.html" ]; then
	for q in "" kworker; do
		html="$TMP/corpus.html#filter=$q"
		browse --dump-dom >"$TMP/dom.html" || fail "chromium --dump-dom on the filter"
		sed -n '/<table id="tasks">/,/<\/table>/p' "$TMP/dom.html" | tr -d '\n' |
			sed 's/<tr/\n<tr/g' | grep '^<tr' | grep -v '<th>' >"$TMP/rows" || true
		shown=$(grep -vc '^<tr[^>]* hidden=' "$TMP/rows" || true)
		if [ -z "$q" ]; then
			[ "$shown" = 40 ] || fail "unfiltered: $shown rows shown, expected 40"
		else
			[ "$shown" -gt 0 ] || fail "filter '$q': no row shown"
			grep -v '^<tr[^>]* hidden=' "$TMP/rows" | grep -vq "$q" &&
				fail "filter '$q' shows a row without it"
			grep -q "$shown of $total rows shown" "$TMP/dom.html" ||
				fail "filter '$q': the count line does not say $shown"
		fi
		echo "filter '$q': $shown rows shown"
	done
	html="$TMP/report.html"
fi

# the screenshot: pixels of A's and B's bar colours, and coloured timeline slices
browse --screenshot="$TMP/shot.png" >/dev/null || { tail -5 "$TMP/chromium.log" >&2; fail "screenshot"; }
python3 - "$TMP/shot.png" >"$TMP/pixels" <<'PY' || fail "cannot read the screenshot"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and ctype in (2, 6)
        bpp = 3 if ctype == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride, prev, counts = zlib.decompress(idat), w * bpp, bytearray(w * bpp), {}
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp):
        px = tuple(line[x:x + 3])
        key = "a" if px == (0x35, 0x69, 0xc9) else "b" if px == (0xe8, 0x86, 0x2a) else \
              "colour" if max(px) - min(px) > 60 else "other"
        counts[key] = counts.get(key, 0) + 1
    prev = line
print(counts.get("a", 0), counts.get("b", 0), counts.get("colour", 0))
PY
read -r pa pb pc <"$TMP/pixels"
echo "screenshot: $pa pixels of A's colour, $pb of B's, $pc other coloured"
[ "$pa" -ge 200 ] && [ "$pb" -ge 200 ] || fail "bars not drawn: $pa A, $pb B pixels"
[ "$pc" -ge 500 ] || fail "timelines not drawn: $pc coloured pixels"
