# SPDX-License-Identifier: GPL-2.0-only
"""Validation before MMIO: a discovery entry that does not fit is refused
at probe, before the driver maps or reads what it points at, with one
error naming its numbers.  The rig's sdsi_bad_disc module (rig/sdsi_bad_disc.c)
offers intel_vsec.sdsi.16 and on, each wrong in one way; for each, the
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

# intel_vsec.sdsi.N of sdsi_bad_disc, in its order, and the refusal.
REFUSALS = {
    16: f'Discovery resource of {DISC_TABLE_BYTES - 1} bytes is smaller '
        f'than the table ({DISC_TABLE_BYTES} bytes)',
    17: f'Discovery size {END_V1 - 4} bytes is smaller than the register '
        f'region ({END_V1} bytes)',
    18: f'Discovery size {END_V2 - 4} bytes is smaller than the register '
        f'region ({END_V2} bytes)',
    19: f'BAR index 6 is out of range ({PCI_BARS} BARs)',
    20: f'BAR index 7 is out of range ({PCI_BARS} BARs)',
}
# What any auxiliary device has, bound or not (the kernels the rig boots).
GENERIC = {'power', 'subsystem', 'uevent', 'modalias', 'driver_override',
           'waiting_for_supplier'}


def name(n):
    return f'intel_vsec.sdsi.{n}'


def kernel_log():
    return subprocess.run(['dmesg'], capture_output=True, text=True,
                          check=True, timeout=60).stdout


def count(log, n):
    """Lines of the log with device N's refusal, as dev_err prints it."""
    return sum(f'{name(n)}: {REFUSALS[n]}' in line
               for line in log.splitlines())


@pytest.fixture(scope='module')
def probed():
    """The kernel log the devices' first probes added: sdsi_bad_disc is
    loaded (intel_sdsi, bound to the sockets, probes each device as it is
    added) and removed again after the tests."""
    before = kernel_log()
    subprocess.run(['modprobe', 'sdsi_bad_disc',
                    f'phys={os.environ["SDSI_PHYS"]}'], check=True,
                   timeout=120)
    try:
        deadline = time.monotonic() + 30
        while True:
            added = kernel_log()[len(before):]
            if all(count(added, n) for n in REFUSALS) or \
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


@pytest.mark.parametrize('n', sorted(REFUSALS))
def test_refusal_logged_once(probed, n):
    assert count(probed, n) == 1, \
        f'{name(n)}: "{REFUSALS[n]}" {count(probed, n)} times in:\n{probed}'


@pytest.mark.parametrize('n', sorted(REFUSALS))
def test_not_bound_and_no_files(probed, n):
    dev = pathlib.Path(ROOT, name(n))
    assert dev.is_dir(), f'sdsi_bad_disc made no {name(n)}'
    assert not pathlib.Path(DRIVER, name(n)).exists()
    extra = set(os.listdir(dev)) - GENERIC
    assert not extra, f'{name(n)} has {sorted(extra)}'


@pytest.mark.parametrize('n', sorted(REFUSALS))
def test_bind_refused_with_one_message(probed, n):
    """Binding by hand probes again: EINVAL, and the message once more."""
    before = kernel_log()
    with pytest.raises(OSError) as refused:
        with open(os.path.join(DRIVER, 'bind'), 'w') as f:
            f.write(name(n))
    assert refused.value.errno == errno.EINVAL
    time.sleep(0.5)
    added = kernel_log()[len(before):]
    assert count(added, n) == 1, added
    assert not pathlib.Path(DRIVER, name(n)).exists()
