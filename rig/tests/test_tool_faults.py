# SPDX-License-Identifier: GPL-2.0-only
"""Faults injected into the model behind the real driver, as an operator
meets them through intel_sdsi: the kernel's errno, named in the JSON error,
and the documented exit status (docs/intel_sdsi.md)."""
import errno
import os

import pytest

from guest import ABI, DRIVER, KEY_REV, ROOT
from sdsikit.licplatform import Authority, Programs

# fault kind -> (errno the kernel gives a state certificate read, exit)
READ_FAULTS = {
    'oob-owner': ('EBUSY', 7),
    'no-rdy': ('ETIMEDOUT', 7),
    'status-timeout': ('ETIMEDOUT', 7),
    'status-failure': ('EIO', 7),
    'bad-packet-size': ('EPROTO', 7),
}

pytestmark = pytest.mark.mailbox


@pytest.mark.parametrize('kind', READ_FAULTS)
def test_read_fault(fresh, tool, kind):
    name, code = READ_FAULTS[kind]
    fresh.fault(0, kind)
    failed = tool.json('-d', 0, '-s', expect=code)
    assert failed['error']['name'] == name
    assert failed['error']['errno'] == getattr(errno, name)
    # Socket 1 is another mailbox: untouched by socket 0's fault.
    tool.json('-d', 1, '-s')
    fresh.clear(0)
    tool.json('-d', 0, '-s')


def test_inband_lock(fresh, tool, authority, tmp_path):
    # An AKC the silicon refuses (a root it does not trust), forced past
    # intel_sdsi's checks, shows where the lock is enforced without
    # changing what the socket holds.
    foreign = Authority(Programs(), tmp_path / 'stranger').akc(key_rev=KEY_REV)
    fresh.set_iblock(0, True)
    if ABI == 'current':
        # The current driver reads the lock and refuses before the mailbox.
        failed = tool.json('-d', 0, '-a', foreign.path, '--force', expect=4)
        assert failed['error']['name'] == 'EPERM'
    else:
        # The early driver does not look: the blob reaches the silicon,
        # which refuses it under the lock (docs/model.md).
        failed = tool.json('-d', 0, '-a', foreign.path, '--force', expect=6)
        assert failed['error']['name'] == 'EIO'
    # Either way the blob was not evaluated: no failure counted.
    assert tool.json('-d', 0, '-i')['akc_failures']['count'] == 0
    # Reads stay allowed under the lock.
    tool.json('-d', 0, '-s')


def test_unbound_device(fresh, tool):
    name = 'intel_vsec.sdsi.0'
    with open(os.path.join(DRIVER, 'unbind'), 'w') as f:
        f.write(name)
    try:
        failed = tool.json('-d', 0, '-s', expect=3)
        # The device directory stays and its files go; intel_sdsi names it.
        assert failed['error']['name'] == 'ENODEV', failed
        assert 'no driver is bound' in failed['error']['message']
        listed = tool.json('-l')
        assert name in [d['device'] for d in listed['devices']], \
            'the unbound device is still a device'
    finally:
        with open(os.path.join(DRIVER, 'bind'), 'w') as f:
            f.write(name)
    assert os.path.exists(os.path.join(ROOT, name, 'state_certificate'))
    tool.json('-d', 0, '-s')
