# SPDX-License-Identifier: GPL-2.0-only
"""The provisioning side of the SIGKILL campaign, run inside
`sdsi-emu run`: crash_inside.py EMU PLAN.json.

Prints one JSON object per line, flushed before the next step, so that the
campaign knows, when it kills the emulator, what had been confirmed and what
was in flight:
  {"event": "start", "cert", "regs", "meter"}   what the restart loaded (hex)
  {"event": "begin", "index": K}               about to write blob K
  {"event": "done", "index": K, "cert"}        the write returned its count
  {"event": "error", "index": K, "errno"}      the write failed
  {"event": "cycle", "mmrc"} / {"event": "cycled"}
                                               a power cycle asked (MMRC just
                                               before it) / done
  {"event": "end"}                             the plan is through
After "start" it reads START, a line on stdin (the campaign decides it from
what the restart loaded), then provisions the blobs in plan order from
START on socket 0; when the power cycle has no update left, a power cycle
(ctl) gives it new ones."""
import errno
import json
import os
import subprocess
import sys

DEVICE = '/sys/bus/auxiliary/devices/intel_vsec.sdsi.0'
UPDATES_SHIFT = 48


def say(event, **fields):
    print(json.dumps(dict(event=event, **fields)), flush=True)


def read(name):
    fd = os.open(os.path.join(DEVICE, name), os.O_RDONLY)
    try:
        return os.read(fd, 4096)
    finally:
        os.close(fd)


def write(name, data):
    fd = os.open(os.path.join(DEVICE, name), os.O_WRONLY)
    try:
        count = os.write(fd, data)
    finally:
        os.close(fd)
    if count != len(data):
        raise OSError(errno.EIO, f'{name}: short write, {count} of {len(data)}')


def meter_mmrc():
    return int.from_bytes(read('meter_current')[0x24:0x28], 'little')


def updates_available():
    regs = read('registers')
    return (int.from_bytes(regs[0x28:0x30], 'little') >> UPDATES_SHIFT) & 7


def main():
    emu, plan_path = sys.argv[1], sys.argv[2]
    with open(plan_path) as f:
        plan = json.load(f)
    say('start', cert=read('state_certificate').hex(), regs=read('registers').hex(),
        meter=read('meter_current').hex())
    start = int(sys.stdin.readline())
    for index in range(start, len(plan)):
        if updates_available() == 0:
            say('cycle', mmrc=meter_mmrc())
            subprocess.run([emu, 'ctl', 'power-cycle', '0'], check=True,
                           stdout=subprocess.DEVNULL, timeout=60)
            say('cycled')
        step = plan[index]
        with open(step['path'], 'rb') as f:
            blob = f.read()
        say('begin', index=index)
        try:
            write('provision_akc' if step['kind'] == 'akc' else 'provision_cap', blob)
        except OSError as e:
            say('error', index=index, errno=errno.errorcode.get(e.errno, str(e.errno)),
                regs=read('registers').hex())
            return 1
        say('done', index=index, cert=read('state_certificate').hex())
    say('end')
    return 0


if __name__ == '__main__':
    sys.exit(main())
