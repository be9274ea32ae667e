# SPDX-License-Identifier: GPL-2.0-only
"""Validation before MMIO: a discovery entry that does not fit is refused
at probe, before the driver maps or reads what it points at, with one
error naming its numbers.  The rig's sdsi_bad_disc module (rig/sdsi_bad_disc.c)
offers intel_vsec.sdsi.16 and on, each wrong in one way (two of them
BARID entries naming BARs of the guest's real PCI devices: an I/O BAR, and
a memory BAR the region overruns); for each, the
probe fails, the device shows none of the driver's files, and its message
is in the kernel log exactly once, per probe.  Ours only (driver=sdsi or
dkms): the upstream drivers lack these checks (docs/conformance.md), so
conftest.py deselects these tests for them.  The entries that fit, the
sockets the model plays (a size exactly the register file's end), are
the rest of the suite."""
import errno
import os
import pathlib
import subprocess
import time

import pytest

from guest import DRIVER, ROOT
from sdsikit.layout import CTRL_SIZE_V1, CTRL_SIZE_V2, MBOX_SIZE, \
    REGS_SIZE_V1, REGS_SIZE_V2

pytestmark = pytest.mark.ours

# The end of the register file, which the discovery size must reach.
END_V1 = CTRL_SIZE_V1 + MBOX_SIZE + REGS_SIZE_V1        # 1104
END_V2 = CTRL_SIZE_V2 + MBOX_SIZE + REGS_SIZE_V2        # 1120
DISC_TABLE_BYTES = 12
PCI_BARS = 6

PCI = '/sys/bus/pci/devices'
IORESOURCE_IO = 0x100
IORESOURCE_MEM = 0x200


# A barid configuration's window, lent to the host bridge's BAR
# (rig/sdsi_window.c): not one of the guest's real BARs.
LENT_BAR = ('0000:00:00.0', int(os.environ['SDSI_BARID'])) \
    if os.environ.get('SDSI_BARID') else None


def pci_bar(kind):
    """The first PCI device (by name) with a BAR of that kind (an I/O or
    memory BAR, as its sysfs resource file says), as (device, BAR, flags,
    length)."""
    for dev in sorted(os.listdir(PCI)):
        with open(os.path.join(PCI, dev, 'resource')) as f:
            lines = f.read().splitlines()[:PCI_BARS]
        for bar, line in enumerate(lines):
            start, end, flags = (int(word, 16) for word in line.split())
            if flags & kind and end and (dev, bar) != LENT_BAR:
                return dev, bar, flags, end - start + 1
    raise AssertionError(f'no PCI device in the guest has a BAR of kind '
                         f'{kind:#x}')


# intel_vsec.sdsi.N of sdsi_bad_disc, in its order.
DEVICES = range(16, 25)


# The refusals of the entries that need no PCI device.
FIXED = {
    16: f'Discovery resource of {DISC_TABLE_BYTES - 1} bytes is smaller '
        f'than the table ({DISC_TABLE_BYTES} bytes)',
    17: f'Discovery size {END_V1 - 4} bytes is smaller than the register '
        f'region ({END_V1} bytes)',
    18: f'Discovery size {END_V2 - 4} bytes is smaller than the register '
        f'region ({END_V2} bytes)',
    19: f'BAR index 6 is out of range ({PCI_BARS} BARs)',
    20: f'BAR index 7 is out of range ({PCI_BARS} BARs)',
    # Upstream's words for these two (docs/conformance.md).
    23: 'Unrecognized access_type 1',
    24: 'Unsupported BAR index 1 for access type 3',
}


@pytest.fixture(scope='module')
def bars():
    """sdsi_bad_disc's options naming the PCI BARs of devices 21 and 22,
    and their refusals, with the numbers of those BARs."""
    io_dev, io_bar, io_flags, _ = pci_bar(IORESOURCE_IO)
    mem_dev, mem_bar, _, mem_len = pci_bar(IORESOURCE_MEM)
    # sdsi_bad_disc's offset: the V2 region ends 8 bytes past the BAR.
    mem_offset = mem_len - END_V2 + 8 if mem_len >= END_V2 else 0
    options = [f'io_dev={io_dev}', f'io_bar={io_bar}',
               f'mem_dev={mem_dev}', f'mem_bar={mem_bar}']
    return options, {
        21: f'BAR {io_bar} is not a memory BAR (flags {io_flags:#x})',
        22: f'Region at offset {mem_offset:#x}, {END_V2} bytes, exceeds '
            f'BAR {mem_bar} ({mem_len} bytes)',
    }


@pytest.fixture(scope='module')
def refusals(bars):
    """Each device's refusal, as dev_err prints it (after the name)."""
    return {**FIXED, **bars[1]}


# What any auxiliary device has, bound or not (the kernels the rig boots).
GENERIC = {'power', 'subsystem', 'uevent', 'modalias', 'driver_override',
           'waiting_for_supplier'}


def name(n):
    return f'intel_vsec.sdsi.{n}'


def kernel_log():
    return subprocess.run(['dmesg'], capture_output=True, text=True,
                          check=True, timeout=60).stdout


def count(log, n, refusal):
    """Lines of the log with device N's refusal, as dev_err prints it."""
    return sum(f'{name(n)}: {refusal}' in line for line in log.splitlines())


@pytest.fixture(scope='module')
def probed(bars, refusals):
    """The kernel log the devices' first probes added: sdsi_bad_disc is
    loaded (intel_sdsi, bound to the sockets, probes each device as it is
    added) and removed again after the tests."""
    before = kernel_log()
    subprocess.run(['modprobe', 'sdsi_bad_disc',
                    f'phys={os.environ["SDSI_PHYS"]}', *bars[0]],
                   check=True, timeout=120)
    try:
        deadline = time.monotonic() + 30
        while True:
            added = kernel_log()[len(before):]
            if all(count(added, n, refusals[n]) for n in DEVICES) or \
                    time.monotonic() > deadline:
                break
            time.sleep(0.2)
        # A second message would come with the first: none must follow.
        time.sleep(1)
        yield kernel_log()[len(before):]
    finally:
        subprocess.run(['modprobe', '-r', 'sdsi_bad_disc'], check=True,
                       timeout=120)


def test_sockets_show_the_drivers_files():
    """The files the next tests look for where the driver bound."""
    assert 'registers' in os.listdir(os.path.join(ROOT, name(0)))


@pytest.mark.parametrize('n', DEVICES)
def test_refusal_logged_once(probed, refusals, n):
    seen = count(probed, n, refusals[n])
    assert seen == 1, f'{name(n)}: "{refusals[n]}" {seen} times in:\n{probed}'


@pytest.mark.parametrize('n', DEVICES)
def test_not_bound_and_no_files(probed, n):
    dev = pathlib.Path(ROOT, name(n))
    assert dev.is_dir(), f'sdsi_bad_disc made no {name(n)}'
    assert not pathlib.Path(DRIVER, name(n)).exists()
    extra = set(os.listdir(dev)) - GENERIC
    assert not extra, f'{name(n)} has {sorted(extra)}'


@pytest.mark.parametrize('n', DEVICES)
def test_bind_refused_with_one_message(probed, refusals, n):
    """Binding by hand probes again: EINVAL, and the message once more."""
    before = kernel_log()
    # One write(2), unbuffered: a buffered file would retry the failed
    # write when it is closed, and so probe twice.
    fd = os.open(os.path.join(DRIVER, 'bind'), os.O_WRONLY)
    try:
        with pytest.raises(OSError) as refused:
            os.write(fd, name(n).encode())
    finally:
        os.close(fd)
    assert refused.value.errno == errno.EINVAL
    time.sleep(0.5)
    added = kernel_log()[len(before):]
    assert count(added, n, refusals[n]) == 1, added
    assert not pathlib.Path(DRIVER, name(n)).exists()
