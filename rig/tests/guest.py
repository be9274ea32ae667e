# SPDX-License-Identifier: GPL-2.0-only
"""What the guest's end-to-end tests share: where the kernel's files are,
the configuration guest-run.sh exports, intel_sdsi as an operator runs it.
The layouts come from the test kit (tests/sdsikit, on the import path
by the root pytest.ini)."""
import errno
import glob
import json
import os
import subprocess

from sdsikit.layout import FEATURE_METERING, FEATURE_ON_DEMAND, REG_FEATURES

ROOT = '/sys/bus/auxiliary/devices'
DRIVER = '/sys/bus/auxiliary/drivers/intel_sdsi'
SOCKETS = int(os.environ.get('SDSI_SOCKETS', '1'))
ABI = os.environ.get('SDSI_ABI', 'current')
# Every AKC the tests issue has this key revision: the silicon refuses one
# lower than it holds, and intel_sdsi will not send it.
KEY_REV = 3
# What the driver's attestation transport must be (rig/rig.sh): ok, ours,
# which has one; none, the upstream drivers, which have none; any, a
# user's driver, held to what its nodes show.
ATTEST_EXPECT = os.environ.get('SDSI_ATTEST_EXPECT', 'any')


def driver_sees_feature(n, bit):
    """What the driver sampled at probe: a bit of ENABLED_FEATURES, the
    qword at 0x10 of the registers file it exposes (read with the layout
    the driver assumes, so an early driver on a V2 part sees On Demand
    clear)."""
    with open(os.path.join(ROOT, f'intel_vsec.sdsi.{n}', 'registers'),
              'rb') as f:
        regs = f.read()
    return bool(int.from_bytes(regs[REG_FEATURES:REG_FEATURES + 8], 'little')
                & bit)


def isdsi_nodes():
    return sorted(glob.glob('/dev/isdsi*'))


def transport_shown():
    """Whether the driver under test has the attestation transport."""
    if ATTEST_EXPECT == 'any':
        return bool(isdsi_nodes())
    return ATTEST_EXPECT == 'ok'


def driver_sees_on_demand(n):
    return driver_sees_feature(n, FEATURE_ON_DEMAND)


def driver_sees_metering(n):
    return driver_sees_feature(n, FEATURE_METERING)


class Tool:
    """intel_sdsi as an operator runs it ($SDSI_TOOL)."""

    def __init__(self):
        self.path = os.environ.get('SDSI_TOOL', 'intel_sdsi')

    def __call__(self, *args):
        return subprocess.run([self.path, *map(str, args)],
                              capture_output=True, text=True, timeout=120)

    def json(self, *args, expect=0):
        done = self(*args, '--json')
        if done.returncode != expect:
            # The errno name first: rig/rig.sh reads the first line of a
            # failure to tell a host stall (ETIMEDOUT) from anything else.
            try:
                name = json.loads(done.stdout)['error']['name']
            except (ValueError, KeyError, TypeError):
                name = 'no JSON error'
            raise AssertionError(
                f'intel_sdsi {" ".join(map(str, args))}: exit '
                f'{done.returncode} ({name}), wanted {expect}\n{done.stderr}')
        return json.loads(done.stdout)


class Kmsg:
    """The kernel log from now on, through /dev/kmsg: one record a read,
    'PRIORITY,SEQ,USEC,FLAGS;TEXT' then continuation lines."""

    def __init__(self):
        self.fd = os.open('/dev/kmsg', os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(self.fd, 0, os.SEEK_END)

    def records(self):
        """(level, text) of each record logged since the last call."""
        out = []
        while True:
            try:
                record = os.read(self.fd, 8192).decode(errors='replace')
            except BlockingIOError:
                return out
            except OSError as e:
                if e.errno == errno.EPIPE:    # overwritten: read on
                    continue
                raise
            head, _, text = record.partition(';')
            out.append((int(head.split(',')[0]) & 7,
                        text.split('\n', 1)[0]))

    def close(self):
        os.close(self.fd)
