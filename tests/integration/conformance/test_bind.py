# SPDX-License-Identifier: GPL-2.0-only
"""Unbinding and binding the driver through sysfs (docs/interface.md §9.2): handles
opened before an unbind fail with ENODEV for good, the attribute files go
and come back, and new handles work."""
import errno
import os

import pytest

from sdsikit.layout import decode_registers, decode_state_certificate
from sdsikit.sysfs import ATTRIBUTES, errno_of, errname


@pytest.fixture
def bound_after(fresh):
    """Leaves the socket bound whatever the test did."""
    yield fresh
    if not os.path.lexists(os.path.join(fresh.path, 'driver')):
        fresh.bind()


def write_driver_file(ctx, name, text):
    fd = os.open(os.path.join(ctx.driver_dir, name), os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def test_unbind_bind(ctx, bound_after):
    dev = bound_after
    old = {'registers': [os.open(dev.file('registers'), os.O_RDONLY)]}
    if dev.on_demand:
        old['provision_akc'] = [os.open(dev.file('provision_akc'),
                                        os.O_WRONLY) for _ in range(2)]
        old['state_certificate'] = [os.open(dev.file('state_certificate'),
                                            os.O_RDONLY)]

    def assert_old_handles_dead(when):
        for attr, fds in old.items():
            for fd in fds:
                if attr.startswith('provision'):
                    got = errno_of(os.write, fd, bytes(64))
                else:
                    got = errno_of(os.pread, fd, 4096, 0)
                assert got == errno.ENODEV, \
                    f'{when}: {attr}: {errname(got)}'

    try:
        dev.unbind()
        assert_old_handles_dead('after unbind')
        assert os.path.isdir(dev.path), 'the device stays, unbound'
        assert not os.path.lexists(os.path.join(dev.path, 'driver'))
        assert not os.path.lexists(os.path.join(ctx.driver_dir, dev.name))
        for attr in ATTRIBUTES:
            assert not dev.exists(attr), f'{attr} survived the unbind'
        # Unbinding an unbound device, or binding a name that is no device.
        assert errno_of(write_driver_file, ctx, 'unbind', dev.name) == \
            errno.ENODEV
        assert errno_of(write_driver_file, ctx, 'bind',
                        'intel_vsec.sdsi.99') == errno.ENODEV

        dev.bind()
        assert {a for a in ATTRIBUTES if dev.exists(a)} == \
            dev.expected_files()
        assert os.path.realpath(os.path.join(dev.path, 'driver')) == \
            os.path.realpath(ctx.driver_dir)
        assert os.path.realpath(os.path.join(ctx.driver_dir, dev.name)) == \
            os.path.realpath(dev.path)
        decode_registers(dev.read('registers'), dev.registers_guid)
        if dev.on_demand:
            decode_state_certificate(dev.read('state_certificate'))
            assert errno_of(dev.write, 'provision_akc', bytes(64)) == \
                errno.EIO
        assert_old_handles_dead('after bind')
        # Binding a bound device.
        assert errno_of(write_driver_file, ctx, 'bind', dev.name) == \
            errno.EBUSY
    finally:
        for fds in old.values():
            for fd in fds:
                os.close(fd)


def test_bind_names(ctx, dev):
    """What names bind and unbind take: the device's name, with at most one
    newline after it (as echo writes it); one character more or less, or a
    second newline, names no device.  None of these changes the binding."""
    for text in (dev.name + '0', dev.name[:-1], dev.name + '\n\n',
                 dev.name + ' ', '\n'):
        assert errno_of(write_driver_file, ctx, 'unbind', text) == \
            errno.ENODEV, repr(text)
    assert errno_of(write_driver_file, ctx, 'bind', dev.name + '\n') == \
        errno.EBUSY
    assert os.path.realpath(os.path.join(dev.path, 'driver')) == \
        os.path.realpath(ctx.driver_dir)
