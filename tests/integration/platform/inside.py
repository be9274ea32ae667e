# SPDX-License-Identifier: GPL-2.0-only
"""Runs inside `sdsi-emu run` for the platform tests.  Each argument is a
step; one JSON line per step goes to stdout:
    regs:N          decoded registers of intel_vsec.sdsi.N
    akc:N           errno name of an 8-byte write to provision_akc ('ok')
    ctl:ARG,ARG..   `sdsi-emu ctl ARG ARG..`, its exit status
    ls              the device names
    module          intel_sdsi's module directory: its driver link, where
                    that link and the driver's module link lead, what a
                    new entry there fails with
    env             SDSI_EMU_CTL and SDSI_EMU_STATE"""
import dataclasses
import errno
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), 'conformance'))
from sdsi_layout import decode_registers  # noqa: E402

ROOT = '/sys/bus/auxiliary/devices'


def device(n):
    return os.path.join(ROOT, f'intel_vsec.sdsi.{n}')


def step(text):
    kind, _, arg = text.partition(':')
    if kind == 'regs':
        with open(os.path.join(device(arg), 'registers'), 'rb') as f:
            data = f.read()
        with open(os.path.join(device(arg), 'guid')) as f:
            guid = int(f.read(), 16)
        return dataclasses.asdict(decode_registers(data, guid))
    if kind == 'akc':
        fd = os.open(os.path.join(device(arg), 'provision_akc'), os.O_WRONLY)
        try:
            os.write(fd, bytes(8))
            return 'ok'
        except OSError as e:
            return errno.errorcode[e.errno]
        finally:
            os.close(fd)
    if kind == 'ctl':
        done = subprocess.run([os.environ['SDSI_EMU'], 'ctl',
                               *arg.split(',')], capture_output=True)
        return done.returncode
    if kind == 'module':
        link = '/sys/module/intel_sdsi/drivers/auxiliary:intel_sdsi'
        try:
            os.mkdir('/sys/module/intel_sdsi/new')
            refused = 'ok'
        except OSError as e:
            refused = errno.errorcode[e.errno]
        return {'drivers': sorted(os.listdir(os.path.dirname(link))),
                'link': os.readlink(link),
                'driver_dir': os.path.realpath(link),
                'module': os.path.realpath(os.path.join(link, 'module')),
                'new_entry': refused}
    if kind == 'ls':
        return sorted(os.listdir(ROOT))
    if kind == 'env':
        return {k: os.environ.get(k) for k in ('SDSI_EMU_CTL',
                                               'SDSI_EMU_STATE')}
    raise SystemExit(f'inside.py: unknown step {text!r}')


for arg in sys.argv[1:]:
    print(json.dumps(step(arg)), flush=True)
