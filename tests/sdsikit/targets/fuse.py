# SPDX-License-Identifier: GPL-2.0-only
"""The FUSE target: the tree is served by `sdsi-emu run`, controlled with
`sdsi-emu ctl`, which finds the emulator through $SDSI_EMU_CTL."""
import json
import os
import shutil
import subprocess

from sdsikit.layout import FEATURE_BITS
from sdsikit.targets import FAULT_KINDS


class Target:
    def __init__(self):
        self.emu = os.environ.get('SDSI_EMU') or shutil.which('sdsi-emu')
        if not self.emu:
            raise RuntimeError('sdsi-emu is neither in $SDSI_EMU nor on PATH')
        if not os.environ.get('SDSI_EMU_CTL'):
            raise RuntimeError('SDSI_EMU_CTL is not set: the suite must run '
                               'inside `sdsi-emu run`')

    def _ctl(self, *args):
        argv = [self.emu, 'ctl', *[str(a) for a in args]]
        done = subprocess.run(argv, capture_output=True, text=True,
                              timeout=30)
        if done.returncode != 0:
            raise RuntimeError(f'{" ".join(argv)} exited {done.returncode}: '
                               f'{done.stderr.strip()}')
        return done.stdout

    def power_cycle(self, n):
        self._ctl('power-cycle', n)

    def fault(self, n, kind, count=None, param=None):
        assert kind in FAULT_KINDS, kind
        args = ['fault', n, kind]
        if count is not None:
            args += ['--count', count]
        if param is not None:
            args += ['--param', param]
        self._ctl(*args)

    def clear(self, n, kind=None):
        self._ctl('clear', n, *([kind] if kind else []))

    def _status(self, n):
        for line in self._ctl('status').splitlines():
            sock = json.loads(line)
            if sock['socket'] == n:
                return sock
        raise RuntimeError(f'sdsi-emu ctl status: no socket {n}')

    def fault_state(self, n, kind):
        assert kind in FAULT_KINDS, kind
        return next((f for f in self._status(n)['faults']
                     if f['kind'] == kind), None)

    def violations(self, n):
        return self._status(n)['protocol_violations']

    def violation_report(self, n):
        return self._ctl('violations', n)

    def set_iblock(self, n, locked):
        self._ctl('iblock', n, 'on' if locked else 'off')

    def set_features(self, n, value):
        names = [name for name, bit in FEATURE_BITS.items() if value & bit]
        self._ctl('features', n, ','.join(names) if names else 'none')

    def advance(self, n, seconds):
        self._ctl('advance', n, seconds)
