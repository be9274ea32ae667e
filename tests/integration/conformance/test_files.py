# SPDX-License-Identifier: GPL-2.0-only
"""Which files each socket shows, with which mode, owner and size
(docs/interface.md §9.1 and 9.2), and what opening them in the wrong direction does."""
import errno
import os
import stat

import pytest

from sdsikit.layout import GUID_V1, GUID_V2, decode_state_certificate
from sdsikit.sysfs import (ATTRIBUTES, MAILBOX_READS, MODES, PROVISION_FILES,
                        ST_SIZES, errno_of, errname)


def test_devices_present(ctx):
    names = ctx.device_names()
    assert names, f'no intel_vsec.sdsi.N under {ctx.root}'
    numbers = [int(n.rsplit('.', 1)[1]) for n in names]
    assert numbers == list(range(len(numbers))), \
        'instance numbers must run 0..sockets-1'
    if ctx.sockets is not None:
        assert len(names) == ctx.sockets


def test_driver_bound(ctx, dev):
    link = os.path.join(dev.path, 'driver')
    assert os.path.islink(link)
    assert os.path.realpath(link) == os.path.realpath(ctx.driver_dir)
    # and the driver's directory links back to the device
    back = os.path.join(ctx.driver_dir, dev.name)
    assert os.path.islink(back)
    assert os.path.realpath(back) == os.path.realpath(dev.path)


def test_driver_own_files(ctx):
    """Every driver's directory has bind, unbind and uevent, write-only,
    and a link to its module's directory (docs/interface.md §9.3)."""
    for name in ('bind', 'unbind', 'uevent'):
        st = os.stat(os.path.join(ctx.driver_dir, name))
        assert stat.S_ISREG(st.st_mode)
        assert stat.S_IMODE(st.st_mode) == 0o200
        assert errno_of(os.open, os.path.join(ctx.driver_dir, name),
                        os.O_RDONLY) == errno.EACCES
    module = os.path.join(ctx.driver_dir, 'module')
    assert os.path.islink(module)
    assert os.readlink(module).endswith('/module/intel_sdsi')


def test_driver_uevent_write(ctx):
    """A write to uevent asks for a synthetic uevent: a known action is
    taken whole, anything else is EINVAL."""
    path = os.path.join(ctx.driver_dir, 'uevent')
    fd = os.open(path, os.O_WRONLY)
    try:
        assert os.write(fd, b'change\n') == 7
        assert errno_of(os.write, fd, b'bogus\n') == errno.EINVAL
        assert errno_of(os.write, fd, b'change\n\n') == errno.EINVAL
    finally:
        os.close(fd)


@pytest.mark.parametrize('attr', ATTRIBUTES)
def test_attribute_stat(dev, attr):
    if attr not in dev.expected_files():
        assert not dev.exists(attr), \
            f'{attr} must be absent (abi {dev.ctx.abi}, features ' \
            f'{dev.features:#x})'
        return
    st = os.lstat(dev.file(attr))
    assert stat.S_ISREG(st.st_mode)
    assert stat.S_IMODE(st.st_mode) == MODES[attr], oct(st.st_mode)
    assert (st.st_uid, st.st_gid) == (0, 0)
    expected = dev.regs_st_size if attr == 'registers' else ST_SIZES[attr]
    assert st.st_size == expected


def test_guid_text(ctx, dev):
    text = dev.read_text('guid')
    assert text == f'{dev.guid:#x}\n'
    assert text.startswith('0x') and text[2:-1] == text[2:-1].lower()
    if ctx.abi == 'current':
        assert dev.guid in (GUID_V1, GUID_V2)


def test_guid_whole_in_one_read(dev):
    data = dev.read('guid')
    assert data == f'{dev.guid:#x}\n'.encode()


def test_mailbox_files_answer(ctx, fresh):
    """What the mailbox files do as configured: work when the driver saw
    On Demand at probe; otherwise EPERM (early) or absent (current)."""
    dev = fresh
    if dev.on_demand:
        decode_state_certificate(dev.read('state_certificate'))
        assert errno_of(dev.write, 'provision_cap', bytes(64)) == errno.EIO
    elif ctx.abi == 'early':
        assert errno_of(dev.read, 'state_certificate') == errno.EPERM
        for attr in PROVISION_FILES:
            assert errno_of(dev.write, attr, bytes(64)) == errno.EPERM
    else:
        for attr in MAILBOX_READS + PROVISION_FILES:
            assert errno_of(os.open, dev.file(attr), os.O_RDONLY) == \
                errno.ENOENT


@pytest.mark.parametrize('attr', ATTRIBUTES)
def test_open_against_mode(dev, attr):
    """kernfs refuses a direction the mode does not grant, even to root."""
    if attr not in dev.expected_files():
        assert errno_of(os.open, dev.file(attr), os.O_RDONLY) == errno.ENOENT
        return
    if MODES[attr] & 0o200 and not MODES[attr] & 0o444:
        refused = (os.O_RDONLY, os.O_RDWR)
    else:
        refused = (os.O_WRONLY, os.O_RDWR)
    for flags in refused:
        got = errno_of(lambda: os.close(os.open(dev.file(attr), flags)))
        assert got == errno.EACCES, f'open({attr}, {flags}): {errname(got)}'
