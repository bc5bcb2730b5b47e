#!/bin/bash
# tests/cross/run.sh [ARCH...] - the cross-built recorder on emulated boards.
#
# For each ARCH (aarch64, s390x, armhf; default: aarch64 s390x):
#   rootfs   Debian 12's kernel, perf, busybox, glibc and libzstd-dev of ARCH,
#            extracted with mmdebstrap (no maintainer scripts run);
#   build    this tree with ./configure --host=TRIPLET --enable-recorder-only
#            LDFLAGS=-static, libzstd taken from that rootfs (no multiarch
#            packages installed on this machine);
#   initrd   an initramfs with perf and the libraries it needs, busybox, the
#            static schedrep and tests/cross/guest-init.sh as /init;
#   boot     qemu-system (TCG), 2 CPUs, 1 GiB: the board records with schedrep
#            (file, pipe, -z, SIGKILLed -a, a flight-recorder dump) and its own
#            perf reads every file (report --stats, or report -D for pipe);
#   compare  on this machine, schedrep info's counts of each file equal the
#            board perf's, and the board's perf sched latency read the file.
# Prints one line per file and exits 1 on any difference.
#
# Needs root, network (a Debian mirror), mmdebstrap, qemu-system-arm /
# qemu-system-misc, gcc-aarch64-linux-gnu / gcc-s390x-linux-gnu /
# gcc-arm-linux-gnueabihf, python3, and a host build of schedrep (build/).
# Writes only under WORK (default ${TMPDIR:-/tmp}/schedrep-cross).
# Env: WORK, SCHEDREP (host schedrep), LOOPS (20), QEMU_TIMEOUT (1800 s),
# MIRROR, SECURITY_MIRROR (empty: none), STEPS ("rootfs build initrd boot compare").
set -euo pipefail

SRC=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-${TMPDIR:-/tmp}/schedrep-cross}
SCHEDREP=${SCHEDREP:-$SRC/build/schedrep}
LOOPS=${LOOPS:-20}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1800}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${SECURITY_MIRROR-http://deb.debian.org/debian-security}
STEPS=${STEPS:-rootfs build initrd boot compare}
ARCHES=${*:-aarch64 s390x}
case $WORK in /*) ;; *) WORK=$PWD/$WORK ;; esac

log() { echo "[$(date +%H:%M:%S)] $*"; }

arch_setup() {
	A=$1
	case $A in
	aarch64)
		DEBARCH=arm64 TRIPLET=aarch64-linux-gnu KPKG=linux-image-arm64
		QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57) CONSOLE=ttyAMA0
		DISK=virtio-blk-device MODULES="drivers/virtio/virtio_mmio.ko drivers/block/virtio_blk.ko" ;;
	s390x)
		DEBARCH=s390x TRIPLET=s390x-linux-gnu KPKG=linux-image-s390x
		QEMU=(qemu-system-s390x -M s390-ccw-virtio -cpu max) CONSOLE=ttysclp0
		DISK=virtio-blk-ccw MODULES="drivers/block/virtio_blk.ko" ;;
	armhf)
		DEBARCH=armhf TRIPLET=arm-linux-gnueabihf KPKG=linux-image-armmp-lpae
		QEMU=(qemu-system-arm -M virt -cpu cortex-a15) CONSOLE=ttyAMA0
		DISK=virtio-blk-device MODULES="drivers/virtio/virtio_mmio.ko drivers/block/virtio_blk.ko" ;;
	*) echo "unknown ARCH '$A' (aarch64, s390x, armhf)" >&2; exit 2 ;;
	esac
	W=$WORK/$A
	ROOT=$W/rootfs
	mkdir -p "$W"
}

step_rootfs() {
	[ -e "$ROOT/usr/bin/perf" ] && { log "$A: rootfs already there"; return; }
	rm -rf "$ROOT"
	local src=("deb $MIRROR bookworm main" "deb $MIRROR bookworm-updates main")
	[ -n "$SECURITY_MIRROR" ] && src+=("deb $SECURITY_MIRROR bookworm-security main")
	mmdebstrap --variant=extract --architectures="$DEBARCH" \
		--include=linux-perf,busybox-static,"$KPKG",libc6,libzstd-dev \
		bookworm "$ROOT" "${src[@]}" >"$W/mmdebstrap.log" 2>&1 ||
		{ tail -n 20 "$W/mmdebstrap.log"; exit 1; }
}

step_build() {
	local b=$W/build inc=$W/zstd-include
	mkdir -p "$b" "$inc"
	cp "$ROOT"/usr/include/zstd.h "$ROOT"/usr/include/zstd_errors.h "$inc/"
	[ -e "$SRC/configure" ] || (cd "$SRC" && autoreconf -fi)
	(cd "$b" && "$SRC/configure" --host="$TRIPLET" --enable-recorder-only --enable-werror \
		LDFLAGS=-static ZSTD_CFLAGS="-I$inc" ZSTD_LIBS="$ROOT/usr/lib/$TRIPLET/libzstd.a" \
		>configure.out 2>&1 && make -j2 >make.out 2>&1) || { tail -n 20 "$b"/*.out; exit 1; }
	grep -q "define HAVE_ZSTD 1" "$b/config.h" && ZSTD=yes || ZSTD=no
	log "$A: $(file -b "$b/schedrep" | cut -d, -f1-2), $(stat -c %s "$b/schedrep") bytes, zstd $ZSTD"
}

# a path of the rootfs with its links followed inside the rootfs, never the host's
resolve() {
	local p=$1 t n=0
	while [ -L "$ROOT/$p" ] && [ $n -lt 40 ]; do
		t=$(readlink "$ROOT/$p")
		case $t in /*) p=${t#/} ;; *) p=$(dirname "$p")/$t ;; esac
		n=$((n + 1))
	done
	echo "$p"
}
find_lib() {
	local d
	for d in lib/$TRIPLET usr/lib/$TRIPLET lib usr/lib; do
		[ -e "$ROOT/$(resolve "$d/$1")" ] && { resolve "$d/$1"; return 0; }
	done
	echo "missing library $1" >&2
	return 1
}
# an ELF of the rootfs (relative path) and the libraries it needs, recursively
add_elf() {
	local from=$1 dst=$2 lib
	[ -e "$S/$dst" ] && return
	install -D -m 755 "$ROOT/$from" "$S/$dst"
	for lib in $(readelf -d "$ROOT/$from" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		add_elf "$(find_lib "$lib")" "usr/lib/$TRIPLET/$lib"
	done
}

step_initrd() {
	local kver m interp
	S=$W/stage
	rm -rf "$S"
	mkdir -p "$S"/{usr/bin,usr/lib/$TRIPLET,usr/lib/modules,proc,sys,dev,tmp,out,etc,bb}
	ln -s usr/bin "$S/bin"
	ln -s usr/lib "$S/lib"
	install -m 755 "$ROOT/bin/busybox" "$S/usr/bin/busybox"
	ln -s busybox "$S/usr/bin/sh"
	interp=$(readelf -l "$ROOT/usr/bin/perf" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
	[ "${interp#/lib/}" != "$interp" ] || { echo "unexpected interpreter $interp" >&2; exit 1; }
	add_elf "$(resolve "${interp#/}")" "usr/lib/${interp#/lib/}"
	add_elf "$(resolve usr/bin/perf)" usr/bin/perf
	install -m 755 "$W/build/schedrep" "$S/usr/bin/schedrep"
	kver=$(ls "$ROOT/lib/modules")
	for m in $MODULES; do
		install -m 644 "$ROOT/lib/modules/$kver/kernel/$m" "$S/usr/lib/modules/"
	done
	install -m 755 "$SRC/tests/cross/guest-init.sh" "$S/init"
	printf 'ARCH=%s\nLOOPS=%s\nMODULES="%s"\nZSTD=%s\n' "$A" "$LOOPS" \
		"$(for m in $MODULES; do printf '%s ' "${m##*/}"; done)" \
		"$(grep -q 'define HAVE_ZSTD 1' "$W/build/config.h" && echo yes || echo no)" >"$S/etc/cross.conf"
	echo "root:x:0:0:root:/root:/bin/sh" >"$S/etc/passwd"
	python3 "$SRC/tests/cross/newc.py" "$S" "$W/initrd.cpio" dev/console:c:5:1 dev/null:c:1:3
	gzip -1 -n -f "$W/initrd.cpio"
	log "$A: initramfs $(stat -c %s "$W/initrd.cpio.gz") bytes"
}

step_boot() {
	local t0 rc=0
	rm -f "$W/disk.img"
	truncate -s 256M "$W/disk.img"
	t0=$(date +%s)
	timeout "$QEMU_TIMEOUT" "${QEMU[@]}" -m 1G -smp 2 -nographic -no-reboot -nic none \
		-kernel "$(ls "$ROOT"/boot/vmlinuz-*)" -initrd "$W/initrd.cpio.gz" \
		-append "console=$CONSOLE rdinit=/init panic=-1 loglevel=4" \
		-drive "file=$W/disk.img,format=raw,if=none,id=out0" -device "$DISK,drive=out0" \
		</dev/null >"$W/console.log" 2>&1 || rc=$?
	log "$A: qemu exit $rc after $(($(date +%s) - t0)) s"
}

# ---- compare, with the CLI tests' helpers (perf_counts, info_counts) ----

one_file() {
	local data=$1 stats=$2 what=$3
	if [ ! -s "$data" ] || ! grep -q "TOTAL events" "$stats" 2>/dev/null; then
		echo "$A $what: MISSING (no file or no perf stats on the board)"
		BAD=1
		return
	fi
	perf_counts "$stats" >"$TMP/perfs"
	if ! "$SCHEDREP" info "$data" >"$TMP/out" 2>"$TMP/err"; then
		echo "$A $what: schedrep info FAILED: $(cat "$TMP/err")"
		BAD=1
		return
	fi
	info_counts >"$TMP/ours"
	if diff -u "$TMP/perfs" "$TMP/ours" >"$TMP/diff"; then
		echo "$A $what: EQUAL to the board's perf ($(awk '/TOTAL events/ {print $3}' "$stats") records," \
			"$(awk '/^rec SAMPLE/ {print $3}' "$TMP/perfs") samples, $(grep -c '^ev ' "$TMP/perfs") events)"
	else
		echo "$A $what: DIFFERENT from the board's perf"
		cat "$TMP/diff"
		BAD=1
	fi
}

step_compare() {
	local G=$W/out f
	rm -rf "$G"
	mkdir -p "$G"
	if grep -q '^=== cross-tar-on-vda ok' "$W/console.log"; then
		tar -xf "$W/disk.img" -C "$G"
	else
		sed -n '/^=== cross-base64-begin/,/^=== cross-base64-end/p' "$W/console.log" | sed '1d;$d' |
			tr -d '\r' | base64 -d | tar -xzf - -C "$G" || { echo "$A: no results from the board"; BAD=1; return; }
	fi
	while read -r size sum f; do
		[ "$(stat -c %s "$G/$f")" = "$size" ] && [ "$(sha256sum <"$G/$f" | cut -d' ' -f1)" = "$sum" ] ||
			{ echo "$A: $f damaged on the way"; BAD=1; }
	done <"$G/$A-guest-manifest.txt"
	sed 's/^/    board| /' "$G/$A-guest-log.txt"
	one_file "$G/$A-file.data" "$G/$A-file.report-stats.txt" "file mode"
	one_file "$G/$A-pipe.data" "$G/$A-pipe.report-D-stats.txt" "pipe mode (perf report -D)"
	[ -e "$G/$A-zstd.data" ] && one_file "$G/$A-zstd.data" "$G/$A-zstd.report-stats.txt" "zstd"
	one_file "$G/$A-killed.data" "$G/$A-killed.report-stats.txt" "SIGKILLed -a"
	one_file "$G/$A-ring-dump.data" "$G/$A-ring-dump.report-stats.txt" \
		"flight-recorder dump (trigger $(cat "$G/$A-ring-dump.trigger.txt" 2>/dev/null))"
	if grep -q "sched-messaging" "$G/$A-file.sched-latency.txt"; then
		echo "$A file mode: the board's perf sched latency read it"
	else
		echo "$A file mode: the board's perf sched latency FAILED"
		BAD=1
	fi
	grep -h "data loss" "$G/$A-file.err" | sed "s/^/$A file mode summary: /"
}

command -v "${SCHEDREP}" >/dev/null || { echo "build schedrep on this machine first ($SCHEDREP)" >&2; exit 2; }
SREP_BIN=$SCHEDREP SREP_TOP_SRCDIR=$SRC
export SREP_BIN SREP_TOP_SRCDIR
# shellcheck source=../cli/lib.sh
. "$SRC/tests/cli/lib.sh"
set +u
BAD=0
T0=$(date +%s)
for a in $ARCHES; do
	arch_setup "$a"
	for s in $STEPS; do
		t=$(date +%s)
		"step_$s"
		log "$A: $s took $(($(date +%s) - t)) s"
	done
done
log "all done in $(($(date +%s) - T0)) s"
exit $BAD
