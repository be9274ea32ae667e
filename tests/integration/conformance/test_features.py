# SPDX-License-Identifier: GPL-2.0-only
"""ENABLED_FEATURES as the two driver generations show it (docs/interface.md §2.7,
9.1): the current driver hides what is not enabled, the early one keeps
every file and answers EPERM.  Features are sampled at probe, so each case
changes the BIOS setting and rebinds."""
import errno
import os

import pytest

from sdsikit.layout import FEATURE_BITS, FEATURES_KNOWN
from sdsikit.sysfs import ATTRIBUTES, PROVISION_FILES, errno_of

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
    # What the hardware had, not what the environment claims it has.
    original = fresh.registers().features & FEATURES_KNOWN
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


def test_without_on_demand(ctx, set_features, fresh):
    """The current driver hides every file but guid and registers; the
    early one keeps them and answers EPERM without reaching the mailbox."""
    set_features(FEATURE_BITS['metering'])
    if ctx.abi == 'current':
        assert present(fresh) == {'guid', 'registers'}
        return
    assert present(fresh) == {'guid', 'registers', 'state_certificate',
                              'provision_akc', 'provision_cap'}
    assert errno_of(fresh.read, 'state_certificate') == errno.EPERM
    for attr in PROVISION_FILES:
        assert errno_of(fresh.write, attr, bytes(64)) == errno.EPERM
    regs = fresh.registers()
    assert (regs.akc_count, regs.cap_count) == (0, 0)
