#!/usr/bin/env python3
"""newc.py DIR OUT [NAME:c:MAJOR:MINOR]... - write DIR as a newc cpio archive
(the initramfs format), every entry owned by root, plus character devices
named on the command line (the guest needs /dev/console before devtmpfs).
No cpio(1) needed on the build machine."""
import os
import stat
import sys


def pad(n):
    return b"\0" * ((4 - n % 4) % 4)


def entry(out, name, mode, data, ino, rdev=(0, 0)):
    raw = name.encode() + b"\0"
    fields = (ino, mode, 0, 0, 2 if stat.S_ISDIR(mode) else 1, 0, len(data),
              0, 0, rdev[0], rdev[1], len(raw), 0)
    out.write(b"070701" + "".join("%08x" % f for f in fields).encode())
    out.write(raw + pad(110 + len(raw)))
    out.write(data + pad(len(data)))


def main():
    root, path, devices = sys.argv[1], sys.argv[2], sys.argv[3:]
    names = []
    for d, dirs, files in os.walk(root):
        for n in dirs + files:
            names.append(os.path.relpath(os.path.join(d, n), root))
    ino = 1
    with open(path, "wb") as out:
        for rel in sorted(names):
            full = os.path.join(root, rel)
            st = os.lstat(full)
            if stat.S_ISLNK(st.st_mode):
                data = os.readlink(full).encode()
            elif stat.S_ISREG(st.st_mode):
                with open(full, "rb") as f:
                    data = f.read()
            else:
                data = b""
            entry(out, rel, st.st_mode, data, ino)
            ino += 1
        for dev in devices:
            name, _, major, minor = dev.split(":")
            entry(out, name, stat.S_IFCHR | 0o600, b"", ino, (int(major), int(minor)))
            ino += 1
        entry(out, "TRAILER!!!", 0, b"", 0)


if __name__ == "__main__":
    main()
