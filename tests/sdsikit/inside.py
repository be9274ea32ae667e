# SPDX-License-Identifier: GPL-2.0-only
"""The one runner the suites start inside `sdsi-emu run` (sdsikit.emu
starts it as `python3 -m sdsikit.inside STEP...`).  Each argument is a
step; one JSON line per step goes to stdout, as soon as the step is done:
    regs:N          decoded registers of intel_vsec.sdsi.N
    akc:N           errno name of an 8-byte write to provision_akc ('ok')
    ctl:ARG,ARG..   `sdsi-emu ctl ARG ARG..`, its exit status
    violations      {socket: protocol_violations}, from `sdsi-emu ctl
                    status` (sdsikit.violations)
    ls              the device names
    module          intel_sdsi's module directory: its driver link, where
                    that link and the driver's module link lead, what a
                    new entry there fails with
    env             SDSI_EMU_CTL and SDSI_EMU_STATE
    exec:JSON       the command line JSON (a list of words) run to its end:
                    {"argv", "rc", "out", "err"}; the test decides what
                    should have failed.  A word "{ppin:N}" is replaced by
                    the PPIN of intel_vsec.sdsi.N as `$SDSI_TOOL -d N -i
                    --json` reports it at that moment (hex, no 0x), so the
                    authority can issue a CAP for a socket whose PPIN the
                    test cannot know in advance."""
import dataclasses
import errno
import json
import os
import re
import subprocess
import sys

from sdsikit.layout import decode_registers
from sdsikit.violations import protocol_violations

ROOT = '/sys/bus/auxiliary/devices'
PPIN_WORD = re.compile(r'\{ppin:(\d+)\}')


def device(n):
    return os.path.join(ROOT, f'intel_vsec.sdsi.{n}')


def ppin(n):
    tool = os.environ['SDSI_TOOL']
    done = subprocess.run([tool, '-d', n, '-i', '--json'],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit(f'inside.py: intel_sdsi -d {n} -i: exit '
                         f'{done.returncode}: {done.stderr}')
    return f'{int(json.loads(done.stdout)["ppin"], 16):x}'


def command(argv):
    argv = [PPIN_WORD.sub(lambda m: ppin(m.group(1)), w) for w in argv]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    return {'argv': argv, 'rc': done.returncode, 'out': done.stdout,
            'err': done.stderr}


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
    if kind == 'violations':
        return protocol_violations(os.environ['SDSI_EMU'])
    if kind == 'ls':
        return sorted(os.listdir(ROOT))
    if kind == 'env':
        return {k: os.environ.get(k) for k in ('SDSI_EMU_CTL',
                                               'SDSI_EMU_STATE')}
    if kind == 'exec':
        return command(json.loads(arg))
    raise SystemExit(f'inside.py: unknown step {text!r}')


if __name__ == '__main__':
    for arg in sys.argv[1:]:
        print(json.dumps(step(arg)), flush=True)
