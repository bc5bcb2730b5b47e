# lib.sh - helpers for the CLI tests (sourced). Each test is a shell script
# run by 'make check'; exit 0 passes, 77 skips, anything else fails.
# SREP_BIN and SREP_TOP_SRCDIR come from the test environment (Makefile.am).
# SREP_UPDATE_GOLDEN=1 rewrites golden files instead of comparing them:
# review the diff before committing.
set -u
: "${SREP_BIN:?run through make check}"
: "${SREP_TOP_SRCDIR:?run through make check}"
DATA="$SREP_TOP_SRCDIR/tests/data"
CLI="$SREP_TOP_SRCDIR/tests/cli"
# the shared corpus: $SREP_CORPUS, or ../shared/corpus beside the source tree
CORPUS_ROOT=${SREP_CORPUS:-$SREP_TOP_SRCDIR/../shared/corpus}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/schedrep-cli-XXXXXX")
# a test that could not do part of its checks (tool or data missing) ends
# as skipped (77), never as passed
PART_SKIPPED=0
on_exit() {
	st=$?
	rm -rf "$TMP"
	[ "$st" = 0 ] && [ "$PART_SKIPPED" = 1 ] && exit 77
	exit "$st"
}
trap on_exit EXIT

# part_skipped MESSAGE: a part of the test could not run here
part_skipped() {
	echo "SKIP: $*" >&2
	PART_SKIPPED=1
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_exit STATUS CMD...: run, keep stdout/stderr in $TMP/out, $TMP/err
expect_exit() {
	want=$1
	shift
	set +e
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	set -e
	[ "$got" = "$want" ] || {
		cat "$TMP/err" >&2
		fail "'$*' exited $got, expected $want"
	}
}

# golden FILE: compare $TMP/out with a golden file (or rewrite it)
golden() {
	if [ "${SREP_UPDATE_GOLDEN:-0}" = 1 ]; then
		cp "$TMP/out" "$1"
		return
	fi
	diff -u "$1" "$TMP/out" >&2 || fail "output differs from $1"
}

# perf_counts FILE: "NAME COUNT" lines from perf's Aggregated stats (records, then event samples)
perf_counts() {
	awk '/^Aggregated stats:/ {agg=1; next}
	     / stats:$/ && !/^ / {agg=0; ev=$0; sub(/ stats:$/, "", ev); next}
	     agg && $2 == "events:" && $1 != "TOTAL" {print "rec " $1, $3}
	     !agg && ev != "" && $1 == "SAMPLE" && $2 == "events:" {print "ev " ev, $3}' "$1" | sort
}

# info_counts: the same lines from 'schedrep info' text in $TMP/out
info_counts() {
	awk '/^records:/ {sec="rec"; next} /^samples per event:/ {sec="ev"; next}
	     /^[a-z]/ {sec=""}
	     sec != "" && /^  / {print sec " " $1, $2}' "$TMP/out" | sort
}

# callchain_symfs ARCH TRIPLET LOADER [-stripped]: the corpus' callchain
# target files where its traces name them, under $TMP/root-ARCH[-stripped]
# (the stripped binary with its separate debug file when asked), and the
# target's kallsyms in $TMP/kallsyms-ARCH. $CORPUS is the callchain corpus.
callchain_symfs() {
	root="$TMP/root-$1${4:-}"
	mkdir -p "$root/root" "$root/usr/lib/$2"
	if [ -n "${4:-}" ]; then
		ln -s "$CORPUS/$1/blocker.stripped" "$root/root/blocker"
		ln -s "$CORPUS/$1/blocker.debug" "$root/root/blocker.debug"
	else
		ln -s "$CORPUS/$1/blocker" "$root/root/blocker"
	fi
	ln -s "$CORPUS/$1/libc.so.6" "$root/usr/lib/$2/libc.so.6"
	ln -s "$CORPUS/$1/$3" "$root/usr/lib/$2/$3"
	[ -f "$TMP/kallsyms-$1" ] || xz -dc "$CORPUS/$1/kallsyms.xz" >"$TMP/kallsyms-$1"
}
