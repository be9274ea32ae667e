# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the guest's end-to-end tests (rig/guest-run.sh runs them
after the conformance suite): intel_sdsi, the control page of sdsi-shmem
(through the conformance suite's kernel target), and the authority whose
root key sdsi-shmem trusts."""
import os
import pathlib

import pytest

from guest import SOCKETS, Tool, driver_sees_on_demand, transport_shown
from sdsikit.licplatform import Authority, Programs
from sdsikit.targets import kernel


def pytest_configure(config):
    config.addinivalue_line('markers', 'mailbox: needs the driver to see '
                            'On Demand enabled on every socket')
    config.addinivalue_line('markers', 'no_mailbox: only where the driver '
                            'sees On Demand disabled')
    config.addinivalue_line('markers', 'transport: needs the driver\'s '
                            'attestation transport, /dev/isdsiN')
    config.addinivalue_line('markers', 'ours: checks only our driver makes '
                            '(driver=sdsi or dkms), such as validation '
                            'before MMIO')
    config.addinivalue_line('markers', 'barid: only in a barid '
                            'configuration, whose discovery entries are '
                            'BARID')


def pytest_collection_modifyitems(config, items):
    """Tests that do not apply are deselected, not skipped (a skip would
    read as a test CI failed to run): mailbox tests where the driver sees
    On Demand disabled (an early driver on a V2 part), and the reverse;
    the attestation transport's tests where the driver has none (the
    upstream ones); our driver's own checks where another driver runs;
    the BARID checks in a LOCAL configuration."""
    seen = all(driver_sees_on_demand(n) for n in range(SOCKETS))
    shown = transport_shown()
    ours = os.environ.get('SDSI_DRIVER') in ('sdsi', 'dkms', 'dkms-optin')
    barid = bool(os.environ.get('SDSI_BARID'))
    keep, dropped = [], []
    for item in items:
        if item.get_closest_marker('mailbox') and not seen or \
                item.get_closest_marker('no_mailbox') and seen or \
                item.get_closest_marker('transport') and not shown or \
                item.get_closest_marker('ours') and not ours or \
                item.get_closest_marker('barid') and not barid:
            dropped.append(item)
        else:
            keep.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


@pytest.fixture(scope='session')
def tool():
    return Tool()


@pytest.fixture(scope='session')
def target():
    return kernel.Target()


@pytest.fixture(scope='session')
def authority():
    """The authority rig/rig.sh made before starting sdsi-shmem with
    --authority ($SDSI_AUTHORITY)."""
    path = os.environ.get('SDSI_AUTHORITY')
    if not path:
        raise pytest.UsageError('SDSI_AUTHORITY is not set: run in the '
                                'kernel rig (rig/guest-run.sh)')
    return Authority.existing(Programs(), pathlib.Path(path))


@pytest.fixture
def fresh(target):
    """Every socket cold-booted and fault-free before and after a test."""
    for n in range(SOCKETS):
        target.clear(n)
        target.set_iblock(n, False)
        target.power_cycle(n)
    yield target
    for n in range(SOCKETS):
        target.clear(n)
        target.set_iblock(n, False)
        target.power_cycle(n)
