# SPDX-License-Identifier: GPL-2.0-only
"""The driver's diagnostics as the kernel log holds them: a mailbox answer
the driver refuses is reported in upstream intel_sdsi's words and at its
level (dev_err, priority 3), whichever driver the configuration loads,
so ours is held to the in-tree one's messages (docs/conformance.md)."""
import errno

import pytest

from guest import Kmsg

KERN_ERR = 3
DEVICE = 'intel_vsec.sdsi.0'

# fault kind -> upstream's message for a fresh socket's state certificate
# (one short packet): its size over 1024 with EOM, a short packet without
# EOM, a message that never ends within four packets.
MESSAGES = {
    'bad-packet-size': 'Packet size too large',
    'no-eom': 'Invalid packet size',
    'too-many-packets': 'Exceeded read attempts',
}

pytestmark = pytest.mark.mailbox


@pytest.fixture
def kmsg():
    log = Kmsg()
    yield log
    log.close()


def state_certificate_errno():
    path = f'/sys/bus/auxiliary/devices/{DEVICE}/state_certificate'
    try:
        with open(path, 'rb') as f:
            f.read()
    except OSError as e:
        return e.errno
    return 0


@pytest.mark.parametrize('kind', MESSAGES)
def test_refused_answer_logged_as_error(fresh, kmsg, kind):
    fresh.fault(0, kind)
    assert state_certificate_errno() == errno.EPROTO
    fresh.clear(0)
    ours = [(level, text.split(' ', 1)[1]) for level, text in kmsg.records()
            if DEVICE in text]
    # "intel_sdsi intel_vsec.sdsi.0: Packet size too large", once; the
    # driver's name before the device is not the message's.
    assert ours == [(KERN_ERR, f'{DEVICE}: {MESSAGES[kind]}')], ours
    # A good read after it logs nothing.
    assert state_certificate_errno() == 0
    assert [r for r in kmsg.records() if DEVICE in r[1]] == []
