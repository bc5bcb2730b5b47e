#!/bin/sh
# abi.sh - debian/libschedrep0.symbols lists exactly what libschedrep.so
# exports (src/libschedrep.map: every srep_* of the public headers), so a
# function added to or dropped from the API cannot leave the package's
# symbols file behind. Skipped without nm or a shared library build.
set -eu
TOP=${SREP_TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}
BUILD=${SREP_TOP_BUILDDIR:-$TOP/build}
LIB=$BUILD/src/.libs/libschedrep.so

command -v nm >/dev/null 2>&1 || { echo "abi.sh: SKIP: no nm"; exit 77; }
[ -f "$LIB" ] || { echo "abi.sh: SKIP: no shared library at $LIB (--disable-shared?)"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

nm -D --defined-only "$LIB" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >"$TMP/lib"
awk 'NR > 1 && $1 !~ /^SCHEDREP_/ { sub(/@.*/, "", $1); print $1 }' \
	"$TOP/debian/libschedrep0.symbols" | sort >"$TMP/deb"
[ -s "$TMP/lib" ] || { echo "abi.sh: FAIL: $LIB exports nothing" >&2; exit 1; }
if ! cmp -s "$TMP/lib" "$TMP/deb"; then
	echo "abi.sh: FAIL: debian/libschedrep0.symbols differs from $LIB's exports" >&2
	echo "(< exported, not listed; > listed, not exported)" >&2
	diff "$TMP/lib" "$TMP/deb" | grep '^[<>]' >&2
	exit 1
fi
echo "abi.sh: $(wc -l <"$TMP/lib") symbols, as listed"
