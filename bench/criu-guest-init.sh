#!/bin/busybox sh
# criu-guest-init.sh - /init of the guest of bench/criu-guest.sh (busybox sh,
# PID 1). Runs ff_spin plainly, calibrates it with task-clock, fast-forwards
# it to three targets with the default action (criu dump), restores every
# checkpoint, and sends /res as a base64 tar.gz between two marker lines on
# the console, then powers off. /etc/ffguest.conf sets ROUNDS and MODULES.
/bin/busybox mkdir -p /bb /proc /sys /dev /tmp /run /res
/bin/busybox --install -s /bb
export PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/bb HOME=/root LC_ALL=C
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
echo 1 > /proc/sys/kernel/printk
ip link set lo up     # criu checks TCP repair on a loopback socket
. /etc/ffguest.conf
R=/res
note() { echo "criu-guest: [$(cut -d' ' -f1 /proc/uptime)] $*"; }
SPIN=/usr/local/bin/ff_spin

# criu finds sockets through the *_diag modules and probes nftables
for m in $MODULES; do
	insmod "$m" 2>> $R/insmod.err
done
{ uname -r; criu --version; nproc; } > $R/versions.txt 2>&1
criu check > $R/criu-check.txt 2>&1
ls /sys/bus/event_source/devices > $R/pmus.txt
schedrep fastforward -q -e instructions:u --at 0 --no-action -o /tmp/probe -- /bin/busybox true \
	> $R/instructions.txt 2>&1
echo "rc $?" >> $R/instructions.txt

note "plain run, calibration"
cd /tmp || exit 1
$SPIN "$ROUNDS" 1 > $R/plain.out
schedrep fastforward -q -e task-clock --at 0 --no-action -o /tmp/calib -- $SPIN "$ROUNDS" 1 \
	> /dev/null 2> $R/calib.err
total=$(sed -n 's/.*"final_count":[[:space:]]*\([0-9]*\).*/\1/p' /tmp/calib/fastforward.json)
# 10, 25 and 40 % of the CPU time: all in the child's half, so the output
# file is still empty at every dump
targets=$((total / 10)),$((total / 4)),$((total * 2 / 5))
echo "$total $targets" > $R/targets.txt

note "fastforward to $targets ns"
# setsid: the workload's session leader is schedrep, outside the dumped
# tree, as under a shell (hence the action's --shell-job). The workload's
# stderr is /dev/null, not schedrep's log: criu restores a regular file
# only if its size is still what it was at the dump.
setsid schedrep fastforward -e task-clock --at $targets -o /tmp/ff -- sh -c "exec $SPIN $ROUNDS 1 2> /dev/null" \
	< /dev/null > /tmp/out 2> $R/ff.err
echo $? > $R/ff.rc
cp /tmp/out $R/ff.out
cp /tmp/ff/fastforward.json $R/

# a restored tree is stopped, as it was dumped: criu restore runs in the
# foreground (it waits for the tree to exit) and every stopped task gets
# SIGCONT once criu has written the pid file
for d in /tmp/ff/0*; do
	[ -d "$d" ] || continue
	n=${d##*/}
	note "restore $n"
	ls "$d" > $R/$n.images
	: > /tmp/out
	rm -f /tmp/rpid
	timeout 600 setsid criu restore -D "$d" --shell-job --pidfile /tmp/rpid < /dev/null 2> $R/$n.restore.err &
	c=$!
	(
		while [ ! -s /tmp/rpid ]; do sleep 0.2; done
		while :; do
			for s in /proc/[0-9]*/status; do
				grep -q 'T (stopped)' "$s" 2> /dev/null && p=${s#/proc/} && kill -CONT "${p%/status}"
			done
			sleep 0.5
		done
	) &
	k=$!
	wait $c
	echo $? > $R/$n.restore.rc
	kill $k
	cp /tmp/out $R/$n.out
done

note "done"
tar -czf /tmp/res.tgz -C $R .
echo
echo "@@@CRIU-GUEST-BEGIN"
base64 /tmp/res.tgz
echo "@@@CRIU-GUEST-END"
sync
poweroff -f
