# SPDX-License-Identifier: GPL-2.0-only
"""ENABLED_FEATURES as the two driver generations show it (reference 2.7,
9.1): the current driver hides what is not enabled, the early one keeps
every file and answers EPERM.  Features are sampled at probe, so each case
changes the BIOS setting and rebinds."""
import errno
import os

import pytest

from sdsi_layout import FEATURE_BITS, FEATURES_KNOWN
from sdsi_sysfs import ATTRIBUTES, PROVISION_FILES, errno_of

ON_DEMAND = FEATURE_BITS['on-demand']
NO_METERING = ON_DEMAND | FEATURE_BITS['attestation']


@pytest.fixture
def set_features(target, fresh):
    """Rebinds the socket with other features; restores them afterwards."""
    def apply(value):
        target.set_features(fresh.n, value)
        fresh.unbind()
        fresh.bind()
        fresh.refresh()
    original = fresh.configured_features
    yield apply
    if not os.path.lexists(os.path.join(fresh.path, 'driver')):
        fresh.bind()
    apply(original)


def present(dev):
    return {a for a in ATTRIBUTES if dev.exists(a)}


@pytest.mark.parametrize('value', (0, NO_METERING, FEATURES_KNOWN),
                         ids=('none', 'no-metering', 'all'))
def test_files_follow_features(set_features, fresh, value):
    set_features(value)
    assert present(fresh) == fresh.expected_files()
    assert fresh.registers().features & FEATURES_KNOWN == value
    if not fresh.layout_mismatch:
        assert fresh.features == value


def test_current_hides_without_on_demand(ctx, set_features, fresh):
    if ctx.abi != 'current':
        pytest.skip('only the current driver hides files (the early '
                    'driver is covered by test_early_eperm_without_on_demand)')
    set_features(FEATURE_BITS['metering'])
    assert present(fresh) == {'guid', 'registers'}


def test_early_eperm_without_on_demand(ctx, set_features, fresh):
    if ctx.abi != 'early':
        pytest.skip('only the early driver keeps the files and answers '
                    'EPERM (the current one is covered by '
                    'test_current_hides_without_on_demand)')
    set_features(0)
    assert present(fresh) == {'guid', 'registers', 'state_certificate',
                              'provision_akc', 'provision_cap'}
    assert errno_of(fresh.read, 'state_certificate') == errno.EPERM
    for attr in PROVISION_FILES:
        assert errno_of(fresh.write, attr, bytes(64)) == errno.EPERM
    regs = fresh.registers()
    assert (regs.akc_count, regs.cap_count) == (0, 0)
