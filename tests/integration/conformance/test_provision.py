# SPDX-License-Identifier: GPL-2.0-only
"""Writes to provision_akc and provision_cap (docs/interface.md §2.8, 4.4, 9.2): the
driver's own checks (ESPIPE, EOVERFLOW, EPERM) never reach the mailbox; a
blob the silicon cannot authenticate is EIO and counts as a failure until
the threshold; a cold power cycle resets the counts."""
import errno
import os

import pytest

from sdsikit.layout import AUTH_ERR_CONTENT, decode_state_certificate
from sdsikit.sysfs import PROVISION_FILES, Socket, errname

COUNTS = {'provision_akc': 'akc_count', 'provision_cap': 'cap_count'}
BLOB = bytes(range(256)) * 3    # 768 bytes no silicon would authenticate


def write_errno(dev, attr, data, offset=None):
    fd = os.open(dev.file(attr), os.O_WRONLY)
    try:
        if offset is not None:
            os.lseek(fd, offset, os.SEEK_SET)
        os.write(fd, data)
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)
    return None


def counts(dev):
    regs = dev.registers()
    return regs.akc_count, regs.cap_count


@pytest.mark.parametrize('attr', PROVISION_FILES)
def test_write_after_seek_is_espipe(mailbox, attr):
    for offset in (1, 8, 1016):
        got = write_errno(mailbox, attr, BLOB[:16], offset=offset)
        assert got == errno.ESPIPE, f'offset {offset}: {errname(got)}'
    fd = os.open(mailbox.file(attr), os.O_WRONLY)
    try:
        with pytest.raises(OSError) as e:
            os.pwrite(fd, BLOB[:16], 8)
        assert e.value.errno == errno.ESPIPE
    finally:
        os.close(fd)
    assert counts(mailbox) == (0, 0), 'a refused write reached the silicon'


@pytest.mark.parametrize('attr', PROVISION_FILES)
def test_oversize_is_eoverflow(mailbox, attr):
    for size in (1017, 1024):
        got = write_errno(mailbox, attr, bytes(size))
        assert got == errno.EOVERFLOW, f'{size} bytes: {errname(got)}'
    assert counts(mailbox) == (0, 0), 'a refused write reached the silicon'


@pytest.mark.parametrize('attr', PROVISION_FILES)
def test_largest_payload_reaches_silicon(mailbox, attr):
    """1016 bytes fit one packet with the command: the driver sends it and
    the silicon, unable to authenticate it, answers 0x90 (EIO)."""
    got = write_errno(mailbox, attr, bytes(1016))
    assert got == errno.EIO, errname(got)
    regs = mailbox.registers()
    assert getattr(regs, COUNTS[attr]) == 1
    assert regs.auth_err & AUTH_ERR_CONTENT


def test_inband_lock(ctx, target, mailbox):
    target.set_iblock(mailbox.n, True)
    for attr in PROVISION_FILES:
        got = write_errno(mailbox, attr, BLOB[:64])
        if ctx.abi == 'current':
            assert got == errno.EPERM, f'{attr}: {errname(got)}'
            got = write_errno(mailbox, attr, bytes(1017))
            assert got == errno.EOVERFLOW, f'{attr} 1017 bytes: {errname(got)}'
        else:
            # The early driver does not look at the lock: the write goes to
            # the silicon, which refuses the blob as it would without it.
            assert got == errno.EIO, f'{attr}: {errname(got)}'
    # Reads stay allowed under the lock.
    assert mailbox.read('state_certificate')
    if ctx.abi == 'current':
        assert counts(mailbox) == (0, 0), 'a locked write reached the silicon'
    target.set_iblock(mailbox.n, False)
    assert write_errno(mailbox, 'provision_akc', BLOB[:64]) == errno.EIO


@pytest.mark.parametrize('attr', PROVISION_FILES)
def test_failure_count_and_threshold(ctx, mailbox, attr):
    threshold = ctx.akc_threshold if attr == 'provision_akc' \
        else ctx.cap_threshold
    other = 'cap_count' if attr == 'provision_akc' else 'akc_count'
    for expected in range(1, threshold + 1):
        got = write_errno(mailbox, attr, BLOB[:expected * 8])
        assert got == errno.EIO, f'attempt {expected}: {errname(got)}'
        regs = mailbox.registers()
        assert getattr(regs, COUNTS[attr]) == expected
        assert regs.auth_err & AUTH_ERR_CONTENT
        assert getattr(regs, other) == 0
    # At the threshold the silicon refuses without counting.
    for _ in range(2):
        got = write_errno(mailbox, attr, BLOB)
        assert got == errno.EIO, f'past threshold: {errname(got)}'
        assert getattr(mailbox.registers(), COUNTS[attr]) == threshold


def test_power_cycle_resets_counts(ctx, target, mailbox):
    ppin = mailbox.registers().ppin
    assert write_errno(mailbox, 'provision_akc', BLOB) == errno.EIO
    assert write_errno(mailbox, 'provision_cap', BLOB) == errno.EIO
    regs = mailbox.registers()
    assert (regs.akc_count, regs.cap_count) == (1, 1)
    target.power_cycle(mailbox.n)
    regs = mailbox.registers()
    assert (regs.akc_count, regs.cap_count) == (0, 0)
    assert regs.auth_err & AUTH_ERR_CONTENT == 0
    assert regs.updates_available == ctx.updates
    assert regs.ppin == ppin, 'the PPIN is NVRAM and survives a power cycle'
    assert mailbox.read('state_certificate')


def test_selftest_style_open(mailbox):
    """The kernel selftest writes through open(path, 'wb'): O_CREAT and
    O_TRUNC on an attribute are accepted and change nothing."""
    with pytest.raises(OSError) as e:
        with open(mailbox.file('provision_akc'), 'wb', 0) as f:
            f.write(BLOB[:64])
    assert e.value.errno == errno.EIO
    assert os.stat(mailbox.file('provision_akc')).st_size == 1024


@pytest.mark.needs_two_mailboxes
def test_sockets_are_independent(ctx, target):
    """A fault, a failure count or a power cycle on one socket leaves the
    others alone."""
    socks = [Socket(ctx, name) for name in ctx.device_names()]
    socks = [s for s in socks if s.on_demand]
    assert len(socks) >= 2, 'needs two sockets whose mailbox the driver uses'
    first, others = socks[0], socks[1:]
    try:
        for s in socks:
            target.power_cycle(s.n)
            assert write_errno(s, 'provision_akc', BLOB) == errno.EIO
        target.fault(first.n, 'oob-owner')
        for s in others:
            decode_state_certificate(s.read('state_certificate'))
        target.clear(first.n)
        target.power_cycle(first.n)
        assert counts(first) == (0, 0)
        for s in others:
            assert counts(s) == (1, 0), s.name
    finally:
        for s in socks:
            target.clear(s.n)
            target.power_cycle(s.n)
