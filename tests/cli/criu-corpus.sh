#!/bin/sh
# schedrep convert --format criu on every trace of the corpus that schedrep
# reads and that has tasks, at its middle and at its end: the conversion
# succeeds, and CRIU's own Python
# library (pycriu, what crit runs on) loads every image written, in one
# process for speed. Prints a line per trace: tasks, instants, images.
# Skips without the corpus or without pycriu (Debian's criu package).
. "$(dirname "$0")/lib.sh"
set -e

CORPUS="$CORPUS_ROOT"
[ -d "$CORPUS" ] || { echo "SKIP: no corpus at $CORPUS (set SREP_CORPUS)" >&2; exit 77; }
command -v crit >/dev/null 2>&1 || { echo "SKIP: crit (Debian's criu) is not installed"; exit 77; }
PY=$(head -n 1 "$(command -v crit)" | sed 's/^#! *//')
"$PY" -c 'import pycriu' 2>/dev/null || { echo "SKIP: $PY cannot import pycriu"; exit 77; }

n=0
converted=0
for f in "$CORPUS"/emulated/*.data "$CORPUS"/callchains/*/*.data "$CORPUS"/public/*; do
	case $f in *.txt | *.md | *.xz) continue ;; esac
	[ -f "$f" ] || continue
	n=$((n + 1))
	"$SREP_BIN" info --json "$f" >"$TMP/info.json" 2>/dev/null || continue	# unreadable: check_corpus
	tasks=$(jq '.tasks' "$TMP/info.json")
	[ "$tasks" -gt 0 ] || continue
	converted=$((converted + 1))
	out="$TMP/criu/$converted"
	mkdir -p "$TMP/criu"
	# seconds from the trace start, exact to the nanosecond
	at() { jq -r "(.time.span_ns * $1 | floor) as \$n |
		\"\\(\$n / 1e9 | floor).\\((\"00000000\" + (\$n % 1000000000 | tostring))[-9:])\"" \
		"$TMP/info.json"; }
	expect_exit 0 "$SREP_BIN" convert -q -f criu --at "$(at 0.5)" --at "$(at 1)" -o "$out" "$f"
	echo "${f#"$CORPUS"/} $tasks $out" >>"$TMP/list"
done
[ "$converted" -gt 0 ] || fail "no corpus trace converted"

"$PY" - "$TMP/list" <<'PY'
import os, sys
import pycriu

bad = 0
for line in open(sys.argv[1]):
    path, tasks, out = line.split()
    instants = sorted(os.listdir(out))
    instants = [i for i in instants if os.path.isdir(os.path.join(out, i))]
    images = 0
    for i in instants:
        d = os.path.join(out, i)
        for name in sorted(os.listdir(d)):
            try:
                with open(os.path.join(d, name), 'rb') as f:
                    img = pycriu.images.load(f)
                assert img['entries'], 'no entries'
                images += 1
            except Exception as e:
                print('FAIL: %s: %s/%s: %s' % (path, i, name, e))
                bad += 1
    print('%-64s tasks %5s  instants %d  images %5d' % (path, tasks, len(instants), images))
sys.exit(1 if bad else 0)
PY
echo "criu: $converted of $n corpus files have tasks; every image they gave loads with pycriu"
