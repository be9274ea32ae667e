# SPDX-License-Identifier: GPL-2.0-only
"""The window target: our FUSE driver serving, through its window backend
(`sdsi-emu mount --window FILE[:OFFSET]`), the sockets that sdsi-shmem plays
in a shared memory window: the same bytes and the same sdsi-shmem that
Linux's intel_sdsi meets in the kernel rig, reached from the host.  What
the ABI cannot do goes to sdsi-shmem exactly as from the kernel target:
through the control page after the sockets' slots.  $SDSI_WINDOW is
FILE[:OFFSET], as sdsi-emu takes it; $SDSI_SOCKETS the socket count;
scripts/run-integration.sh sets both."""
import os

from sdsikit.targets import kernel

# A server still laying out its sockets gets this long to announce them.
READY_S = 10


def parse_window(spec):
    """FILE[:OFFSET] -> (FILE, OFFSET), OFFSET decimal or 0x hex."""
    path, sep, offset = spec.rpartition(':')
    if not sep or not offset[:1].isdigit():
        return spec, 0
    return path, int(offset, 0)


class Target(kernel.Target):
    def __init__(self):  # pylint: disable=super-init-not-called
        spec = os.environ.get('SDSI_WINDOW')
        if not spec:
            raise RuntimeError('SDSI_WINDOW is not set: name the window that '
                               'sdsi-shmem plays (FILE[:OFFSET])')
        path, offset = parse_window(spec)
        sockets = int(os.environ.get('SDSI_SOCKETS', '1'))
        self.page = kernel.ControlPage(path, sockets, offset)
        self.page.wait_ready(READY_S)
