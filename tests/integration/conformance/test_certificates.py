# SPDX-License-Identifier: GPL-2.0-only
"""Certificate reads (docs/interface.md §3.1, 3.2, 9.2): the whole certificate from
one read() at offset 0, EOF at any other offset, well-formed contents."""
import math
import os
import time

import pytest

from sdsikit.layout import (STATE_CONTENT_EMPTY, STATE_HEADER_SIZE,
                         decode_meter_certificate, decode_state_certificate)
from sdsikit.sysfs import Socket
from sdsikit.targets import NotSupported

# Model time a target that can jump it moves between the two MMRC samples.
ADVANCE_S = 60


def test_state_certificate_one_read(mailbox):
    data = mailbox.read('state_certificate')
    cert = decode_state_certificate(data)
    assert cert.header_size_dwords * 4 == STATE_HEADER_SIZE + \
        4 * cert.num_licenses
    assert cert.total_size == len(data), 'total size counts the bytes read'
    if cert.content_type == STATE_CONTENT_EMPTY:
        assert cert.num_licenses == 0


def test_state_certificate_is_stable(mailbox):
    assert mailbox.read('state_certificate') == \
        mailbox.read('state_certificate')


@pytest.mark.parametrize('attr', ('state_certificate', 'meter_certificate',
                                  'meter_current'))
def test_certificate_at_nonzero_offset_is_eof(mailbox, ctx, attr):
    if attr not in mailbox.expected_files():
        assert not mailbox.exists(attr)
        return
    for offset in (1, 8, 1024):
        assert mailbox.read(attr, offset=offset) == b'', offset
    fd = os.open(mailbox.file(attr), os.O_RDONLY)
    try:
        assert os.read(fd, 4096)
        assert os.read(fd, 4096) == b'', 'second read on one handle'
    finally:
        os.close(fd)


@pytest.mark.parametrize('attr', ('meter_certificate', 'meter_current'))
def test_meter_certificate_decodes(mailbox, attr):
    metering = mailbox
    if attr not in metering.expected_files():
        assert not metering.exists(attr)
        return
    data = metering.read(attr)
    assert data[0:4] == bytes([0x42, 0x44, 0x54, 0x4D])
    assert data[0x20:0x24] == b'CRMM'
    cert = decode_meter_certificate(data)
    assert cert.signature == 'MTDB'
    assert cert.mmrc_encoding == 'MMRC'
    assert cert.ppin == metering.registers().ppin
    assert cert.unit_ms == 1000
    for code, _ in cert.pairs:
        assert len(code) == 4 and code.isprintable(), code


def test_meter_current_advances(ctx, target):
    """MMRC counts power-up time in 1000 ms units.  Model time is moved
    forward by ADVANCE_S seconds where the target can (`ctl advance`), else
    by sleeping 1.1 s (lkvs checks reads one second apart differ).  Between
    the two samples the model's clock moved by at least the jump plus the
    sleep and at most the jump plus the real time the test measured around
    both reads, so the bounds hold however loaded the host is, and a unit
    other than 1000 ms falls outside them."""
    socks = [Socket(ctx, n) for n in ctx.device_names()]
    assert socks, f'no devices under {ctx.root}'
    for sock in socks:
        if 'meter_current' not in sock.expected_files():
            assert not sock.exists('meter_current')
    socks = [s for s in socks if 'meter_current' in s.expected_files()]
    started = time.monotonic()
    before = [decode_meter_certificate(s.read('meter_current')).mmrc_counter
              for s in socks]
    try:
        for sock in socks:
            target.advance(sock.n, ADVANCE_S)
        jumped, slept = ADVANCE_S, 0.0
    except NotSupported:
        jumped, slept = 0, 1.1
        time.sleep(slept)
    after = [decode_meter_certificate(s.read('meter_current')).mmrc_counter
             for s in socks]
    elapsed = time.monotonic() - started
    low = math.floor(jumped + slept)
    high = math.floor(jumped + elapsed) + 1
    for sock, b, a in zip(socks, before, after):
        assert low <= a - b <= high, \
            f'{sock.name}: MMRC {b} -> {a}, expected +{low}..+{high}'


def test_short_read_gives_the_start(mailbox):
    """A read smaller than the certificate gets its first bytes; the rest
    is not offered at a later offset."""
    whole = mailbox.read('state_certificate')
    fd = os.open(mailbox.file('state_certificate'), os.O_RDONLY)
    try:
        assert os.read(fd, 16) == whole[:16]
        assert os.read(fd, 4096) == b''
    finally:
        os.close(fd)
