# SPDX-License-Identifier: GPL-2.0-only
"""The driver's own directory as the emulator serves it (docs/interface.md
§9.3): drivers/intel_sdsi/{bind,unbind,uevent,module} and one link per bound
device, /sys/module/intel_sdsi/drivers/auxiliary:intel_sdsi inside `sdsi-emu
run`, and the limits of what bind, unbind and uevent accept.  What every
target shares (the kernel's too) is in conformance/test_bind.py; here are the
emulator's exact listing and link texts, and the page limit of one write."""
import errno
import json
import os

import pytest

from sdsikit.emu import start_mount
from sdsikit.daemon import stop

SOCKETS = 2
DRIVER_FILES = ['bind', 'module', 'uevent', 'unbind']
PAGE = 4096


@pytest.fixture
def tree(sdsi, tmp_path):
    proc, mnt, state = start_mount(sdsi, tmp_path, SOCKETS)
    yield mnt
    stop(proc, unmount=mnt)


def write(path, data):
    """One write() on a fresh handle: its count, or the errno name."""
    fd = os.open(path, os.O_WRONLY)
    try:
        return os.write(fd, data)
    except OSError as e:
        return errno.errorcode[e.errno]
    finally:
        os.close(fd)


def devices(n=SOCKETS):
    return [f'intel_vsec.sdsi.{i}' for i in range(n)]


def test_listing_and_links(tree):
    drv = tree / 'drivers' / 'intel_sdsi'
    assert sorted(os.listdir(drv)) == sorted(DRIVER_FILES + devices())
    assert os.readlink(drv / 'module') == '../../../../module/intel_sdsi'
    for name in devices():
        assert os.readlink(drv / name) == f'../../devices/{name}'
        assert os.readlink(tree / 'devices' / name / 'driver') == \
            '../../drivers/intel_sdsi'
    for name in ('bind', 'unbind', 'uevent'):
        assert (os.stat(drv / name).st_mode & 0o7777) == 0o200
        with pytest.raises(PermissionError):
            os.open(drv / name, os.O_RDONLY)


def test_links_follow_the_binding(sdsi, tree):
    """The file and `sdsi-emu ctl` unbind and bind through the same code:
    each sees what the other did."""
    drv = tree / 'drivers' / 'intel_sdsi'
    dev1 = tree / 'devices' / 'intel_vsec.sdsi.1'
    assert write(drv / 'unbind', b'intel_vsec.sdsi.1\n') == 18
    assert sorted(os.listdir(drv)) == sorted(DRIVER_FILES + devices(1))
    assert not os.path.lexists(dev1 / 'driver')
    assert not os.path.lexists(drv / 'intel_vsec.sdsi.1')
    done = sdsi.run('ctl', 'unbind', '1')
    assert done.returncode == 3 and 'ENODEV' in done.stderr, done
    assert sdsi.run('ctl', 'bind', '1').returncode == 0
    assert sorted(os.listdir(drv)) == sorted(DRIVER_FILES + devices())
    assert os.path.realpath(dev1 / 'driver') == os.path.realpath(drv)
    assert os.path.realpath(drv / 'intel_vsec.sdsi.1') == \
        os.path.realpath(dev1)
    assert write(drv / 'bind', b'intel_vsec.sdsi.1') == 'EBUSY'


def test_name_ends_at_nul_and_page(tree):
    """kernfs gives the store at most one page of a write, ended by a NUL,
    and the driver core compares the name as a C string."""
    drv = tree / 'drivers' / 'intel_sdsi'
    name = b'intel_vsec.sdsi.1'
    fill = b'\0' + b'x' * (PAGE - len(name) - 1)
    assert write(drv / 'unbind', name + fill) == PAGE           # exact fit
    assert not os.path.lexists(drv / 'intel_vsec.sdsi.1')
    assert write(drv / 'bind', name + fill + b'x') == PAGE      # one over
    assert os.path.lexists(drv / 'intel_vsec.sdsi.1')
    assert write(drv / 'unbind', b'\0' + name) == 'ENODEV'
    # without a NUL the page is the name, and no device has that name
    assert write(drv / 'unbind', name + b'0' * (PAGE - len(name) + 1)) == \
        'ENODEV'
    assert os.path.lexists(drv / 'intel_vsec.sdsi.1')


def test_uevent(tree):
    """Parsed as the kernel parses a synthetic uevent (the grammar's every
    rule: tests/unit/fuse/test_fusedrv_uevent.c)."""
    uevent = tree / 'drivers' / 'intel_sdsi' / 'uevent'
    uuid = b'0123abcd-abcd-4ef0-89ab-0123456789af'
    assert write(uevent, b'change\n') == 7
    assert write(uevent, b'add ' + uuid + b' A=1\n') == 45
    for bad in (b'bogus\n', b'change\n\n', b'change x', b'add ' + uuid[:-1]):
        assert write(uevent, bad) == 'EINVAL', bad
    # nothing it accepts changes the tree
    assert sorted(os.listdir(uevent.parent)) == sorted(DRIVER_FILES + devices())


def test_module_directory_in_run(sdsi):
    done = sdsi.inside(['--sockets', '2'], 'module')
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got == {
        'drivers': ['auxiliary:intel_sdsi'],
        'link': '../../../bus/auxiliary/drivers/intel_sdsi',
        'driver_dir': '/sys/bus/auxiliary/drivers/intel_sdsi',
        'module': '/sys/module/intel_sdsi',
        'new_entry': 'EROFS',
    }
    assert not os.path.lexists('/sys/module/intel_sdsi'), \
        'intel_sdsi showed in the real /sys/module'
