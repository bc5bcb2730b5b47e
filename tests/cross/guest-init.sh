#!/bin/sh
# guest-init.sh - /init of the emulated board (busybox sh, PID 1) that
# tests/cross/run.sh boots: the cross-built, static schedrep records
# `perf bench sched messaging`, and the board's own perf (Debian's, of the
# same architecture) reads every file. Results go to /out, which is written
# as a plain tar onto the virtio disk /dev/vda (or, without it, base64 on
# the console between marker lines); then the board powers off.
#
# /etc/cross.conf gives ARCH, LOOPS, MODULES (to insmod, in order) and ZSTD
# (yes when schedrep was built with libzstd).

export PATH=/usr/bin:/usr/sbin:/bb HOME=/root LC_ALL=C TERM=dumb
/bin/busybox --install -s /bb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs tracefs /sys/kernel/tracing
echo 1 > /proc/sys/kernel/printk
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
. /etc/cross.conf
for m in $MODULES; do
	insmod /lib/modules/$m || echo "insmod $m failed"
done

A=$ARCH
O=/out
W="perf bench sched messaging -g 2 -l $LOOPS"
LOG=$O/$A-guest-log.txt
mkdir -p $O
cd $O || exit 1
up() { cut -d' ' -f1 /proc/uptime; }
note() { echo "[$(up)] $*" | tee -a $LOG; }
# step NAME CMD: run a shell command, its stderr to NAME.err, note status and time
step() {
	name=$1
	shift
	t0=$(up)
	sh -c "$*" 2> $O/$A-$name.err
	note "$name: rc=$? ($t0 -> $(up) s): $*"
}

note "board $A up: $(uname -r), $(nproc) CPUs, $(perf --version)"
uname -a > $A-sysinfo.txt
schedrep --version >> $A-sysinfo.txt

step file "schedrep record -o $A-file.data -- $W > /dev/null"
step file-stats "perf report --stats -i $A-file.data > $A-file.report-stats.txt"
step file-latency "perf sched latency -i $A-file.data > $A-file.sched-latency.txt"

step pipe "schedrep record -o - -- $W > $A-pipe.data"
step pipe-stats "perf report -D -i $A-pipe.data | sed -n '/^Aggregated stats:/,\$p' > $A-pipe.report-D-stats.txt"

if [ "$ZSTD" = yes ]; then
	step zstd "schedrep record -z -o $A-zstd.data -- $W > /dev/null"
	step zstd-stats "perf report --stats -i $A-zstd.data > $A-zstd.report-stats.txt"
fi

# system-wide, killed with SIGKILL while the workload runs
step killed "schedrep record -a -o $A-killed.data & r=\$!; sleep 2; $W > /dev/null; kill -KILL \$r; wait \$r; true"
step killed-stats "perf report --stats -i $A-killed.data > $A-killed.report-stats.txt"

# flight recorder: one SIGUSR1 during the workload, then SIGINT
step ring "schedrep record -a --ring 1M -o $A-ring & r=\$!; sleep 2; $W > /dev/null; kill -USR1 \$r; sleep 2; kill -INT \$r; wait \$r"
for d in $A-ring.1.*; do
	[ -f "$d" ] && mv "$d" $A-ring-dump.data && echo "${d#$A-ring.1.}" > $A-ring-dump.trigger.txt
done
step ring-stats "perf report --stats -i $A-ring-dump.data > $A-ring-dump.report-stats.txt"

note "all done"
find . -type f | sort | while read -r f; do
	echo "$(wc -c < "$f") $(sha256sum "$f" | cut -d' ' -f1) ${f#./}"
done > /tmp/manifest
mv /tmp/manifest $A-guest-manifest.txt
if [ -b /dev/vda ] && tar -cf /dev/vda -C $O . ; then
	sync
	echo "=== cross-tar-on-vda ok"
else
	echo "=== cross-base64-begin"
	tar -cf - -C $O . | gzip | base64
	echo "=== cross-base64-end"
fi
poweroff -f
