#!/bin/sh
# debian/build-packages.sh [OUTDIR] - build the Debian packages schedrep,
# libschedrep0 and libschedrep-dev from this checkout's committed tree,
# running the test suite during the build, then lintian and the packages'
# contents. Not part of the quick start. Needs (as root, Debian 12):
# apt-get install build-essential debhelper lintian plus the build
# dependencies of debian/control. Output in OUTDIR (default build-deb/).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$TOP/build-deb}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/schedrep-deb-XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# the test suite in the build reads the shared corpus when it is there
if [ -z "${SREP_CORPUS:-}" ] && [ -d "$TOP/../shared/corpus" ]; then
	SREP_CORPUS=$(cd "$TOP/../shared/corpus" && pwd)
	export SREP_CORPUS
fi
VERSION=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)
SRC="$WORK/schedrep-${VERSION%-*}"
mkdir -p "$SRC"
git -C "$TOP" archive HEAD | tar -x -C "$SRC"
(cd "$SRC" && dpkg-checkbuilddeps && dpkg-buildpackage -us -uc -b) >"$OUT/build.log" 2>&1 || {
	tail -n 40 "$OUT/build.log" >&2
	echo "build-packages: dpkg-buildpackage failed (whole log: $OUT/build.log)" >&2
	exit 1
}
mv "$WORK"/*.deb "$WORK"/*.buildinfo "$WORK"/*.changes "$OUT"/
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR)' "$OUT/build.log" | sed 's/^/test suite during the build: /'
echo "lintian:"
lintian --tag-display-limit 0 "$OUT"/*.changes | tee "$OUT/lintian.txt" || true
if grep -q '^E:' "$OUT/lintian.txt"; then
	echo "build-packages: lintian reports errors" >&2
	exit 1
fi
for deb in "$OUT"/*.deb; do
	echo "== $(basename "$deb")"
	dpkg -c "$deb" | awk '{print $6, $7, $8}'
done
