# SPDX-License-Identifier: GPL-2.0-only
"""The SIGKILL campaign (docs/soak.md): crash_campaign.py BUILD_DIR
[--iterations N] [--seed S] [--max-delay-ms MS].

Each iteration starts `sdsi-emu run` on the same state directory with
crash_inside.py provisioning real AKCs and CAPs (from sdsi-authority) and
power cycling, kills the emulator with SIGKILL at a random moment, and
checks what the next start loads: the state certificate must be the last
confirmed one, or, if a write was in flight, exactly that one with the blob
applied (all or nothing); the registers must agree with it (key provisioned,
NVRAM_UPDATE_LIMITS from the number of writes, updates and failure counts
reset) and the powered-up time (MMRC) must not fall below what it was
before the last completed power cycle (which saves it).  When a
plan has run through (the certificate is nearly full), a new state directory
starts a new generation.  Exit 0 only if every check of every iteration
held; the summary line gives the figures."""
import argparse
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import sdsi_state as st

HERE = os.path.dirname(os.path.abspath(__file__))
PPIN = 0x5A5A0123456789
ENDURANCE = 16           # so that a plan of 15 writes crosses all three bits
UPDATES = 4              # per power cycle, sdsi-emu's default
# Model time 40000 times real time: a plan's second or so of running is
# about 11 hours of powered-up time, so MMRC counts in the thousands and the
# 8-hour latch (another NVRAM write, docs/model.md) happens under the kills.
TIME_SCALE = 40000
PYTHON = '/usr/bin/python3'
# CAPs of eight features (292-byte licences): 13 fit in the 4096-byte state
# certificate, so a plan is an AKC, nine CAPs, an AKC of a higher revision
# and four CAPs, and a fresh state directory comes often.
FEATURES = [arg for i in range(8) for arg in ('--feature', f'F{i:03d}')]
BLOBS = 20


class Failure(Exception):
    pass


def run(*argv):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise Failure(f'{" ".join(argv)}: exit {done.returncode}: {done.stderr.strip()}')


def make_plan(build, work):
    """An AKC, then CAPs (licence IDs 1..5, revisions rising, so that later
    ones supersede earlier ones) with a higher-revision AKC every tenth
    step, as long as the certificate holds them."""
    authority = os.path.join(build, 'tools/sdsi-authority/sdsi-authority')
    adir = os.path.join(work, 'authority')
    run(authority, 'init', adir)
    plan, cert = [], st.empty_state()
    for k in range(BLOBS):
        path = os.path.join(work, f'blob{k}')
        if k % 10 == 0:
            run(authority, 'akc', adir, '-o', path, '--key-rev', str(1 + k // 10))
            kind = 'akc'
        else:
            run(authority, 'cap', adir, '--ppin', f'{PPIN:x}', '--id', f'{1 + k % 5:x}',
                '--revision', str(1 + k // 5), '--type', 'metered' if k % 2 else 'one-time',
                *FEATURES, '-o', path)
            kind = 'cap'
        with open(path, 'rb') as f:
            blob = f.read()
        nxt = st.after_akc(cert, blob) if kind == 'akc' else st.after_cap(cert, blob)
        if nxt is None:
            break
        plan.append({'kind': kind, 'path': path, 'blob': blob})
        cert = nxt
    return adir, plan


class Campaign:
    def __init__(self, build, work, plan, adir, max_delay):
        self.emu = os.path.join(build, 'emu/sdsi-emu')
        self.work, self.plan, self.adir, self.max_delay = work, plan, adir, max_delay
        self.plan_file = os.path.join(work, 'plan.json')
        with open(self.plan_file, 'w') as f:
            json.dump([{'kind': s['kind'], 'path': s['path']} for s in plan], f)
        self.stats = dict(iterations=0, kills=0, in_flight=0, applied=0, not_applied=0,
                          in_power_cycle=0, confirmed=0, generations=0)
        self.stray_tmp = set()
        self.generation = 0
        self.new_generation()

    def new_generation(self):
        self.generation += 1
        self.state = os.path.join(self.work, f'state{self.generation}')
        self.confirmed, self.index, self.pending = st.empty_state(), 0, None
        self.mmrc_floor = self.cycle_mmrc = 0

    def expected_after(self, step):
        f = st.after_akc if step['kind'] == 'akc' else st.after_cap
        return f(self.confirmed, step['blob'])

    def check_start(self, ev):
        cert = bytes.fromhex(ev['cert'])
        st.StateCert(cert)
        if self.pending is not None:
            applied = self.expected_after(self.plan[self.pending])
            if cert == applied:
                self.stats['applied'] += 1
                self.confirmed, self.index = applied, self.pending + 1
            elif cert == self.confirmed:
                self.stats['not_applied'] += 1
            else:
                raise Failure(f'blob {self.pending} in flight: the restart loaded a state '
                              f'certificate that is neither before nor after it: '
                              f'{st.StateCert(cert).describe()}')
            self.pending = None
        elif cert != self.confirmed:
            raise Failure('the restart loaded a state certificate other than the last '
                          f'confirmed one: {st.StateCert(cert).describe()}')
        c = st.StateCert(cert)
        regs = st.Registers(bytes.fromhex(ev['regs']))
        want = st.nvram_limit_bits(c.revision, ENDURANCE)
        if regs.nvram_limits & 0x7000 != want:
            raise Failure(f'NVRAM_UPDATE_LIMITS 0x{regs.nvram_limits:x} after {c.revision} '
                          f'writes of {ENDURANCE}: expected bits 0x{want:x}')
        if regs.key_provisioned != (c.content_type != st.CONTENT_EMPTY):
            raise Failure(f'KEY_PROVISIONED {regs.key_provisioned} with {c.describe()}')
        if (regs.updates, regs.akc_failures, regs.cap_failures, regs.auth_err) != \
                (UPDATES, 0, 0, 0):
            raise Failure('a restart is a power cycle: updates, failure counts and '
                          f'auth errors not reset ({vars(regs)})')
        # A power cycle saves the meters: what MMRC read before the last one
        # that completed is a floor.  Powered-up time since the last save is
        # lost with the process, as on a real part that loses power.
        mmrc = st.mmrc(bytes.fromhex(ev['meter']))
        if mmrc < self.mmrc_floor:
            raise Failure(f'MMRC {mmrc} at a restart, below the {self.mmrc_floor} it had '
                          'reached before a completed power cycle saved it')

    def follow(self, ev):
        kind = ev['event']
        if kind == 'begin':
            self.pending = ev['index']
        elif kind == 'done':
            applied = self.expected_after(self.plan[ev['index']])
            if bytes.fromhex(ev['cert']) != applied:
                raise Failure(f'blob {ev["index"]} accepted, but the state certificate '
                              'is not the one docs/formats.md section 6 gives')
            self.confirmed, self.index, self.pending = applied, ev['index'] + 1, None
            self.stats['confirmed'] += 1
        elif kind == 'cycle':
            self.cycle_mmrc = ev['mmrc']
        elif kind == 'cycled':
            self.mmrc_floor = max(self.mmrc_floor, self.cycle_mmrc)
        elif kind == 'error':
            raise Failure(f'blob {ev["index"]} refused with {ev["errno"]} '
                          f'(registers then: {vars(st.Registers(bytes.fromhex(ev["regs"])))})')

    def final_check(self):
        """One more start, to judge the last kill: nothing provisioned."""
        self.iteration(None, start=len(self.plan))

    def iteration(self, rng, start=None):
        argv = [self.emu, 'run', '--sockets', '1', '--state', self.state, '--authority',
                self.adir, '--ppin', f'{PPIN:x}', '--nvram-endurance', str(ENDURANCE),
                '--time-scale', str(TIME_SCALE), '--',
                PYTHON, os.path.join(HERE, 'crash_inside.py'), self.emu, self.plan_file]
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        lines = queue.Queue()

        def read_lines():
            for line in proc.stdout:
                lines.put(line)
            lines.put(None)     # end of output: the run is over
        reader = threading.Thread(target=read_lines)
        reader.start()
        try:
            return self.judge(proc, lines, reader, rng, start)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            reader.join()

    def judge(self, proc, lines, reader, rng, start):
        """Check the start, let it provision, kill it, follow what it said."""
        try:
            first = lines.get(timeout=60)
        except queue.Empty:
            first = None
        if first is None or json.loads(first)['event'] != 'start':
            proc.kill()
            proc.wait()
            raise Failure(f'the emulator did not start on {self.state}: {proc.stderr.read()}')
        self.check_start(json.loads(first))
        proc.stdin.write(f'{self.index if start is None else start}\n')
        proc.stdin.close()
        if rng is None:
            proc.wait()
        else:
            time.sleep(rng.uniform(0, self.max_delay))
        killed = proc.poll() is None
        if killed:
            proc.send_signal(signal.SIGKILL)
        status = proc.wait()
        reader.join()
        err = proc.stderr.read()
        events = [json.loads(x) for x in iter(lines.get, None)]
        in_cycle = False
        for ev in events:
            self.follow(ev)
            in_cycle = ev['event'] == 'cycle'
        self.stats['iterations'] += 1
        self.stray_tmp.update(os.path.join(self.state, n) for n in os.listdir(self.state)
                              if '.tmp' in n)
        if killed and status == -signal.SIGKILL:
            self.stats['kills'] += 1
            self.stats['in_flight'] += self.pending is not None
            self.stats['in_power_cycle'] += in_cycle
            return
        if status != 0 or not events or events[-1]['event'] != 'end':
            raise Failure(f'the run ended with status {status} before the plan did: {err}')
        if rng is not None:
            shutil.rmtree(self.state)
            self.stats['generations'] += 1
            self.new_generation()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('build')
    ap.add_argument('--iterations', type=int, default=20)
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--max-delay-ms', type=float, default=100)
    args = ap.parse_args()
    if args.iterations < 1:
        ap.error('--iterations must be at least 1')
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    rng = random.Random(seed)
    build = os.path.abspath(args.build)
    work = tempfile.mkdtemp(prefix='sdsi-crash.')
    started = time.monotonic()
    print(f'crash-campaign: {args.iterations} iterations, seed {seed}', flush=True)
    status = 0
    try:
        adir, plan = make_plan(build, work)
        campaign = Campaign(build, work, plan, adir, args.max_delay_ms / 1000)
        for i in range(args.iterations):
            try:
                campaign.iteration(rng)
            except Failure as e:
                print(f'crash-campaign: FAILED at iteration {i + 1} '
                      f'(generation {campaign.generation}): {e}', flush=True)
                status = 1
                break
        else:
            try:
                campaign.final_check()
            except Failure as e:
                print(f'crash-campaign: FAILED at the final restart: {e}', flush=True)
                status = 1
        s = campaign.stats
        print(f'crash-campaign: {s["iterations"]} starts, {s["kills"]} SIGKILLs '
              f'({s["in_flight"]} with a provisioning write in flight: {s["applied"]} '
              f'found applied, {s["not_applied"]} found not applied; '
              f'{s["in_power_cycle"]} in a power cycle), {s["confirmed"]} writes confirmed, '
              f'{s["generations"]} plans of {len(plan)} blobs completed, '
              f'{len(campaign.stray_tmp)} NVRAM temporary files left by the kills, '
              f'{time.monotonic() - started:.1f} s: {"FAILED" if status else "ok"}')
    except Failure as e:
        print(f'crash-campaign: FAILED: {e}', flush=True)
        status = 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == '__main__':
    sys.exit(main())
