# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-shmem --barid K: each socket's discovery table says access type
BARID, TBIR K and the region's offset from the window's start (what the
kernel rig's barid configuration maps through a lent BAR); without it,
LOCAL; K outside 0-5 is a usage error.  Against a real sdsi-shmem over a
plain file window."""
import signal
import struct
import subprocess

import pytest

from sdsikit.daemon import wait_until
from sdsikit.layout import DISC_ACCESS_BARID, DISC_ACCESS_LOCAL, \
    DISC_ACCESS_MASK, DISC_BYTES, DISC_TBIR_MASK, WINDOW_MMIO_OFFSET, \
    WINDOW_SLOT_SIZE
from sdsikit.programs import shmem_path
from sdsikit.targets.kernel import ControlPage
from sdsikit.window import window_holds

SOCKETS = 2


def tables(tmp_path, *opts):
    """Each socket's discovery dwords 0 and 2, once sdsi-shmem is up."""
    window = tmp_path / 'window'
    proc = subprocess.Popen([shmem_path(), '--window', str(window),
                             '--sockets', str(SOCKETS), *opts],
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_until(proc, lambda: window_holds(window, SOCKETS),
                   'sdsi-shmem made no window')
        ControlPage(str(window), SOCKETS).wait_ready(20)
        data = window.read_bytes()
        return [struct.unpack_from('<III', data, n * WINDOW_SLOT_SIZE)
                for n in range(SOCKETS)]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=20)


@pytest.mark.parametrize('bar', [0, 5])
def test_barid_tables(tmp_path, bar):
    for n, (access, _, tbir_offset) in enumerate(
            tables(tmp_path, '--barid', str(bar))):
        assert access & DISC_ACCESS_MASK == DISC_ACCESS_BARID
        assert tbir_offset & DISC_TBIR_MASK == bar
        assert tbir_offset & ~DISC_TBIR_MASK == \
            n * WINDOW_SLOT_SIZE + WINDOW_MMIO_OFFSET


def test_local_tables_by_default(tmp_path):
    for access, _, tbir_offset in tables(tmp_path):
        assert access & DISC_ACCESS_MASK == DISC_ACCESS_LOCAL
        assert tbir_offset == WINDOW_MMIO_OFFSET - DISC_BYTES


@pytest.mark.parametrize('bar', ['6', '-1'])
def test_barid_out_of_range_is_refused(tmp_path, bar):
    done = subprocess.run([shmem_path(), '--window', str(tmp_path / 'w'),
                           '--barid', bar], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 2, done
    assert '--barid' in done.stderr, done.stderr
