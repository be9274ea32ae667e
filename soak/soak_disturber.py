# SPDX-License-Identifier: GPL-2.0-only
"""The disturbances of `make soak`, one at a time on a random socket while
the readers run: provisioning real AKCs and CAPs, power cycles, unbind and
bind, mailbox faults, jumps of model time (docs/soak.md).  Each provisioning
has a predicted outcome (success with the state certificate docs/formats.md
gives, or the refusal the docs name) and the socket is read back after it;
anything else is a failure.  Every disturbance that may fail reads is a
Window, and the epoch counter the readers see moves at its start and end."""
import errno
import mmap
import os
import struct
import subprocess
import time

import sdsi_state as st
from soak_judge import WRITE_FAULT_ERRNO, Window

DEVICES = '/sys/bus/auxiliary/devices'
UPDATES = 4                  # per power cycle, sdsi-emu's default
# Delays (us) well under the driver's timeouts, so that they fail nothing.
# owner-delay is armed for one transaction, so that one delay is seen and
# the next readers run at full speed (armed until cleared, every
# transaction would wait once: docs/model.md, "Leaky bucket").
# no-rdy holds the socket for the driver's 500 ms RDY timeout: one
# transaction is enough to see it.
FAULT_ARGS = {'rdy-latency': ['--param', 2000], 'owner-delay': ['--param', 300, '--count', 1],
              'no-rdy': ['--count', 1]}
FAULTS = ('oob-owner', 'no-rdy', 'status-timeout', 'status-failure', 'bad-packet-size',
          'no-eom', 'too-many-packets', 'rdy-latency', 'owner-delay')
# action: weight
ACTIONS = {'provision': 6, 'power-cycle': 2, 'unbind': 2, 'fault': 3, 'advance': 1}


class Failure(Exception):
    pass


class Epoch:
    """A u64 in a shared file, bumped at each start and end of a window."""

    def __init__(self, path):
        with open(path, 'w+b') as f:
            f.write(bytes(8))
            f.flush()
            self.map = mmap.mmap(f.fileno(), 8)
        self.value = 0

    def bump(self):
        self.value += 1
        struct.pack_into('<Q', self.map, 0, self.value)


class Socket:
    def __init__(self, n, plan):
        self.n, self.plan, self.next = n, plan, 0
        self.dir = os.path.join(DEVICES, f'intel_vsec.sdsi.{n}')
        self.updates, self.fault, self.bound = UPDATES, None, True
        self.cert = self.read('state_certificate')
        st.StateCert(self.cert)

    def read(self, attr):
        fd = os.open(os.path.join(self.dir, attr), os.O_RDONLY)
        try:
            return os.read(fd, 4096)
        finally:
            os.close(fd)


class Disturber:
    def __init__(self, emu, plans, epoch, rng):
        self.emu, self.epoch, self.rng = emu, epoch, rng
        self.sockets = [Socket(n, plan) for n, plan in enumerate(plans)]
        self.windows = []
        self.counts = dict(akc=0, cap=0, refused=0, power_cycles=0, unbinds=0, faults=0,
                           advances=0, provisions_in_windows=0, full=0)

    def ctl(self, *args):
        done = subprocess.run([self.emu, 'ctl', *map(str, args)], capture_output=True,
                              text=True, timeout=60)
        if done.returncode != 0:
            raise Failure(f'ctl {" ".join(map(str, args))}: {done.stderr.strip()}')

    def open_window(self, kind, sock):
        w = Window(kind, sock.n, time.monotonic_ns())
        self.epoch.bump()
        self.windows.append(w)
        return w

    def close_window(self, w):
        self.epoch.bump()
        w.end = time.monotonic_ns()

    def expected(self, sock, kind, blob):
        """(errno name or None, certificate after, why refused)."""
        if not sock.bound:
            return 'ENOENT', sock.cert, 'unbound'
        if sock.fault in WRITE_FAULT_ERRNO:
            return WRITE_FAULT_ERRNO[sock.fault], sock.cert, sock.fault
        if sock.updates == 0:
            return 'EIO', sock.cert, 'no update left'
        after = st.after_akc(sock.cert, blob) if kind == 'akc' else st.after_cap(sock.cert, blob)
        return ('EIO', sock.cert, 'no space') if after is None else (None, after, None)

    def provision(self, sock):
        if sock.next < len(sock.plan):
            step = sock.plan[sock.next]
        else:       # the plan is through: its last AKC again (equal revision)
            step = [s for s in sock.plan if s['kind'] == 'akc'][-1]
        with open(step['path'], 'rb') as f:
            blob = f.read()
        want, after, why = self.expected(sock, step['kind'], blob)
        got = None
        try:
            fd = os.open(os.path.join(sock.dir, f'provision_{step["kind"]}'), os.O_WRONLY)
            try:
                if os.write(fd, blob) != len(blob):
                    got = 'short write'
            finally:
                os.close(fd)
        except OSError as e:
            got = errno.errorcode.get(e.errno, str(e.errno))
        if got != want:
            raise Failure(f'socket {sock.n}: {step["kind"]} {sock.next} got {got or "success"}, '
                          f'expected {want or "success"} ({why or "accepted"}; updates '
                          f'{sock.updates}, fault {sock.fault}, bound {sock.bound})')
        if want is None:
            sock.cert, sock.updates = after, sock.updates - 1
            sock.next += 1
            self.counts[step['kind']] += 1
        else:
            self.counts['refused'] += 1
            if why == 'no space':
                sock.next = len(sock.plan)
                self.counts['full'] += 1

    def verify(self, sock):
        """The socket as predicted: read while bound and no fault is armed."""
        cert = sock.read('state_certificate')
        regs = st.Registers(sock.read('registers'))
        if cert != sock.cert:
            raise Failure(f'socket {sock.n}: state certificate {st.StateCert(cert).describe()}'
                          f', expected {st.StateCert(sock.cert).describe()}')
        if (regs.updates, regs.akc_failures, regs.cap_failures) != (sock.updates, 0, 0):
            raise Failure(f'socket {sock.n}: registers {vars(regs)}, expected '
                          f'{sock.updates} updates and no failure')

    def window_action(self, sock, kind, arm, disarm):
        w = self.open_window(kind, sock)
        arm()
        time.sleep(self.rng.uniform(0.002, 0.03))
        if kind != 'no-rdy' and self.rng.random() < 0.5:
            self.provision(sock)
            self.counts['provisions_in_windows'] += 1
        disarm()
        self.close_window(w)

    def step(self):
        sock = self.rng.choice(self.sockets)
        action = self.rng.choices(list(ACTIONS), weights=list(ACTIONS.values()))[0]
        if action == 'provision':
            self.provision(sock)
        elif action == 'power-cycle':
            self.ctl('power-cycle', sock.n)
            sock.updates = UPDATES
            self.counts['power_cycles'] += 1
        elif action == 'advance':
            self.ctl('advance', sock.n, 3600)
            self.counts['advances'] += 1
        elif action == 'unbind':
            def unbind():
                self.ctl('unbind', sock.n)
                sock.bound = False

            def bind():
                self.ctl('bind', sock.n)
                sock.bound = True
            self.window_action(sock, 'unbound', unbind, bind)
            self.counts['unbinds'] += 1
        else:
            kind = self.rng.choice(FAULTS)
            param = FAULT_ARGS.get(kind, [])

            def arm():
                self.ctl('fault', sock.n, kind, *param)
                sock.fault = kind

            def disarm():
                self.ctl('clear', sock.n)
                sock.fault = None
            self.window_action(sock, kind, arm, disarm)
            self.counts['faults'] += 1
        self.verify(sock)

    def run(self, deadline):
        while time.monotonic() < deadline:
            self.step()
            time.sleep(self.rng.uniform(0, 0.01))
