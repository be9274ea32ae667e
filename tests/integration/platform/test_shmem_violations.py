# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-shmem reports the driver stores that break the mailbox protocol
(docs/protocol-rules.md): status counts them per socket, violations lists
the kept ones, and at exit it prints them with their total, the line the
kernel rig reads.  The "driver" here is this test storing into a plain file
window, as a guest's driver stores into its RAM."""
import json
import signal
import subprocess
import time

import pytest

from sdsikit.daemon import wait_until
from sdsikit.programs import shmem_path
from sdsikit.sockets import request
from sdsikit.targets.kernel import ControlPage
from sdsikit.window import store

SOCKETS = 2
CPL = 1 << 6
V1_CONTROL = 8          # GUID V1: the mailbox starts 8 bytes in


@pytest.fixture
def shmem(tmp_path):
    window, path = tmp_path / 'window', tmp_path / 'ctl.sock'
    proc = subprocess.Popen([shmem_path(), '--window', str(window),
                             '--sockets', str(SOCKETS), '--guid', 'v1',
                             '--ctl', str(path)],
                            stderr=subprocess.PIPE, text=True)
    wait_until(proc, path.exists, 'sdsi-shmem made no socket')
    ControlPage(str(window), SOCKETS).wait_ready(20)
    yield proc, path, window
    if proc.poll() is None:
        proc.kill()
        proc.communicate(timeout=20)


def count(path, n):
    return json.loads(request(path, f'status {n}'))['protocol_violations']


def wait_count(path, n, want):
    deadline = time.monotonic() + 20
    while count(path, n) != want:
        assert time.monotonic() < deadline, f'socket {n}: never {want}'
        time.sleep(0.01)


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    return err


def test_untouched_sockets_count_nothing(shmem):
    proc, path, _ = shmem
    assert count(path, 0) == 0
    assert json.loads(request(path, 'violations 1')) == {
        'socket': 1, 'protocol_violations': 0, 'kept': []}
    assert 'sdsi-shmem: protocol-violations=0\n' in stop(proc)


def test_stores_that_break_the_protocol(shmem):
    proc, path, window = shmem
    # A CPL to a mailbox nobody owns, then payload before ownership.
    store(window, 1, 0, CPL)
    wait_count(path, 1, 1)
    store(window, 1, V1_CONTROL + 8, 0x1234)
    wait_count(path, 1, 2)
    assert count(path, 0) == 0
    kept = json.loads(request(path, 'violations 1'))['kept']
    assert [(v['seq'], v['rule'], v['access'], v['register'], v['value'])
            for v in kept] == [
        (1, 'cpl-unowned', 'write', 'control', f'0x{CPL:016x}'),
        (2, 'mbox-write-unowned', 'write', 'mailbox+0x8',
         '0x0000000000001234')]
    err = stop(proc)
    assert 'sdsi-shmem: socket 1: 2 protocol violations, the last 2:\n' in err
    assert ('sdsi-shmem: socket 1: #1 write 0x0 value 0x0000000000000040: '
            'cpl-unowned (') in err
    assert 'sdsi-shmem: protocol-violations=2\n' in err
    assert 'socket 0:' not in err
