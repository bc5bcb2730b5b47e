#!/bin/sh
# schedrep convert --format svg, drawn by a real browser: headless Chromium
# renders the sample's picture to a PNG, then counts its pixels (in a page
# it loads beside it) to check the picture is not blank: the running,
# runnable and sleeping colours must all be there, and the CPU lanes in the
# tasks' colours (vivid pixels of none of the state colours). Before that, without a
# browser: the title counts the tasks as convert's summary does (also with
# --only). Without Chromium (./quickstart.sh installs it) the test skips.
. "$(dirname "$0")/lib.sh"
set -e

# "N tasks" in the picture's title and in convert's summary line
same_count() {
	expect_exit 0 "$SREP_BIN" convert -f svg -o "$TMP/x.svg" "$@" "$DATA/sample-x86_64.data"
	said=$(sed -n 's/.* events, \([0-9]*\) tasks$/\1/p' "$TMP/err")
	drew=$(sed -n 's/.*<text x="8" y="18"[^>]*>.* CPUs, \([0-9]*\) tasks.*/\1/p' "$TMP/x.svg")
	[ -n "$said" ] && [ "$said" = "$drew" ] ||
		fail "convert $* says '$said' tasks, the title '$drew'"
	echo "convert $*: $said tasks in both"
}
same_count
same_count --only perf

if ! command -v chromium >/dev/null 2>&1; then
	echo "SKIP: chromium is not installed (./quickstart.sh installs it)" >&2
	exit 77
fi

expect_exit 0 "$SREP_BIN" convert -q -f svg -o "$TMP/x.svg" "$DATA/sample-x86_64.data"
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout "$TMP/x.svg" || fail "xmllint refuses the SVG"
fi

chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$TMP/profile" \
		--allow-file-access-from-files "$@" 2>"$TMP/chrome.err"
}

chrome --window-size=1600,1200 --screenshot="$TMP/x.png" "file://$TMP/x.svg" >/dev/null ||
	{ cat "$TMP/chrome.err" >&2; fail "chromium could not render the SVG"; }
[ -s "$TMP/x.png" ] || fail "no screenshot"

# count the pixels of each state colour of formats/svg.c in the PNG
cat >"$TMP/count.html" <<'HTML'
<!DOCTYPE html><html><body><script>
const want = { running: [46, 125, 50], runnable: [249, 168, 37], sleeping: [144, 202, 249],
	blocked: [198, 40, 40] };
const img = new Image();
img.onload = () => {
	const c = document.createElement('canvas');
	c.width = img.width; c.height = img.height;
	const g = c.getContext('2d');
	g.drawImage(img, 0, 0);
	const d = g.getImageData(0, 0, c.width, c.height).data, n = { task: 0 };
	for (const k in want) n[k] = 0;
	for (let i = 0; i < d.length; i += 4) {
		let state = false;
		for (const k in want)
			if (Math.abs(d[i] - want[k][0]) + Math.abs(d[i + 1] - want[k][1]) +
			    Math.abs(d[i + 2] - want[k][2]) < 12) { n[k]++; state = true; }
		if (!state && Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 60)
			n.task++;
	}
	document.body.textContent = 'size ' + c.width + 'x' + c.height + ' running ' + n.running +
		' runnable ' + n.runnable + ' sleeping ' + n.sleeping + ' task ' + n.task;
};
img.onerror = () => { document.body.textContent = 'unreadable'; };
img.src = 'x.png';
</script></body></html>
HTML
chrome --virtual-time-budget=10000 --dump-dom "file://$TMP/count.html" >"$TMP/dom" ||
	{ cat "$TMP/chrome.err" >&2; fail "chromium could not count pixels"; }
counts=$(sed -n 's/.*<body>\(size [^<]*\)<\/body>.*/\1/p' "$TMP/dom")
echo "rendered: $counts" >&2
set -- $counts
[ "$1" = size ] && [ "$2" = 1600x1200 ] || fail "unexpected page: $(cat "$TMP/dom")"
# the task lanes' running (the CPU lanes have the tasks' colours)
[ "$4" -gt 5000 ] || fail "blank picture? $4 running pixels"
[ "$6" -gt 5000 ] || fail "blank picture? $6 runnable pixels"
[ "$8" -gt 20000 ] || fail "blank picture? $8 sleeping pixels"
[ "${10}" -gt 10000 ] || fail "CPU lanes not in task colours? ${10} pixels"
