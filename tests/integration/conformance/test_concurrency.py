# SPDX-License-Identifier: GPL-2.0-only
"""Many threads on every socket at once: the driver serialises each
socket's mailbox, so every read is whole and well-formed and the only
errno is the silicon's EIO for the blobs it refuses."""
import errno
import threading
import time

import pytest

from sdsikit.layout import decode_meter_certificate, decode_state_certificate
from sdsikit.sysfs import Socket, errname

THREADS = 16
SECONDS = 3.0


@pytest.fixture
def sockets(ctx, target):
    socks = [Socket(ctx, name) for name in ctx.device_names()]
    assert socks, f'no devices under {ctx.root}'
    for s in socks:
        target.clear(s.n)
        target.power_cycle(s.n)
        s.refresh()
    yield socks
    for s in socks:
        target.power_cycle(s.n)


def operations(sock, baseline):
    ppin = sock.registers().ppin

    def registers():
        regs = sock.registers()
        assert regs.ppin == ppin

    def state_certificate():
        data = sock.read('state_certificate')
        decode_state_certificate(data)
        assert data == baseline, 'state certificate differs from baseline'

    def meter_current():
        cert = decode_meter_certificate(sock.read('meter_current'))
        assert cert.signature == 'MTDB' and cert.ppin == ppin

    def provision_cap():
        try:
            sock.write('provision_cap', bytes(128))
        except OSError as e:
            if e.errno != errno.EIO:
                raise
            return
        raise AssertionError('the silicon accepted a zero CAP')

    ops = [registers]
    if sock.on_demand:
        ops += [state_certificate, provision_cap]
        if 'meter_current' in sock.expected_files():
            ops.append(meter_current)
    return ops


def test_parallel_access(sockets):
    work = []
    for sock in sockets:
        baseline = sock.read('state_certificate') if sock.on_demand else None
        work += [(sock.name, op) for op in operations(sock, baseline)]
    done = {f'{name}/{op.__name__}': 0 for name, op in work}
    failures = []
    lock = threading.Lock()
    deadline = time.monotonic() + SECONDS

    def worker(k):
        i = k
        while time.monotonic() < deadline:
            name, op = work[i % len(work)]
            i += 1
            key = f'{name}/{op.__name__}'
            try:
                op()
            except OSError as e:
                with lock:
                    failures.append(f'{key}: {errname(e.errno)}')
            except AssertionError as e:
                with lock:
                    failures.append(f'{key}: {e}')
            else:
                with lock:
                    done[key] += 1

    threads = [threading.Thread(target=worker, args=(k,))
               for k in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=SECONDS + 60)
    assert not any(t.is_alive() for t in threads), 'a thread hung'
    assert not failures, failures[:20]
    idle = [key for key, n in done.items() if n == 0]
    assert not idle, f'operations that never completed: {idle}'
