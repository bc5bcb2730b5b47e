#!/bin/sh
# The library as another project uses it: install into a temporary root,
# build docs/examples/switches.c with `pkg-config --cflags --libs schedrep`
# against the installed headers and libschedrep.so, run it on the bundled
# sample, and compare its switch counts per thread with the lossless JSON.
. "$SREP_TOP_SRCDIR/tests/cli/lib.sh"
set -e
: "${SREP_TOP_BUILDDIR:?run through make check}"
for tool in pkg-config cc jq; do
	command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is not installed" >&2; exit 77; }
done

ROOT="$TMP/root"
env -u MAKEFLAGS -u MFLAGS make -s -C "$SREP_TOP_BUILDDIR" install DESTDIR="$ROOT" >"$TMP/install.log" 2>&1 ||
	{ cat "$TMP/install.log" >&2; fail "make install DESTDIR=$ROOT"; }
PC=$(find "$ROOT" -name schedrep.pc)
[ -n "$PC" ] || fail "no schedrep.pc installed"
LIBDIR=$(dirname "$(dirname "$PC")")
[ -f "$LIBDIR/libschedrep.so.0" ] || fail "no libschedrep.so.0 beside the pkg-config file"
FLAGS=$(PKG_CONFIG_PATH=$(dirname "$PC") PKG_CONFIG_SYSROOT_DIR="$ROOT" pkg-config --cflags --libs schedrep)
# the build's compiler and link flags: a sanitizer build's library needs its runtime
${SREP_CC:-cc} -Wall -Wextra -Werror ${SREP_LDFLAGS:-} -o "$TMP/switches" \
	"$SREP_TOP_SRCDIR/docs/examples/switches.c" $FLAGS ||
	fail "the example does not build against the installed library ($FLAGS)"
LD_LIBRARY_PATH="$LIBDIR" ldd "$TMP/switches" | grep -q "$LIBDIR/libschedrep.so.0" ||
	fail "the example is not linked against the installed libschedrep.so.0"

SAMPLE="$DATA/sample-x86_64.data"
LD_LIBRARY_PATH="$LIBDIR" "$TMP/switches" "$SAMPLE" >"$TMP/example.txt" || fail "the example failed"
awk '{print $2, $3}' "$TMP/example.txt" | sort >"$TMP/got"
"$SREP_BIN" convert -q -f json -o - "$SAMPLE" |
	jq -r 'select(.k == "switch") | .u.prev_tid' | sort -n | uniq -c |
	awk '{print $2, $1}' | sort >"$TMP/want"
[ -s "$TMP/want" ] || fail "no switches in the lossless JSON of $SAMPLE"
diff -u "$TMP/want" "$TMP/got" >&2 || fail "switch counts differ from the lossless JSON's"
echo "example: $(wc -l <"$TMP/got") threads, $(awk '{n += $2} END {print n}' "$TMP/got") switches, as the JSON says"
