# SPDX-License-Identifier: GPL-2.0-only
"""`sdsi-emu mount --window FILE[:OFFSET] DIR`: our FUSE driver serving the
sockets a real sdsi-shmem plays in a window file (the conformance suite
runs on it as SDSI_TARGET=window); the option's refusals; the offset on
both sides; and the tree gone after SIGTERM."""
import os
import signal
import subprocess
import time

import pytest

from sdsikit.daemon import stop, wait_for_tree
from sdsikit.emu import mounts_under
from sdsikit.layout import GUID_V1, decode_state_certificate
from sdsikit.programs import shmem_path
from sdsikit.targets.kernel import SLOT_SIZE, ControlPage

SOCKETS = 2
PAGE = 4096


@pytest.fixture
def shmem(sdsi, tmp_path):
    """Start sdsi-shmem --doorbell on tmp_path/window; returns a function
    of (sockets, offset, extra options)."""
    procs = []

    def start(sockets=SOCKETS, offset=0, *opts):
        window = tmp_path / 'window'
        proc = subprocess.Popen([shmem_path(), '--doorbell',
                                 '--window', str(window), '--offset',
                                 str(offset), '--sockets', str(sockets),
                                 *opts], stderr=subprocess.PIPE, text=True)
        procs.append(proc)
        return window

    yield start
    for proc in procs:
        stop(proc)


def _mount(sdsi, tmp_path, spec, sockets=SOCKETS):
    mnt = tmp_path / 'mnt'
    mnt.mkdir(exist_ok=True)
    proc = subprocess.Popen([sdsi.path, 'mount', '--window', spec,
                             '--sockets', str(sockets), str(mnt)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=sdsi.env)
    wait_for_tree(proc, mnt / 'devices' / f'intel_vsec.sdsi.{sockets - 1}'
                  / 'registers')
    return proc, mnt


def test_window_served_and_stopped(sdsi, shmem, tmp_path):
    window = shmem(SOCKETS, 0, '--guid', 'v1')
    proc, mnt = _mount(sdsi, tmp_path, str(window))
    try:
        dev = mnt / 'devices' / 'intel_vsec.sdsi.1'
        assert sorted(os.listdir(mnt / 'devices')) == \
            [f'intel_vsec.sdsi.{n}' for n in range(SOCKETS)]
        # The GUID comes from the discovery table sdsi-shmem laid out.
        assert int((dev / 'guid').read_text(), 16) == GUID_V1
        decode_state_certificate((dev / 'state_certificate').read_bytes())
        # Power cycles and faults go to sdsi-shmem, through its page.
        page = ControlPage(str(window), SOCKETS)
        assert page.request('fault 1 status-failure 0 0') == 'ok'
        with pytest.raises(OSError) as e:
            (dev / 'state_certificate').read_bytes()
        assert e.value.errno == 5
        assert page.request('clear 1') == 'ok'
        decode_state_certificate((dev / 'state_certificate').read_bytes())
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
    assert mounts_under(str(mnt)) == []


@pytest.mark.parametrize('spelling', ['8192', '0x2000'])
def test_window_at_an_offset(sdsi, shmem, tmp_path, spelling):
    window = shmem(1, 2 * PAGE)
    proc, mnt = _mount(sdsi, tmp_path, f'{window}:{spelling}', sockets=1)
    try:
        dev = mnt / 'devices' / 'intel_vsec.sdsi.0'
        decode_state_certificate((dev / 'state_certificate').read_bytes())
    finally:
        stop(proc)


def test_window_of_another_socket_count(sdsi, shmem, tmp_path):
    """A server of 1 socket at 8 KiB puts its page where a 2-socket window
    at 0 has its own: refused at once, naming both counts."""
    window = shmem(1, SLOT_SIZE)
    deadline = time.monotonic() + 20
    page_at = SLOT_SIZE + SLOT_SIZE
    while True:
        if window.exists() and window.stat().st_size >= page_at + PAGE and \
                ControlPage(str(window), 2).ready():
            break
        assert time.monotonic() < deadline, 'sdsi-shmem never announced'
        time.sleep(0.02)
    (tmp_path / 'mnt').mkdir()
    done = sdsi.run('mount', '--window', str(window), '--sockets', '2',
                    str(tmp_path / 'mnt'))
    assert done.returncode == 2, done.stderr
    assert 'plays 1 socket' in done.stderr and '2 sockets' in done.stderr


@pytest.mark.parametrize('args,needle', [
    (['--window', 'W:4097'], 'page-aligned'),
    (['--window', 'W:x'], 'page-aligned'),
    (['--window', ':4096'], 'no file name'),
    (['--window', 'W', '--guid', 'v1'], '--guid'),
    (['--window', 'W', '--features', 'none'], '--features'),
    (['--window', ''], 'empty'),
])
def test_window_refusals(sdsi, tmp_path, args, needle):
    done = sdsi.run('mount', *args, str(tmp_path))
    assert done.returncode == 2, done.stderr
    assert needle in done.stderr, done.stderr


def test_window_is_an_option_of_mount(sdsi):
    done = sdsi.run('run', '--window', 'W', '--', 'true')
    assert done.returncode == 2, done.stderr
    assert 'option of mount' in done.stderr
