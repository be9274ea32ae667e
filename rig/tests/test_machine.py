# SPDX-License-Identifier: GPL-2.0-only
"""The guest behaves like a real machine: its modules are installed under
/lib/modules/$(uname -r) with depmod, intel_sdsi autoloads by modalias when
an intel_vsec.sdsi device appears, both the driver and the module
providing the devices come out with modprobe -r and back with modprobe (as
a system reloads intel_vsec), and lscpu sees one socket per device."""
import os
import pathlib
import subprocess
import time

from guest import DRIVER, ROOT, SOCKETS, Tool, driver_sees_on_demand

MODULE = pathlib.Path('/sys/module/intel_sdsi')
RELEASE = os.uname().release
# Where the configuration installed the driver under test: the kernel's own
# (kernel/...) or an update, where DKMS puts ours (updates/dkms/...).
DRIVER_DIR = os.environ.get('SDSI_DRIVER_DIR', 'kernel')
# The MODULE_VERSION the loaded driver must declare: the project's for ours
# (DKMS installs it only because it differs from the kernel's, which
# declares none); empty for the kernel's own.
DRIVER_VERSION = os.environ.get('SDSI_DRIVER_VERSION', '')


def devices():
    return sorted(p.name for p in pathlib.Path(ROOT).glob('intel_vsec.sdsi.*'))


def run(*args):
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f'{" ".join(args)}: exit ' \
        f'{done.returncode}\n{done.stderr}'
    return done.stdout


def wait_for(what, cond, seconds=60):
    deadline = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < deadline, f'{what}: not within {seconds} s'
        time.sleep(0.1)


def bound():
    return sorted(p.name for p in pathlib.Path(DRIVER).glob('intel_vsec.sdsi.*'))


def test_driver_installed_where_modprobe_finds_it():
    path = run('modinfo', '-n', 'intel_sdsi').strip()
    top = pathlib.Path('/lib/modules', RELEASE)
    assert pathlib.Path(path).is_relative_to(top / DRIVER_DIR), path
    # depmod indexed the device's alias for it.
    assert run('modprobe', '-R', 'auxiliary:intel_vsec.sdsi').split() == \
        ['intel_sdsi']


def test_loaded_driver_is_the_one_modprobe_finds():
    """The running intel_sdsi declares the version of the module file
    modinfo -n names: with DKMS's update installed, the kernel's own (no
    version) is present but not the one loaded."""
    declared = run('modinfo', '-F', 'version', 'intel_sdsi').strip()
    version = MODULE / 'version'
    loaded = version.read_text().strip() if version.exists() else ''
    assert (loaded, declared) == (DRIVER_VERSION, DRIVER_VERSION)


def test_devices_carry_the_modalias():
    """The auxiliary bus announces it in each device's uevent (it has no
    modalias file); udev, or guest-uevents.py here, hands it to modprobe."""
    assert len(devices()) == SOCKETS
    for name in devices():
        uevent = (pathlib.Path(ROOT, name) / 'uevent').read_text().split()
        assert 'MODALIAS=auxiliary:intel_vsec.sdsi' in uevent


def test_module_lists_its_driver():
    link = MODULE / 'drivers' / 'auxiliary:intel_sdsi'
    assert link.is_symlink()
    assert link.resolve() == pathlib.Path(DRIVER).resolve()


def test_lscpu_counts_a_socket_per_device():
    out = run('lscpu', '-p=SOCKET')
    sockets = {line for line in out.splitlines() if not line.startswith('#')}
    assert len(sockets) == len(devices()) == SOCKETS


def test_reload_like_intel_vsec():
    before = {n: (pathlib.Path(ROOT, n) / 'guid').read_text() for n in devices()}
    run('modprobe', '-r', 'intel_sdsi')
    assert not MODULE.exists()
    assert len(devices()) == SOCKETS
    run('modprobe', '-r', 'sdsi_window')
    assert devices() == []
    assert '\nsdsi_window ' not in pathlib.Path('/proc/modules').read_text()
    # Back as a system loads intel_vsec: the devices' uevents autoload the
    # driver, which binds each of them again.
    run('modprobe', 'sdsi_window')
    wait_for('intel_sdsi autoloaded and bound to every device',
             lambda: len(bound()) == SOCKETS)
    assert MODULE.exists()
    after = {n: (pathlib.Path(ROOT, n) / 'guid').read_text() for n in devices()}
    assert after == before
    tool = Tool()
    for n in range(SOCKETS):
        regs = (pathlib.Path(ROOT, f'intel_vsec.sdsi.{n}') / 'registers')
        assert len(regs.read_bytes()) > 0
        if driver_sees_on_demand(n):
            done = tool('-d', n, '-s')
            assert done.returncode == 0, done.stderr
