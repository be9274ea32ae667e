# SPDX-License-Identifier: GPL-2.0-only
"""The registers file: a seekable raw copy of the block at the PPIN, and
what it says after a cold boot (docs/interface.md §2.3, 2.7)."""
import os

from sdsikit.layout import (AUTH_ERR_CONTENT, FEATURES_KNOWN, GUID_V2,
                         STATE_CONTENT_EMPTY, decode_state_certificate)
from sdsikit.sysfs import Socket


def test_whole_read(dev):
    fd = os.open(dev.file('registers'), os.O_RDONLY)
    try:
        whole = os.read(fd, 4096)
        assert len(whole) == dev.regs_len
        assert os.read(fd, 4096) == b'', 'a second read must hit EOF'
    finally:
        os.close(fd)


def test_tail_from_offset_64(dev):
    """The kernel selftest's check: the tail read from 64 is non-empty and
    equals the whole read's bytes 64 onwards."""
    whole = dev.read('registers')
    fd = os.open(dev.file('registers'), os.O_RDONLY)
    try:
        assert os.lseek(fd, 64, os.SEEK_SET) == 64
        tail = os.read(fd, 4096)
    finally:
        os.close(fd)
    assert tail
    assert tail == whole[64:]
    assert dev.read('registers', offset=64) == whole[64:]


def test_read_past_end_is_eof(dev):
    for offset in (dev.regs_len, dev.regs_st_size, 100, 4096):
        assert dev.read('registers', offset=offset) == b'', offset


def test_small_reads_reassemble(dev):
    whole = dev.read('registers')
    fd = os.open(dev.file('registers'), os.O_RDONLY)
    try:
        parts = []
        while chunk := os.read(fd, 8):
            parts.append(chunk)
    finally:
        os.close(fd)
    assert b''.join(parts) == whole


def test_contents_after_cold_boot(ctx, fresh):
    regs = fresh.registers()
    assert regs.ppin != 0
    if fresh.layout_mismatch:
        # The 72 bytes the early driver copies end before the V2 socket ID.
        assert fresh.features == regs.auth_err & FEATURES_KNOWN
    else:
        assert regs.socket_id == fresh.n
        assert fresh.features == fresh.configured_features
    if ctx.abi == 'current' and fresh.guid == GUID_V2:
        assert regs.socket_id_tool == fresh.n, \
            'V2 socket ID must also be at 0x48, where the upstream tool reads'
    assert regs.features & FEATURES_KNOWN == fresh.configured_features
    assert regs.auth_err & AUTH_ERR_CONTENT == 0
    assert (regs.akc_count, regs.cap_count) == (0, 0)
    assert regs.akc_threshold == ctx.akc_threshold
    assert regs.cap_threshold == ctx.cap_threshold
    assert regs.updates_threshold == ctx.updates
    assert regs.updates_available == ctx.updates


def test_key_status_agrees_with_state_certificate(mailbox):
    cert = decode_state_certificate(mailbox.read('state_certificate'))
    key_provisioned = bool(mailbox.registers().key_prov & (1 << 1))
    assert key_provisioned == (cert.content_type != STATE_CONTENT_EMPTY)


def test_ppin_stable_and_distinct(ctx):
    ppins = {}
    assert ctx.device_names(), f'no devices under {ctx.root}'
    for name in ctx.device_names():
        sock = Socket(ctx, name)
        first = sock.registers().ppin
        assert sock.registers().ppin == first
        ppins[name] = first
    assert len(set(ppins.values())) == len(ppins), ppins
