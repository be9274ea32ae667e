# SPDX-License-Identifier: GPL-2.0-only
"""`sdsi-emu mount DIR`: the tree served at DIR, controlled from outside
with ctl, and gone after SIGTERM."""
import errno
import json
import os
import signal

import pytest

from sdsikit.emu import mounts_under, start_mount
from sdsikit.daemon import stop
from sdsikit.layout import decode_state_certificate

SOCKETS = 2


@pytest.fixture
def mounted(sdsi, tmp_path):
    proc, mnt, state = start_mount(sdsi, tmp_path, SOCKETS)
    yield proc, mnt, state
    stop(proc, unmount=mnt)


def test_mount_ctl_and_sigterm(sdsi, mounted):
    proc, mnt, state = mounted
    assert [m for m, _ in mounts_under(str(mnt))] == [str(mnt)]
    dev = mnt / 'devices' / 'intel_vsec.sdsi.0'
    assert sorted(os.listdir(mnt / 'devices')) == \
        [f'intel_vsec.sdsi.{n}' for n in range(SOCKETS)]

    status = sdsi.run('ctl', 'status')
    assert status.returncode == 0, status.stderr
    lines = [json.loads(line) for line in status.stdout.splitlines()]
    assert len(lines) == SOCKETS

    assert sdsi.run('ctl', 'fault', '0', 'status-failure').returncode == 0
    with pytest.raises(OSError) as e:
        (dev / 'state_certificate').read_bytes()
    assert e.value.errno == errno.EIO
    assert sdsi.run('ctl', '--state', str(state), 'clear', '0').returncode \
        == 0
    decode_state_certificate((dev / 'state_certificate').read_bytes())

    assert sdsi.run('ctl', 'unbind', '1').returncode == 0
    assert not (mnt / 'devices' / 'intel_vsec.sdsi.1' / 'registers').exists()
    assert sdsi.run('ctl', 'bind', '1').returncode == 0
    assert (mnt / 'devices' / 'intel_vsec.sdsi.1' / 'registers').exists()

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0, proc.stderr.read()
    assert mounts_under(str(mnt)) == []
    assert os.listdir(mnt) == []


def test_ctl_errors_exit_with_the_class_of_their_errno(sdsi, mounted):
    """docs/exit-codes.md: an error answer exits with its errno's class."""
    done = sdsi.run('ctl', 'power-cycle', str(SOCKETS))
    assert done.returncode == 3, done          # ENODEV: no such socket
    assert done.stderr.startswith('error ENODEV:'), done
    done = sdsi.run('ctl', 'fault', '0', 'no-such-fault')
    assert done.returncode == 2, done          # EINVAL: a bad request
    assert done.stderr.startswith('error EINVAL:'), done
