#!/usr/bin/env python3
"""slowcat.py RATE - copy stdin to stdout at most RATE bytes a second.

The slow medium of bench/record.sh: a recorder writing to a pipe whose
reader drains it at a fixed rate blocks in write(2) exactly as on a slow
disk, without depending on a device, a file system or cgroup io limits,
and the same for every recorder measured. RATE takes K/M suffixes.
"""
import os
import sys
import time

CHUNK = 64 * 1024


def parse(rate):
    mult = {"K": 1024, "M": 1024 * 1024}.get(rate[-1:].upper(), 1)
    return int(rate[:-1] if mult > 1 else rate) * mult


def main():
    rate = parse(sys.argv[1])
    start = time.monotonic()
    done = 0
    while True:
        data = os.read(0, CHUNK)
        if not data:
            break
        view = memoryview(data)
        while view:
            view = view[os.write(1, view):]
        done += len(data)
        ahead = done / rate - (time.monotonic() - start)
        if ahead > 0:
            time.sleep(ahead)


if __name__ == "__main__":
    main()
