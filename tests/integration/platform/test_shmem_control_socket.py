# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-shmem --ctl: the Unix control socket serves its connections side
by side from the poller without waiting for any of them, so idle
connections hold up neither other clients nor the poller."""
import signal
import subprocess
import time

import pytest

from sdsikit import sockets
from sdsikit.daemon import wait_until
from sdsikit.layout import CTRL_IBLOCK as IBLOCK
from sdsikit.programs import shmem_path
from sdsikit.sockets import receive_until_closed as until_closed
from sdsikit.window import control

SOCKETS = 2
CLIENTS_MAX = 16        # shmem/control.h
IDLE_LIMIT = b'error: no complete request line\n'
BUSY = b'error: too many control connections, the oldest is closed\n'
# Idle connections are given up after 5 s; the old server turned each away
# after 100 ms, but only four per call and with a backlog of 8, so that
# connecting a ninth while they waited failed outright.  30 s bounds what a
# loaded host could take for a step the server answers at once.
WITHIN_S = 30


@pytest.fixture
def ctl_socket(tmp_path):
    window, path = tmp_path / 'window', tmp_path / 'ctl.sock'
    proc = subprocess.Popen([shmem_path(), '--window', str(window),
                             '--sockets', str(SOCKETS), '--ctl', str(path)],
                            stderr=subprocess.PIPE, text=True)
    wait_until(proc, path.exists, 'sdsi-shmem made no socket')
    yield path, window
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err


def connect(path, send=b''):
    return sockets.connect(path, send, WITHIN_S)


def request(path, line):
    return sockets.request(path, line, WITHIN_S)


def test_idle_connections_delay_nobody(ctl_socket):
    path, window = ctl_socket
    idle = [connect(path, b'' if n % 2 else b'iblock 0')
            for n in range(CLIENTS_MAX - 1)]
    assert request(path, 'iblock 1 on') == b'ok\n'
    assert control(window, 1) & IBLOCK
    # Nothing that arrives in pieces is lost.
    s = connect(path, b'iblock 1')
    time.sleep(0.1)
    s.sendall(b' off\n')
    assert until_closed(s) == b'ok\n'
    assert not control(window, 1) & IBLOCK
    # Half a request is not a request: socket 0 was never touched.
    assert [until_closed(s) for s in idle] == [IDLE_LIMIT] * len(idle)
    assert not control(window, 0) & IBLOCK


@pytest.mark.parametrize('idle_count', [CLIENTS_MAX - 1, CLIENTS_MAX])
def test_connection_limit(ctl_socket, idle_count):
    """CLIENTS_MAX connections at once fit; one more closes the oldest."""
    path, _ = ctl_socket
    idle = [connect(path) for _ in range(idle_count)]
    assert request(path, 'clear 0') == b'ok\n'
    answers = [until_closed(s) for s in idle]
    if idle_count < CLIENTS_MAX:
        assert answers == [IDLE_LIMIT] * idle_count
    else:
        assert answers == [BUSY] + [IDLE_LIMIT] * (idle_count - 1)


def test_line_length_limit(ctl_socket):
    """255 bytes with the newline is a request; 255 without is refused."""
    path, _ = ctl_socket
    assert request(path, 'clear 0' + ' ' * 247).startswith(b'ok')
    assert until_closed(connect(path, b'x' * 255)) == IDLE_LIMIT
