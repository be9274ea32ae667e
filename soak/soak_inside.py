# SPDX-License-Identifier: GPL-2.0-only
"""The soak itself, run by soak.py inside `sdsi-emu run`: soak_inside.py
CONFIG.json.  Starts sdsi-soak-reader on every readable attribute of every
socket, disturbs the platform for the same time (soak_disturber.py),
samples the emulator's (this process's parent's) RSS and open fds, judges
the readers' failures (soak_judge.py) and prints the report.  Exit 0 only if
no read failed unexpectedly, every disturbance went as predicted, and the
emulator shows no leak (docs/soak.md)."""
import collections
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import soak_judge
from soak_disturber import DEVICES, Disturber, Epoch, Failure

RSS_GROWTH_LIMIT_KB = 8 * 1024   # after warm-up; see docs/soak.md
QUIET_S = 1.0                    # after the load, before the last sample


def emulator_sample(pid):
    with open(f'/proc/{pid}/status') as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith('VmRSS:'))
    return rss, len(os.listdir(f'/proc/{pid}/fd'))


class Sampler(threading.Thread):
    def __init__(self, pid, period=0.25):
        super().__init__(daemon=True)
        self.pid, self.period, self.samples = pid, period, []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            self.samples.append((time.monotonic(),) + emulator_sample(self.pid))
            self.stop.wait(self.period)


def sanitized(pid):
    with open(f'/proc/{pid}/maps') as f:
        return any('libasan' in line for line in f)


def readable_files(sockets):
    files = []
    for n in range(sockets):
        d = os.path.join(DEVICES, f'intel_vsec.sdsi.{n}')
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            mode = os.lstat(path).st_mode
            if (mode & 0o170000) == 0o100000 and mode & 0o444:
                files.append((n, name, path))
    return files


def kib(kb):
    return f'{kb / 1024:.1f} MiB'


def main():
    work = tempfile.mkdtemp(prefix='sdsi-soak-run.')
    try:
        return soak(work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def soak(work):
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    pid = os.getppid()
    with open(f'/proc/{pid}/comm') as f:
        if f.read().strip() != 'sdsi-emu':
            print('soak: must run as the command of sdsi-emu run', file=sys.stderr)
            return 2
    files = readable_files(cfg['sockets'])
    names = sorted({name for _, name, _ in files})
    epoch, records_path = Epoch(os.path.join(work, 'epoch')), os.path.join(work, 'records')
    rng = random.Random(cfg['seed'])
    disturber = Disturber(cfg['emu'], cfg['plans'], epoch, rng)
    start_sample = emulator_sample(pid)
    sampler = Sampler(pid)
    sampler.start()
    started = time.monotonic()
    t_origin = time.monotonic_ns()
    reader = subprocess.Popen([cfg['reader'], str(cfg['seconds']), str(cfg['threads']),
                               os.path.join(work, 'epoch'), records_path,
                               *[p for _, _, p in files]], stdout=subprocess.PIPE, text=True)
    problems = []
    try:
        disturber.run(started + cfg['seconds'])
    except Failure as e:
        problems.append(f'disturbance: {e}')
    out, _ = reader.communicate()
    if reader.returncode != 0:
        problems.append(f'sdsi-soak-reader exited {reader.returncode}')
    time.sleep(QUIET_S)
    sampler.stop.set()
    sampler.join()
    end_sample = emulator_sample(pid)
    warm_at = started + max(1.0, cfg['seconds'] / 10)
    warm = next((s for s in sampler.samples if s[0] >= warm_at), sampler.samples[-1])
    peak_rss = max(s[1] for s in sampler.samples)
    peak_fds = max(s[2] for s in sampler.samples)

    summary = json.loads(out) if out else {'files': [], 'seconds': 0}
    per_attr = collections.Counter()
    failed = 0
    for (n, name, _), counts in zip(files, summary['files']):
        per_attr[name] += counts['reads']
        failed += counts['failures']
    records = soak_judge.load_records(records_path) if os.path.exists(records_path) else []
    by_errno, unexpected = soak_judge.judge(records, [(n, name) for n, name, _ in files],
                                            disturber.windows)
    total = sum(per_attr.values())
    c = disturber.counts
    print(f'soak: {summary["seconds"]:.1f} s, {cfg["threads"]} reader threads, '
          f'{cfg["sockets"]} sockets, files per socket: {", ".join(names)}; seed {cfg["seed"]}')
    print(f'soak: {total} reads ({total / max(summary["seconds"], 1e-9):.0f}/s): '
          + ', '.join(f'{name} {per_attr[name]}' for name in names))
    print(f'soak: {failed} failed reads: '
          + (', '.join(f'{err} {n} ({why})' for (err, why), n in sorted(by_errno.items()))
             or 'none')
          + f'; unexpected: {sum(r[6] for r in unexpected)}')
    for rec in unexpected[:10]:
        print(f'soak: unexpected: {soak_judge.describe_unexpected(rec, t_origin)}')
    print(f'soak: alongside: {c["akc"]} AKCs and {c["cap"]} CAPs provisioned, {c["refused"]} '
          f'refused as predicted ({c["full"]} for space; {c["provisions_in_windows"]} '
          f'attempts inside a fault or unbind), {c["power_cycles"]} power cycles, '
          f'{c["unbinds"]} unbind/bind, {c["faults"]} faults, {c["advances"]} model-time jumps')
    print(f'soak: sdsi-emu RSS {kib(start_sample[0])} at start, {kib(warm[1])} after warm-up, '
          f'{kib(peak_rss)} peak, {kib(end_sample[0])} at end; open fds {start_sample[1]} at '
          f'start, {peak_fds} peak, {end_sample[1]} at end')
    if unexpected:
        problems.append(f'{len(unexpected)} records of unexpected read failures')
    if end_sample[1] > start_sample[1]:
        problems.append(f'fd leak: the emulator holds {end_sample[1]} fds at end, '
                        f'{start_sample[1]} at start')
    if sanitized(pid):
        # ASan keeps freed memory in quarantine (up to 256 MiB) and maps
        # shadow memory: RSS says nothing there.  Its LeakSanitizer judges
        # the emulator at exit instead, and fails sdsi-emu's exit status.
        print('soak: sdsi-emu is built with ASan: memory leaks are left to LeakSanitizer')
    elif end_sample[0] - warm[1] > RSS_GROWTH_LIMIT_KB:
        problems.append(f'memory: RSS grew by {kib(end_sample[0] - warm[1])} after warm-up '
                        f'(limit {kib(RSS_GROWTH_LIMIT_KB)})')
    if total == 0:
        problems.append('no read succeeded')
    for p in problems:
        print(f'soak: FAILED: {p}')
    print('soak: ' + ('FAILED' if problems else 'ok'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
