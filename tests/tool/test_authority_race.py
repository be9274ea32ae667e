# SPDX-License-Identifier: GPL-2.0-only
"""Issue 25, reproduction 3: --authority and --root-key were checked by
lstat() while the options were parsed and opened again by name when each
socket was made.  A user owning a directory on the way swaps, in a loop
(renameat2 RENAME_EXCHANGE), root's authority with their own, so that the
check sees root's and the load theirs: 4 runs in 60 trusted their root.
Now the name is opened once, every directory on the way held to the
ownership rule, and the key read from that descriptor: a parent another
user owns is refused in every run, whatever the loop does, and no run
ever accepts an AKC their root signed."""
import os
import subprocess
import time

import pytest

from authority import Authority
from sdsikit.hostile_user import attacker, ground  # noqa: F401 (fixtures)
from sdsikit.programs import EMU, TOOL
from tool_runs import emu_missing

pytestmark = pytest.mark.skipif(emu_missing() is not None, reason=str(emu_missing()))

RUNS = 40           # bounded: each run is one short sdsi-emu run
DEADLINE_S = 120    # and so is the whole loop
REFUSED = 5

# The attacker's loop: exchange A and B (renameat2 RENAME_EXCHANGE) until
# the file STOP appears or 150 s pass, whichever is first.
EXCHANGE = r'''
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b, stop = (p.encode() for p in sys.argv[1:4])
end = time.monotonic() + 150
n = 0
while not os.path.exists(stop) and time.monotonic() < end:
    if libc.renameat2(-100, a, -100, b, 2) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
    n += 1
print(n)
'''


def racing(attacker, parent, a, b):
    stop = os.path.join(parent, "stop")
    loop = attacker.popen(["/usr/bin/python3", "-c", EXCHANGE, a, b, stop],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return loop, stop


def stop_racing(loop, stop):
    open(stop, "w").close()
    out, err = loop.communicate(timeout=30)
    assert loop.returncode == 0, err
    assert int(out) > 0       # the loop really ran


@pytest.mark.parametrize("option", ["--authority", "--root-key"])
def test_swapped_root_never_trusted(attacker, ground, option):
    for name in ("root", "evil"):
        os.mkdir(os.path.join(ground, name), 0o755)
    root_auth = Authority(os.path.join(ground, "root"))
    evil = Authority(os.path.join(ground, "evil"))
    evil_akc = evil.akc()            # signed by the attacker's root
    parent = os.path.join(ground, "theirs")
    os.mkdir(parent, 0o755)
    if option == "--authority":
        a, b = os.path.join(parent, "auth"), os.path.join(parent, "decoy")
        os.rename(root_auth.dir, a)
        os.rename(evil.dir, b)
        os.chmod(b, 0o755)
        given = a
    else:
        a, b = os.path.join(parent, "root.pub"), os.path.join(parent, "decoy.pub")
        os.link(os.path.join(root_auth.dir, "root.pub"), a)
        os.link(os.path.join(evil.dir, "root.pub"), b)
        given = a
    os.chown(parent, attacker.uid, attacker.gid)
    loop, stop = racing(attacker, parent, a, b)
    statuses = []
    try:
        end = time.monotonic() + DEADLINE_S
        while len(statuses) < RUNS and time.monotonic() < end:
            done = subprocess.run([EMU, "run", option, given, "--", TOOL, "-d", "0", "-a", evil_akc],
                                  capture_output=True, text=True, timeout=60)
            statuses.append(done.returncode)
            assert done.returncode != 0, f"run {len(statuses)} trusted the attacker's root"
            assert done.returncode == REFUSED, done.stderr
            assert f"{parent} is owned by uid {attacker.uid}" in done.stderr, done.stderr
    finally:
        stop_racing(loop, stop)
    assert len(statuses) >= 10, statuses      # enough runs within the deadline
