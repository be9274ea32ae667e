# SPDX-License-Identifier: GPL-2.0-only
"""The kernel target: a real Linux intel_sdsi driver in a guest, bound to
devices of the sdsi_window test module, whose memory sdsi-shmem plays as
the hardware.  Control requests go to sdsi-shmem's control socket, found
through $SDSI_SHMEM_CTL (kernel/guest-run.sh sets it)."""
import os
import socket

from targets import FAULT_KINDS, NotSupported


class Target:
    def __init__(self):
        self.path = os.environ.get('SDSI_SHMEM_CTL')
        if not self.path:
            raise RuntimeError('SDSI_SHMEM_CTL is not set: the suite must '
                               'run in the kernel rig (kernel/rig.sh)')

    def _request(self, *words):
        line = ' '.join(str(w) for w in words)
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(30)
            s.connect(self.path)
            s.sendall(line.encode() + b'\n')
            reply = b''
            while not reply.endswith(b'\n'):
                chunk = s.recv(256)
                if not chunk:
                    break
                reply += chunk
        reply = reply.decode().strip()
        if reply != 'ok':
            raise RuntimeError(f'sdsi-shmem: {line!r}: {reply or "no answer"}')

    def power_cycle(self, n):
        self._request('power-cycle', n)

    def fault(self, n, kind, count=None, param=None):
        assert kind in FAULT_KINDS, kind
        if kind == 'oob-owner' and count is not None:
            # The model counts every look at the free mailbox; the real
            # driver's looks are loads from memory that nobody sees.
            raise NotSupported('oob-owner with a count: the driver\'s reads '
                               'of the control register are invisible over '
                               'shared memory')
        self._request('fault', n, kind, count or 0, param or 0)

    def clear(self, n, kind=None):
        self._request('clear', n, *([kind] if kind else []))

    def set_iblock(self, n, locked):
        self._request('iblock', n, 'on' if locked else 'off')

    def set_features(self, n, value):
        self._request('features', n, hex(value))
