#!/bin/sh
# quickstart.sh - set up a fresh Debian 12 machine (as root) and run schedrep.
#
#   ./quickstart.sh sample   build, then run schedrep on the bundled sample traces
#   ./quickstart.sh test     build, then run the whole test suite (what CI runs)
#
# Safe to re-run: packages are installed only when missing, the build is
# incremental (in ./build; the sanitizer builds in ./build-asan and ./build-tsan).
set -eu
cd "$(dirname "$0")"

BUILD_DEPS="autoconf automake libtool make gcc pkg-config pandoc libtraceevent-dev libdw-dev
	libcjson-dev check libzstd-dev libprotobuf-c-dev protobuf-c-compiler"
# what the tests compare against or drive: perf itself, xz for the corpus
# outputs, xmllint and chromium (headless: renders the SVG and the compare
# report) for the convert and compare tests, jq for their JSON, crit (criu)
# to read the CRIU images back, rt-app to run the rt-app workloads, libprotobuf32
# for Perfetto's trace processor (../shared/tools), time for the bench scripts
TEST_DEPS="linux-perf xz-utils zstd libxml2-utils time jq chromium criu clang libclang-rt-14-dev
	rt-app libprotobuf32"

need_packages() {
	missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
			missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "quickstart: installing$missing" >&2
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
	fi
}

# configure once per build directory, then make (incremental)
build() {
	dir=$1
	shift
	[ -x configure ] || autoreconf -fi
	mkdir -p "$dir"
	[ -f "$dir/Makefile" ] || (cd "$dir" && ../configure --enable-werror "$@")
	make -C "$dir" -j"$(nproc)" >/dev/null
}

# suite DIR TARGET: make TARGET in DIR; when it fails, the end of each failed
# test's log, so a CI run that shows only its last lines says why
suite() {
	make -C "$1" -j"$(nproc)" "$2" && return 0
	find "$1" -name '*.trs' -exec grep -l -E '^:test-result: (FAIL|ERROR)' {} + |
		while read -r trs; do
			echo "==== ${trs%.trs}.log (its last 40 lines)"
			tail -n 40 "${trs%.trs}.log"
		done
	return 1
}

case "${1:-}" in
sample)
	need_packages $BUILD_DEPS
	build build
	./build/schedrep info tests/data/sample-x86_64.data
	echo
	./build/schedrep info tests/data/sample-s390x-zstd.data
	echo
	# the main job: the s390x (big-endian) sample as Perfetto's native trace (CPU
	# tracks, thread states), a Chrome JSON timeline and an SVG, in the build directory
	./build/schedrep convert -f pftrace -o build/sample-s390x.pftrace tests/data/sample-s390x-zstd.data
	./build/schedrep convert -o build/sample-s390x.json tests/data/sample-s390x-zstd.data
	./build/schedrep convert -f svg -o build/sample-s390x.svg tests/data/sample-s390x-zstd.data
	echo "quickstart: open $(pwd)/build/sample-s390x.pftrace in https://ui.perfetto.dev" \
		"(the .json there or in chrome://tracing), $(pwd)/build/sample-s390x.svg in a browser"
	;;
test)
	need_packages $BUILD_DEPS $TEST_DEPS
	build build
	suite build check
	# the same suite under AddressSanitizer and UndefinedBehaviorSanitizer
	build build-asan --enable-sanitizers
	suite build-asan check
	# the suites of threaded code (replay, the exporters' writer) under ThreadSanitizer
	build build-tsan --enable-tsan
	suite build-tsan check-threads
	# clang's ASan+UBSan (which see what GCC's do not): the regression inputs, damage,
	# the corpus, and each libFuzzer target for 20 s (tests/fuzz/)
	build build-fuzz CC=clang --enable-fuzzers
	suite build-fuzz fuzz-check
	make -C build -j"$(nproc)" distcheck >/dev/null
	echo "quickstart: all tests passed"
	;;
*)
	echo "usage: $0 sample|test" >&2
	exit 2
	;;
esac
