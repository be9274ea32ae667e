# SPDX-License-Identifier: GPL-2.0-only
"""The control socket serves its connections side by side: idle or
half-sent connections delay no other client, each is closed by the server
after its idle limit, and past the connection limit the oldest gives way."""
import json
import signal
import subprocess
import time

import pytest

from sdsikit import sockets
from sdsikit.emu import start_mount

SOCKETS = 2
CLIENTS_MAX = 32        # cli/cli_ctl_clients.h (CLI_CTL_CLIENTS_MAX)
# How long the test waits for ctl's answer.  Before connections were served
# side by side, each idle one held the socket for its 5 s idle limit, so 20
# of them delayed `ctl status` by at least 100 s: 30 s tells the two apart
# however loaded the host is, and is six times the idle limit.
ANSWER_WITHIN_S = 30
# A silent connection is answered after its 5 s idle limit and closed after
# at most 1 s more of draining: 30 s is room enough on a loaded host.
CLOSED_WITHIN_S = 30


@pytest.fixture
def mounted(sdsi, tmp_path):
    proc, mnt, state = start_mount(sdsi, tmp_path, SOCKETS)
    yield state / 'control.sock'
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        subprocess.run(['umount', '-l', str(mnt)])
        pytest.fail('sdsi-emu mount did not stop on SIGTERM')
    # Clean exit: under the sanitizers, no report either.
    assert proc.returncode == 0, err


def connect(path, send=b''):
    return sockets.connect(path, send, ANSWER_WITHIN_S)


def until_closed(s):
    """Everything the server sends until it closes the connection."""
    return sockets.receive_until_closed(s, CLOSED_WITHIN_S)


def status(sdsi):
    done = sdsi.run('ctl', 'status', timeout=ANSWER_WITHIN_S)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == SOCKETS, done.stdout


def test_idle_connections_delay_nobody(sdsi, mounted):
    # Silent ones, and ones that sent half a request and stopped.
    idle = [connect(mounted, b'' if n % 2 else b'stat') for n in range(20)]
    status(sdsi)
    for _ in range(3):
        status(sdsi)
    # A command that changes the model works alongside them too.
    assert sdsi.run('ctl', 'iblock', '0', 'on').returncode == 0
    for s in idle:
        assert until_closed(s) == \
            b'error ETIMEDOUT: no request line within 5 s\n'


@pytest.mark.parametrize('idle_count', [CLIENTS_MAX - 1, CLIENTS_MAX])
def test_connection_limit(sdsi, mounted, idle_count):
    """CLIENTS_MAX - 1 idle connections and ctl fit; one more and the
    oldest is closed with EBUSY, the others and ctl carry on."""
    idle = [connect(mounted) for _ in range(idle_count)]
    status(sdsi)
    answers = [until_closed(s) for s in idle]
    timed_out = b'error ETIMEDOUT: no request line within 5 s\n'
    if idle_count < CLIENTS_MAX:
        assert answers == [timed_out] * idle_count
    else:
        assert answers[0] == (b'error EBUSY: too many control connections, '
                              b'the oldest is closed\n')
        assert answers[1:] == [timed_out] * (idle_count - 1)


def test_request_length_limit(mounted):
    """1023 bytes with the newline is a request (an unknown command here);
    1023 without it is one byte too long."""
    fits = connect(mounted, b'x' * 1022 + b'\n')
    assert until_closed(fits).startswith(b'error EINVAL: unknown command')
    too_long = connect(mounted, b'x' * 1023)
    assert until_closed(too_long) == \
        b'error EMSGSIZE: request longer than 1023 bytes\n'


def test_slow_sender_still_served(mounted):
    """A request that arrives in pieces is put together."""
    s = connect(mounted, b'sta')
    time.sleep(0.2)
    s.sendall(b'tus\n')
    answer = until_closed(s).decode()
    assert [json.loads(line)['socket'] for line in answer.splitlines()] == \
        list(range(SOCKETS))
