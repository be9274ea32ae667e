# SPDX-License-Identifier: GPL-2.0-only
"""The Python client of sdsi-shmem's control page (the one the kernel rig's
tests use in the guest) against a real sdsi-shmem on the host, over a
plain file window: requests change what the window shows, errors come
back as errors, and a server that exits is noticed at once."""
import signal
import subprocess
import time

import pytest

from sdsikit.daemon import wait_until
from sdsikit.layout import CTRL_IBLOCK as IBLOCK
from sdsikit.programs import shmem_path
from sdsikit.targets.kernel import ControlPage
from sdsikit.window import control, window_holds

SOCKETS = 2


@pytest.fixture
def served(tmp_path):
    window = tmp_path / 'window'
    proc = subprocess.Popen([shmem_path(), '--window', str(window),
                             '--sockets', str(SOCKETS)],
                            stderr=subprocess.PIPE, text=True)
    wait_until(proc, lambda: window_holds(window, SOCKETS),
               'sdsi-shmem made no window')
    page = ControlPage(str(window), SOCKETS)
    page.wait_ready(20)
    yield proc, page, window
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert 'deadline-stalls=' in err, err


def test_requests_change_the_window(served):
    _, page, window = served
    assert not control(window, 1) & IBLOCK
    assert page.request('iblock 1 on') == 'ok'
    assert control(window, 1) & IBLOCK
    assert not control(window, 0) & IBLOCK
    assert page.request('iblock 1 off') == 'ok'
    assert not control(window, 1) & IBLOCK
    assert page.request('power-cycle 0') == 'ok'


def test_errors_come_back(served):
    _, page, _ = served
    assert page.request('power-cycle 9').startswith('error: ')
    assert 'unknown request' in page.request('reboot 0')
    assert page.request('clear 0') == 'ok'


def test_server_exit_is_noticed(served):
    proc, page, _ = served
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match='control page'):
        page.request('clear 0', timeout=30)
    assert time.monotonic() - start < 5, 'waited out the timeout'
