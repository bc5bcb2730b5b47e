#!/bin/bash
# bench/criu-guest.sh - schedrep fastforward end to end with real CRIU, in an
# emulated Debian 12 guest (qemu TCG, no KVM needed): tests/lib/ff_spin is
# fast-forwarded with task-clock to three targets with the default action
# (criu dump), each checkpoint is restored with criu restore --shell-job and
# must print exactly what an uninterrupted run prints. Not part of make
# check: it needs root, the network (the first time) and qemu, installs
# nothing, and takes minutes. bench/criu-guest-init.sh is the guest's /init.
#
#   BUILD=build  where schedrep and tests/lib/ff_spin were built (make check builds ff_spin)
#   WORK=...     images and results (default ${TMPDIR:-/tmp}/schedrep-criu-guest)
#   ROUNDS=N     ff_spin's rounds (default 150000000: about 3 s of emulated CPU)
#   VM_TIMEOUT=S bound of the qemu run (default 1800)
#   MIRROR=URL   Debian mirror (default http://deb.debian.org/debian)
# Exit status: 0 every restore printed the plain run's output, 1 not, 2 missing tool.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "${BUILD:-$TOP/build}" 2> /dev/null && pwd || echo "${BUILD:-$TOP/build}")
WORK=${WORK:-${TMPDIR:-/tmp}/schedrep-criu-guest}
ROUNDS=${ROUNDS:-150000000}
VM_TIMEOUT=${VM_TIMEOUT:-1800}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# modules criu needs (Debian builds them as modules; an unpacked rootfs has
# no modules.dep, so the guest loads them in this order, dependencies first)
MODULES="crypto/crc32c_generic.ko lib/libcrc32c.ko net/netfilter/nfnetlink.ko net/netfilter/nf_tables.ko
	net/unix/unix_diag.ko net/ipv4/inet_diag.ko net/ipv4/tcp_diag.ko net/ipv4/udp_diag.ko
	net/netlink/netlink_diag.ko net/packet/af_packet_diag.ko"
PKGS=linux-image-amd64,criu,busybox-static,kmod,libtraceevent1,libdw1,libcjson1,libzstd1,libprotobuf-c1,libelf1

missing=()
[ "$(id -u)" = 0 ] || missing+=("root (mmdebstrap, mknod)")
for t in qemu-system-x86_64:qemu-system-x86 mmdebstrap:mmdebstrap cpio:cpio python3:python3 timeout:coreutils objdump:binutils; do
	command -v "${t%%:*}" > /dev/null || missing+=("${t%%:*} (apt-get install ${t#*:})")
done
for f in "$BUILD/schedrep" "$BUILD/tests/lib/ff_spin"; do
	[ -x "$f" ] || missing+=("$f (build it: make, make tests/lib/ff_spin)")
done
if [ ${#missing[@]} -gt 0 ]; then
	printf 'criu-guest: missing: %s\n' "${missing[@]}" >&2
	exit 2
fi
mkdir -p "$WORK"
ROOTFS=$WORK/rootfs

# 1. Debian 12's kernel, criu and schedrep's runtime libraries, unpacked
# (no maintainer scripts: the guest needs no package database)
if [ ! -x "$ROOTFS/usr/sbin/criu" ]; then
	rm -rf "$ROOTFS"
	echo "criu-guest: mmdebstrap bookworm into $ROOTFS ..." >&2
	mmdebstrap --variant=extract --include="$PKGS" bookworm "$ROOTFS" "$MIRROR"
fi
for lib in $(objdump -p "$BUILD/schedrep" | awk '/NEEDED/ {print $2}'); do
	[ -n "$(find "$ROOTFS" -name "$lib" -print -quit)" ] || { echo "criu-guest: $lib is not in the rootfs" >&2; exit 2; }
done

# 2. the initramfs: the rootfs without what the guest does not use (python,
# docs, firmware, modules), kept; then an archive of this run's files
# (init, schedrep, ff_spin, the modules criu needs), appended: the kernel
# unpacks concatenated archives in order
BASE=$WORK/base.cpio.gz
if [ ! -s "$BASE" ]; then
	(cd "$ROOTFS" && find . \( -path './usr/lib/python3*' -o -path './usr/share/doc' -o -path './usr/share/man' \
		-o -path './usr/share/locale' -o -path '*/lib/firmware' -o -path '*/lib/modules' -o -path ./boot \) -prune \
		-o -print | cpio -o -H newc -R 0:0 --quiet | gzip -1) > "$BASE.tmp"
	mv "$BASE.tmp" "$BASE"
fi
EXTRA=$WORK/extra
rm -rf "$EXTRA"
mkdir -p "$EXTRA/usr/local/bin" "$EXTRA/etc" "$EXTRA/dev" "$EXTRA/bin"
ln -s busybox "$EXTRA/bin/sh"	# schedrep runs its action with /bin/sh; no dash here
install -m 755 "$TOP/bench/criu-guest-init.sh" "$EXTRA/init"
install -m 755 "$BUILD/schedrep" "$BUILD/tests/lib/ff_spin" "$EXTRA/usr/local/bin/"
echo "ROUNDS=$ROUNDS" > "$EXTRA/etc/ffguest.conf"
mknod "$EXTRA/dev/console" c 5 1
kdir=$(cd "$ROOTFS" && find . -maxdepth 5 -path '*/lib/modules/*' -name kernel -type d | head -n 1)
paths=
for m in $MODULES; do
	mkdir -p "$EXTRA/$kdir/$(dirname "$m")"
	cp "$ROOTFS/$kdir/$m" "$EXTRA/$kdir/$m"
	paths="$paths ${kdir#.}/$m"
done
echo "MODULES='$paths'" >> "$EXTRA/etc/ffguest.conf"
(cd "$EXTRA" && find . | cpio -o -H newc -R 0:0 --quiet | gzip -1) | cat "$BASE" - > "$WORK/initrd.cpio.gz"

# 3. boot it; the guest's /init sends its results over the console
KERNEL=$(ls "$ROOTFS"/boot/vmlinuz-* | head -n 1)
cmd=(timeout "$VM_TIMEOUT" qemu-system-x86_64 -accel tcg -M q35 -cpu max -smp 2 -m 1G
	-kernel "$KERNEL" -initrd "$WORK/initrd.cpio.gz" -append "console=ttyS0 panic=-1 loglevel=1"
	-nographic -no-reboot -nic none)
echo "criu-guest: ${cmd[*]}" >&2
t0=$(date +%s)
"${cmd[@]}" < /dev/null > "$WORK/console.log" 2>&1 || echo "criu-guest: qemu exited with status $?" >&2
echo "criu-guest: the guest ran $(($(date +%s) - t0)) s; console in $WORK/console.log" >&2
OUT=$WORK/out
rm -rf "$OUT"
mkdir -p "$OUT"
tr -d '\r' < "$WORK/console.log" | sed -n '/@@@CRIU-GUEST-BEGIN/,/@@@CRIU-GUEST-END/{/@@@/d;p}' |
	base64 -d | tar -xzf - -C "$OUT" || { echo "criu-guest: no results on the console" >&2; exit 1; }

# 4. the table
python3 - "$OUT" << 'EOF'
import json, os, sys
out = sys.argv[1]
rd = lambda f: open(os.path.join(out, f)).read() if os.path.exists(os.path.join(out, f)) else None
print(rd("versions.txt").strip().replace("\n", ", "))
print("perf PMUs in the guest:", " ".join(rd("pmus.txt").split()))
print("instructions:u in the guest:", rd("instructions.txt").strip().splitlines()[0])
plain = rd("plain.out")
print("plain run:", plain.strip().replace("\n", " | "))
print("fastforward exit", rd("ff.rc").strip(), "; its workload's output", "==" if rd("ff.out") == plain else "!=", "plain")
log = json.loads(rd("fastforward.json"))
print("%-3s %12s %12s %10s %5s %6s %6s %8s" % ("n", "target ns", "reached", "skid", "procs", "dump", "tasks", "restore"))
ok = True
for i, t in enumerate(log["targets"], 1):
    n = "%03d-%d" % (i, t["requested"])
    a = t.get("action", {})
    dump = "ok" if a.get("exit_code") == 0 else "FAIL"
    rc, o = rd(n + ".restore.rc"), rd(n + ".out")
    same = rc is not None and rc.strip() == "0" and o == plain
    ok = ok and same and dump == "ok"
    # tasks: core-PID.img files, one per process criu dumped
    tasks = sum(f.startswith("core-") for f in (rd(n + ".images") or "").split())
    print("%-3d %12d %12d %+10d %5d %6s %6d %8s  rc %s, output %s plain" % (i, t["requested"], t["reached"], t["skid"],
          t["processes"], dump, tasks, "ok" if same else "FAIL", (rc or "-").strip(), "==" if o == plain else "!="))
sys.exit(0 if ok and len(log["targets"]) == 3 else 1)
EOF
