# SPDX-License-Identifier: GPL-2.0-only
"""`sdsi-emu ctl` against a hostile server: whatever listens on the socket
it is given may send an answer without end or terminal escape sequences.
ctl reads at most the protocol's longest answer (CLI_CTL_ANSWER_MAX) and
escapes every byte that is not printable ASCII or a newline before it
reaches standard output or standard error."""
import socket
import threading

import pytest

ANSWER_MAX = 65536      # cli/cli_ctl_clients.h (CLI_CTL_ANSWER_MAX)
# Enough to tell a bounded reader from one that takes all it is given,
# small enough that an unbounded one still ends (and fails) quickly.
FLOOD_BYTES = 64 << 20


class HostileServer:
    """A Unix socket server of the test's: to each connection, after its
    request line, it sends ANSWER (bytes) and closes; with flood, it sends
    'x' until the client goes away or FLOOD_BYTES are sent."""

    def __init__(self, path, answer=b'', flood=False):
        self.answer, self.flood = answer, flood
        self.requests, self.sent = [], 0
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(path))
        self.listener.listen(1)
        self.listener.settimeout(30)
        self.thread = threading.Thread(target=self.serve_one, daemon=True)
        self.thread.start()

    def serve_one(self):
        conn, _ = self.listener.accept()
        conn.settimeout(30)
        with conn:
            request = b''
            while not request.endswith(b'\n'):
                chunk = conn.recv(1024)
                if not chunk:
                    break
                request += chunk
            self.requests.append(request)
            try:
                if not self.flood:
                    conn.sendall(self.answer)
                    self.sent = len(self.answer)
                    return
                chunk = b'x' * 65536
                while self.sent < FLOOD_BYTES:
                    conn.sendall(chunk)
                    self.sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass

    def close(self):
        self.thread.join(timeout=60)
        self.listener.close()


@pytest.fixture
def hostile(tmp_path):
    servers = []

    def start(answer=b'', flood=False):
        path = tmp_path / 'hostile.sock'
        servers.append(HostileServer(path, answer, flood))
        return path
    yield start
    for server in servers:
        server.close()


def ctl(sdsi, path, *command):
    return sdsi.run('ctl', '--ctl', str(path), '--timeout', '30', *(command or ('status',)),
                    errors='surrogateescape')


def lines_of(size):
    """An ok-looking answer of exactly SIZE bytes: lines of 'x'."""
    return bytes(ord('\n') if i % 64 == 63 or i == size - 1 else ord('x')
                 for i in range(size))


def test_answer_that_exactly_fits(sdsi, hostile):
    answer = lines_of(ANSWER_MAX)
    done = ctl(sdsi, hostile(answer))
    assert done.returncode == 0, done.stderr
    assert done.stdout.encode() == answer


def test_answer_one_byte_too_long(sdsi, hostile):
    done = ctl(sdsi, hostile(lines_of(ANSWER_MAX + 1)))
    assert done.returncode == 7, done.stderr
    assert done.stdout == ''
    assert 'hostile.sock: answer longer than 65536 bytes' in done.stderr, done.stderr


def test_endless_answer_is_cut_off(sdsi, tmp_path, hostile):
    path = hostile(flood=True)
    done = ctl(sdsi, path)
    assert done.returncode == 7, done.stderr[:200]
    assert done.stdout == ''
    assert 'answer longer than 65536 bytes' in done.stderr


def test_escape_sequences_are_escaped_on_stdout(sdsi, hostile):
    # Retitle the window, clear the screen, return over the line, a NUL,
    # an 8-bit CSI and a UTF-8 C1 control: none reaches the terminal.
    answer = b'ok \x1b]0;owned\x07\x1b[2Jhidden\rshown\x00\x9b\xc2\x9b\x7f\n'
    done = ctl(sdsi, hostile(answer))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ('ok \\x1b]0;owned\\x07\\x1b[2Jhidden\\x0dshown'
                           '\\x00\\x9b\\xc2\\x9b\\x7f\n')


def test_escape_sequences_are_escaped_on_stderr(sdsi, hostile):
    done = ctl(sdsi, hostile(b'error EINVAL: \x1b[31mred\x1b[0m\tand tab\n'))
    assert done.returncode == 2, done.stderr
    assert done.stdout == ''
    assert done.stderr == 'error EINVAL: \\x1b[31mred\\x1b[0m\\x09and tab\n'


def test_our_answers_are_printed_unchanged(sdsi, hostile):
    # What our daemons send (printable ASCII, JSON's escaped slash
    # included) is not touched.
    answer = b'{"socket":0,"text":"a\\/b \\"q\\""}\n'
    done = ctl(sdsi, hostile(answer))
    assert done.returncode == 0, done.stderr
    assert done.stdout.encode() == answer


# Every errno name the control server answers with (sdsi-emu(1), "CONTROL
# SOCKET", and cli/'s replies), and the exit status docs/exit-codes.md
# gives it: the class of that errno in a program's context.  Spelt out
# here, not read from include/sdsi/errno_class.h, so that a wrong row there
# (EBUSY in EINVAL's class: exit 2) fails.
DOCUMENTED_ERRORS = [
    ('EINVAL', 2),      # a malformed command
    ('ENODEV', 3),      # no such socket
    ('EBUSY', 7),       # one connection too many
    ('EOPNOTSUPP', 7),  # a command the daemon does not serve
    ('ETIMEDOUT', 7),   # a request line not sent in time
    ('EMSGSIZE', 7),    # an answer longer than the protocol allows
]


@pytest.mark.parametrize('name,status', DOCUMENTED_ERRORS)
def test_exit_status_of_each_documented_error(sdsi, hostile, name, status):
    done = ctl(sdsi, hostile(f'error {name}: refused\n'.encode()))
    assert done.returncode == status, (name, done.returncode, done.stderr)
    assert done.stdout == ''
    assert f'error {name}: refused' in done.stderr
