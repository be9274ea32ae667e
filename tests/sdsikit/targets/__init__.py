# SPDX-License-Identifier: GPL-2.0-only
"""Control of the platform under test, one module per SDSI_TARGET.

The conformance tests only read and write the sysfs ABI; what the ABI cannot
do (power cycles, fault injection, BIOS settings) goes through the object
load() returns.  A target module defines Target with these methods, each
taking the auxiliary instance number N of intel_vsec.sdsi.N:

    power_cycle(n)                     cold power cycle of that socket
    fault(n, kind, count=None, param=None)
                                       arm a fault (kinds: FAULT_KINDS);
                                       count=None: until cleared
    clear(n, kind=None)                disarm one fault kind, or all
    fault_state(n, kind)               the fault as the model holds it now:
                                       None when not armed, else a dict with
                                       'remaining' (0: until cleared) and
                                       'param'
    set_iblock(n, locked)              BIOS in-band lock (control bit 32)
    set_features(n, value)             ENABLED_FEATURES; the driver samples
                                       them at probe, so callers rebind after
    advance(n, seconds)                move that socket's model time forward
                                       (meters count it as powered-up time)
    violations(n)                      the socket's count of mailbox protocol
                                       violations (docs/protocol-rules.md)
    violation_report(n)                the daemon's account of the ones it
                                       kept, as text for a failure message

A method the target cannot provide raises NotSupported with the reason.
"""
import importlib
import os

FAULT_KINDS = ('oob-owner', 'no-rdy', 'status-timeout', 'status-failure',
               'bad-packet-size', 'no-eom', 'too-many-packets',
               'rdy-latency', 'owner-delay', 'msg-size')


class NotSupported(Exception):
    """The target cannot do this; the message says why."""


def load():
    name = os.environ.get('SDSI_TARGET', 'fuse')
    try:
        module = importlib.import_module(f'sdsikit.targets.{name}')
    except ModuleNotFoundError as e:
        raise RuntimeError(f'SDSI_TARGET={name}: no module targets/{name}.py '
                           f'({e})') from e
    return module.Target()
