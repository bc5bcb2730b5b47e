#!/bin/sh
# schedrep compare --html: the report is one self-contained file (nothing
# fetched, no script), and a real browser renders it: headless Chromium
# (Debian's 'chromium', installed when missing and running as root; the test
# skips otherwise) has the task names in its DOM, the timelines and charts as
# SVG shapes, and its screenshot shows both traces' bar colours.
. "$(dirname "$0")/lib.sh"
set -e

MKPAIRS="$(dirname "$SREP_BIN")/tests/lib/mkpairs"
"$MKPAIRS" "$TMP" || fail "mkpairs"
expect_exit 0 "$SREP_BIN" compare --html "$TMP/report.html" "$TMP/a.data" "$TMP/b.data"
grep -q "^tasks: 3 pairs" "$TMP/out" || fail "the table is not printed with --html"
html="$TMP/report.html"
grep -qi '<script\|<link\|<img\|@import\|url(\|https\?:' "$html" && fail "the report refers outside"
for id in timeline cpu-chart wait-chart; do
	grep -q "<svg id='$id'" "$html" || fail "no $id"
done

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
