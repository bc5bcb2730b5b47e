# SPDX-License-Identifier: GPL-2.0-or-later
#
# crit-check.py DIR... - what CRIU's crit does with an image set, in one
# process instead of one crit per image (run with the interpreter of crit's
# own #! line, which has pycriu): every image decodes, 'crit decode' then
# 'crit encode' (load, JSON, dump) gives back the same bytes, and
# 'crit x DIR ps' lists the tree. Prints "DIR PROCESSES" per set; exits 1 at
# the first image crit would not take back unchanged.
import contextlib
import glob
import io
import json
import os
import sys

import pycriu
from pycriu import cli

for d in sys.argv[1:]:
    for path in sorted(glob.glob(os.path.join(d, '*.img'))):
        with open(path, 'rb') as f:
            raw = f.read()
        img = json.loads(json.dumps(pycriu.images.load(io.BytesIO(raw))))
        out = io.BytesIO()
        pycriu.images.dump(img, out)
        if out.getvalue() != raw:
            print('%s: decode then encode changed the bytes' % path)
            sys.exit(1)
    ps = io.StringIO()
    with contextlib.redirect_stdout(ps):
        cli.explore_ps({'dir': d})
    print(d, len(ps.getvalue().splitlines()) - 1)
