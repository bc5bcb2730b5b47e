#!/bin/sh
# layers.sh - every #include of the library, the CLI, the exporters, replay
# and the recorder names a header its layer may use (docs/design.md).
#
# The build already compiles each folder with only the include paths of its
# layer; this also catches what include paths cannot: a header found next to
# the including file, a path with "..", an exporter including emit.h from
# the CLI. Run from make check (SREP_TOP_SRCDIR) or by hand from the top of
# the tree. It first checks itself on a copy of the tree with one planted
# violation, which must be found.
set -eu
TOP=${SREP_TOP_SRCDIR:-$(cd "$(dirname "$0")/.." && pwd)}

# FOLDER: the folders (besides its own) whose headers it may include, or
# single headers; every layer includes the public ones as <schedrep/NAME.h>.
# Symbols and analysis see the reader only through the public accessors.
rules() {
	cat <<'EOF'
src/include/schedrep:
src/core:
src/reader: src/core
src/reader/json: src/reader src/core
src/symbols: src/core
src/analysis: src/core
formats: 
formats/criu: formats/exporter.h
formats/rtapp: formats/exporter.h formats/emit.h replay/replay.h
replay:
record: src/core
fastforward: record/record.h
src/cli: formats/exporter.h replay/replay.h record/record.h fastforward/fastforward.h
EOF
}

# check ROOT: print each violation as FILE: #include X: why; fail if any
check() {
	root=$1
	found=$(rules | while IFS=: read -r dir allowed; do
		for f in "$root/$dir"/*.c "$root/$dir"/*.h; do
			[ -f "$f" ] || continue
			grep -n '^[[:space:]]*#[[:space:]]*include' "$f" | while IFS= read -r line; do
				check_one "$root" "$dir" "$allowed" "${f#$root/}" "$line" || echo bad
			done
		done
	done)
	[ -z "$found" ]
}

# check_one ROOT DIR ALLOWED FILE "N:#include ...": 0 if allowed
check_one() {
	root=$1 dir=$2 allowed=$3 file=$4 line=$5
	inc=$(echo "$line" | sed -n 's/^[0-9]*:[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p')
	name=$(echo "$inc" | tr -d '<>"')
	case $inc in
	\<schedrep/*) return 0 ;;
	\<*)	# a system header, unless it names one of ours
		if [ -n "$(find "$root/src" "$root/formats" "$root/replay" "$root/record" "$root/fastforward" \
			-name "$(basename "$name")" -path "*$name" 2>/dev/null | head -n 1)" ]; then
			echo "$file: #include $inc: a project header included as a system one" >&2
			return 1
		fi
		return 0 ;;
	esac
	case $name in
	*..*) echo "$file: #include $inc: no '..' in include paths" >&2; return 1 ;;
	esac
	[ -f "$root/$dir/$name" ] && return 0
	for a in $allowed; do
		if [ -d "$root/$a" ]; then
			[ -f "$root/$a/$name" ] && return 0
		elif [ "$(basename "$a")" = "$name" ]; then
			return 0
		fi
	done
	# generated next to its sources in the build tree (criu.pb-c.h)
	[ -f "$root/$dir/${name%.pb-c.h}.proto" ] && return 0
	echo "$file: #include $inc: not a header the layer '$dir' may use" >&2
	return 1
}

# the check must find a planted violation: an exporter reaching into the reader
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedrep-layers-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$TOP" && tar cf - src formats replay record fastforward) | (cd "$tmp" && tar xf -)
sed -i '0,/#include "emit.h"/s//#include "emit.h"\n#include "reader.h"/' "$tmp/formats/json.c"
if check "$tmp" 2>"$tmp/planted.err"; then
	echo "FAIL: a planted '#include \"reader.h\"' in formats/json.c was not found" >&2
	exit 1
fi
grep -q 'formats/json.c: #include "reader.h"' "$tmp/planted.err" || {
	cat "$tmp/planted.err" >&2
	echo "FAIL: the planted violation was not the one reported" >&2
	exit 1
}

if ! check "$TOP"; then
	echo "FAIL: headers included across layers (docs/design.md)" >&2
	exit 1
fi
echo "layers: every #include is allowed (and a planted violation was caught)"
