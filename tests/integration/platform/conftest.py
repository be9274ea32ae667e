# SPDX-License-Identifier: GPL-2.0-only
"""Host-side tests of sdsi-emu: they start the emulator themselves and
find it through $SDSI_EMU (scripts/run-integration.sh sets it)."""
import os
import subprocess
import sys

import pytest

from emu_proc import wait_for_tree

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), 'conformance'))


def _emu_path():
    path = os.environ.get('SDSI_EMU', '')
    if not path or not os.access(path, os.X_OK):
        raise pytest.UsageError('set SDSI_EMU to the sdsi-emu binary '
                                f'(got {path!r})')
    return os.path.abspath(path)


@pytest.fixture(scope='session')
def emu():
    return _emu_path()


class Emu:
    """Runs sdsi-emu and, inside it, platform/inside.py."""

    def __init__(self, path):
        self.path = path
        self.env = dict(os.environ, SDSI_EMU=path)

    def run(self, *args, timeout=60, **kw):
        return subprocess.run([self.path, *args], capture_output=True,
                              text=True, timeout=timeout, env=self.env, **kw)

    def beside(self, *parts):
        """A program of this sdsi-emu's build tree (BUILD/emu/sdsi-emu):
        BUILD/PARTS..., which must be executable."""
        path = os.path.join(os.path.dirname(os.path.dirname(self.path)), *parts)
        if not os.access(path, os.X_OK):
            raise pytest.UsageError(f'no {parts[-1]} beside sdsi-emu ({path})')
        return path

    def inside(self, opts, *steps, timeout=60):
        """`sdsi-emu run OPTS -- python3 inside.py STEPS`; returns the
        completed process (its stdout is one JSON result per step)."""
        return self.run('run', *opts, '--', sys.executable,
                        os.path.join(HERE, 'inside.py'), *steps,
                        timeout=timeout)


@pytest.fixture
def sdsi(emu):
    return Emu(emu)


def mount_points():
    """(mount point, fstype) of every mount of this namespace."""
    found = []
    with open('/proc/self/mountinfo') as f:
        for line in f:
            fields = line.split()
            found.append((fields[4], fields[fields.index('-') + 1]))
    return found


def mounts_under(*roots):
    """Mount points at or below any of roots.  Other programs may mount
    FUSE file systems of their own meanwhile, so tests look only where an
    emulator of theirs could have mounted."""
    return sorted(m for m in mount_points()
                  if any(m[0] == r or m[0].startswith(r.rstrip('/') + '/')
                         for r in roots))


def start_mount(sdsi, tmp_path, sockets):
    """`sdsi-emu mount` of SOCKETS sockets at tmp_path/mnt with its state in
    tmp_path/state, waited for until the last socket's registers appear;
    ctl then reaches it through SDSI_EMU_CTL.  Returns (proc, mnt, state);
    the caller stops it."""
    mnt, state = tmp_path / 'mnt', tmp_path / 'state'
    mnt.mkdir()
    state.mkdir(mode=0o700)
    proc = subprocess.Popen([sdsi.path, 'mount', '--state', str(state),
                             '--sockets', str(sockets), str(mnt)],
                            stderr=subprocess.PIPE, text=True, env=sdsi.env)
    wait_for_tree(proc, mnt / 'devices' / f'intel_vsec.sdsi.{sockets - 1}'
                  / 'registers')
    sdsi.env['SDSI_EMU_CTL'] = str(state / 'control.sock')
    return proc, mnt, state
