#!/bin/sh
# bench/record-writers.sh - the measurement behind record/writer.c's choice
# of a writer thread: bench/writers.c hands 64 KiB chunks produced at
# RATE MiB/s to write(2) in the drain loop, a writer thread, POSIX AIO and
# io_uring, writing into a pipe drained at SLOW (bench/slowcat.py) and into
# a tmpfs file. Printed: how long the drain was held up (the rings overflow
# meanwhile), chunks it was late for, and CPU. Env: RATE (20), SLOW (8M),
# TOTAL_MB (60; 400 for tmpfs), CC (cc).
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
RATE=${RATE:-20}
SLOW=${SLOW:-8M}
TOTAL_MB=${TOTAL_MB:-60}
OUT=${OUT:-/dev/shm/schedrep-bench-writers}
mkdir -p "$OUT"
${CC:-cc} -O2 -pthread -o "$OUT/writers" "$TOP/bench/writers.c"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "-- a pipe drained at $SLOW/s, $TOTAL_MB MiB produced at $RATE MiB/s"
for m in sync thread aio uring; do
	"$OUT/writers" $m - 64 "$RATE" "$TOTAL_MB" | python3 "$TOP/bench/slowcat.py" "$SLOW" >/dev/null
done
echo "-- a tmpfs file, 400 MiB produced at 200 MiB/s"
for m in sync thread aio uring; do
	"$OUT/writers" $m "$OUT/file" 64 200 400
done
rm -rf "$OUT"
