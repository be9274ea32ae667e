# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-emu and sdsi-shmem share one front end (cli/): the same
options with the same limits, and one control-command table, so the two
daemons answer the same request the same way.  Each limit is tried on both
sides (the exact fit and one too many), on both daemons.  Also here: ctl
without a command, ctl's timeout, and the control loop out of file
descriptors."""
import json
import os
import resource
import signal
import socket
import subprocess
import threading
import time

import pytest

from sdsikit.daemon import stop, wait_until
from sdsikit.emu import start_mount
from sdsikit.programs import shmem_path
from sdsikit.sockets import request

SOCKETS = 2
WITHIN_S = 30
CLIENTS_MAX = 32        # cli/cli_ctl_clients.h (CLI_CTL_CLIENTS_MAX)
COMMANDS = ('status', 'power-cycle', 'fault', 'clear', 'unbind', 'bind',
            'features', 'iblock', 'advance')


# --- the shared options ------------------------------------------------------

def emu_accepts(sdsi, *opts):
    # --help after the options: they are parsed (and refused) first.
    return sdsi.run('run', *opts, '--help').returncode


def shmem_accepts(*opts):
    return subprocess.run([shmem_path(), *opts, '--help'],
                          capture_output=True, timeout=WITHIN_S).returncode


LIMITS = [
    # (option, the last value that fits, the first one too many)
    ('--sockets', '16', '17'),
    ('--sockets', '1', '0'),
    ('--akc-threshold', '7', '8'),
    ('--akc-threshold', '1', '0'),
    ('--cap-threshold', '7', '8'),
    ('--cap-threshold', '1', '0'),
    ('--updates', '7', '8'),
    ('--updates', '1', '0'),
    ('--features', '0x4001008', '0x4001009'),
    ('--features', 'metering', 'turbo'),
    ('--guid', 'v1', 'v3'),
    ('--nvram-endurance', '4294967295', '4294967296'),
    ('--nvram-endurance', '1', '0'),
    ('--rdy-latency-us', '4294967295', '4294967296'),
    ('--ppin', '1', '0'),
]


@pytest.mark.parametrize('opt,fits,too_many', LIMITS,
                         ids=[f'{o}={f}/{t}' for o, f, t in LIMITS])
def test_same_option_limits(sdsi, opt, fits, too_many):
    assert emu_accepts(sdsi, opt, fits) == 0
    assert shmem_accepts(opt, fits) == 0
    assert emu_accepts(sdsi, opt, too_many) == 2
    assert shmem_accepts(opt, too_many) == 2


def test_state_dir_is_state_in_both(sdsi, tmp_path):
    """One spelling chosen (--state), the other (--state-dir) still taken."""
    for opt in ('--state', '--state-dir'):
        assert emu_accepts(sdsi, opt, str(tmp_path)) == 0
        assert shmem_accepts(opt, str(tmp_path)) == 0


def test_authority_and_root_key_exclude_each_other(sdsi, tmp_path):
    both = ('--authority', str(tmp_path), '--root-key', str(tmp_path / 'k'))
    assert sdsi.run('run', *both, '--', 'true').returncode == 2
    done = subprocess.run([shmem_path(), '--window', str(tmp_path / 'w'),
                           *both], capture_output=True, timeout=WITHIN_S)
    assert done.returncode == 2


# --- the same commands, the same answers -------------------------------------

@pytest.fixture
def daemons(sdsi, tmp_path):
    """sdsi-emu mount and sdsi-shmem --ctl, SOCKETS sockets each.  Both
    are stopped and reaped whatever happens: a daemon that did not come up
    in time, or did not stop on SIGTERM, is killed, not left running."""
    emu_dir, shmem_dir = tmp_path / 'emu', tmp_path / 'shmem'
    emu_dir.mkdir()
    shmem_dir.mkdir()
    proc, mnt, state = start_mount(sdsi, emu_dir, SOCKETS)
    shmem = None
    try:
        ctl = shmem_dir / 'ctl.sock'
        shmem = subprocess.Popen([shmem_path(), '--window',
                                  str(shmem_dir / 'window'), '--sockets',
                                  str(SOCKETS), '--ctl', str(ctl)],
                                 stderr=subprocess.PIPE, text=True)
        # The file appears at bind(), before listen(): wait for an answer.
        wait_until(shmem, lambda: ctl.exists() and answers(ctl),
                   'sdsi-shmem made no socket')
        yield state / 'control.sock', ctl
        shmem.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGTERM)
        assert shmem.wait(timeout=20) == 0
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
    finally:
        if shmem is not None:
            stop(shmem)
        stop(proc, unmount=mnt)


def answers(path):
    try:
        return ask(path, 'status 0').startswith('{')
    except ConnectionRefusedError:
        return False


def ask(path, line):
    return request(path, line, WITHIN_S).decode()


def reason(answer):
    """The error's message without the errno sdsi-emu spells out."""
    assert answer.startswith('error'), answer
    return answer.split(':', 1)[1].strip()


WORDS_MAX = 16     # cli/cli_ctl.h CLI_CTL_MAX_WORDS
REQUESTS = [
    # (request, True if it is carried out)
    ('iblock 1 on', True),
    ('iblock 1 off', True),
    (f'iblock {SOCKETS - 1} off', True),    # the last socket
    (f'iblock {SOCKETS} on', False),          # one socket too many
    ('iblock all on', True),
    ('iblock 1 maybe', False),
    ('iblock 1', False),
    ('power-cycle 0', True),
    ('power-cycle 0 now', False),
    ('fault 0 no-rdy --count 4294967295 --param 4294967295', True),
    ('fault 0 no-rdy --count 4294967296', False),
    ('fault 0 no-rdy --param 4294967296', False),
    ('fault 0 no-rdy --bogus 1', False),
    ('fault 0 no-such-fault', False),
    ('fault 0 no-rdy 2 0', True),             # sdsi-shmem's old form
    ('fault 0 no-such-fault 0 0', False),
    ('clear 0 no-rdy', True),
    ('clear all', True),
    ('clear 0 no-such-fault', False),
    ('features 0 0x4001008', True),
    ('features 0 on-demand,metering', True),
    ('features 0 0x4001009', False),           # a bit the model has not
    ('features 0 turbo', False),
    ('features 0 none', True),
    ('status', True),
    (f'status {SOCKETS - 1}', True),
    (f'status {SOCKETS}', False),
    ('status 0 1', False),
    ('clear 0' + ' x' * (WORDS_MAX - 2), False),      # usage: 16 words fit
    ('clear 0' + ' x' * (WORDS_MAX - 1), False),      # 17: too many
]


@pytest.mark.parametrize('line,done', REQUESTS, ids=[r for r, _ in REQUESTS])
def test_same_answer(daemons, line, done):
    emu_ctl, shmem_ctl = daemons
    emu, shmem = ask(emu_ctl, line), ask(shmem_ctl, line)
    if not done:
        assert reason(emu) == reason(shmem), (emu, shmem)
        assert shmem.startswith('error: ')
        return
    if line.startswith('status'):
        emu_json = [json.loads(x) for x in emu.splitlines()]
        shmem_json = [json.loads(x) for x in shmem.splitlines()]
        for e in emu_json:
            del e['bound'], e['ppin']      # no driver to bind; own PPINs
        for s in shmem_json:
            del s['ppin']
        assert emu_json == shmem_json
        return
    assert emu.startswith('ok '), emu
    assert shmem == 'ok\n', shmem


def test_word_limit_told_apart(daemons):
    """16 words are parsed (a usage error); 17 are too many, in both."""
    for path in daemons:
        assert 'usage: clear' in ask(path, 'clear 0' + ' x' * (WORDS_MAX - 2))
        assert 'too many words' in ask(path, 'clear 0' + ' x' * (WORDS_MAX - 1))


def test_errors_carry_the_errno_in_emu(daemons):
    emu_ctl, _ = daemons
    assert ask(emu_ctl, f'iblock {SOCKETS} on').startswith('error ENODEV: ')
    assert ask(emu_ctl, 'iblock 1 maybe').startswith('error EINVAL: ')


def test_commands_shmem_cannot_serve(daemons):
    """Same grammar: parsed as in sdsi-emu, then refused by name."""
    emu_ctl, shmem_ctl = daemons
    for line in ('unbind 1', 'bind 1', 'advance 0 60'):
        assert ask(emu_ctl, line).startswith('ok '), line
        word = line.split()[0]
        assert ask(shmem_ctl, line) == \
            f'error: {word}: not served by sdsi-shmem\n'
    assert reason(ask(emu_ctl, 'advance 0 315360001')) == \
        reason(ask(shmem_ctl, 'advance 0 315360001'))


def test_unknown_command(daemons):
    """Each daemon keeps the wording its clients match."""
    emu_ctl, shmem_ctl = daemons
    assert ask(emu_ctl, 'reboot 0').startswith('error EINVAL: unknown command')
    assert ask(shmem_ctl, 'reboot 0') == "error: unknown request 'reboot'\n"


# --- ctl ---------------------------------------------------------------------

def test_ctl_without_command_lists_them(sdsi):
    done = sdsi.run('ctl')
    assert done.returncode == 2, done
    for name in COMMANDS:
        assert f'  {name} ' in done.stderr, name


def test_ctl_unknown_command_is_a_usage_error(sdsi, tmp_path):
    sdsi.env['SDSI_EMU_CTL'] = str(tmp_path / 'control.sock')
    done = sdsi.run('ctl', 'reboot', '0')
    assert done.returncode == 2, done
    assert "unknown command 'reboot'" in done.stderr
    assert '  power-cycle ' in done.stderr


@pytest.fixture
def silent_server(tmp_path):
    """A control socket that takes connections and never answers."""
    path = tmp_path / 'silent.sock'
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(str(path))
    srv.listen(8)
    held, stop = [], threading.Event()

    def serve():
        srv.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(srv.accept()[0])
            except socket.timeout:
                pass
    t = threading.Thread(target=serve)
    t.start()
    yield path
    stop.set()
    t.join()
    for c in held:
        c.close()
    srv.close()


def test_ctl_gives_up_after_its_timeout(sdsi, silent_server):
    start = time.monotonic()
    done = sdsi.run('ctl', '--ctl', str(silent_server), '--timeout', '1',
                    'status', timeout=WITHIN_S)
    took = time.monotonic() - start
    assert done.returncode == 7, done          # I/O: no answer in time
    assert 'within 1 s' in done.stderr, done
    assert took < 10, took


@pytest.mark.parametrize('value,status', [('1', 3), ('3600', 3),
                                          ('0', 2), ('3601', 2), ('x', 2)])
def test_ctl_timeout_limits(sdsi, tmp_path, value, status):
    """In range, ctl goes on to find no emulator (3); out of it, usage (2)."""
    done = sdsi.run('ctl', '--ctl', str(tmp_path / 'none.sock'),
                    f'--timeout={value}', 'status')
    assert done.returncode == status, done


# --- the control loop out of file descriptors --------------------------------

def cpu_seconds(pid):
    with open(f'/proc/{pid}/stat') as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def test_no_spin_out_of_file_descriptors(sdsi, tmp_path):
    proc, _, state = start_mount(sdsi, tmp_path, 1)
    path = state / 'control.sock'
    try:
        # Room for exactly CLIENTS_MAX connections (poll() needs the limit
        # above its descriptor count too); a few more wait on EMFILE.
        used = len(os.listdir(f'/proc/{proc.pid}/fd'))
        soft, hard = resource.prlimit(proc.pid, resource.RLIMIT_NOFILE)
        resource.prlimit(proc.pid, resource.RLIMIT_NOFILE,
                         (used + CLIENTS_MAX, hard))
        waiting = []
        for _ in range(CLIENTS_MAX + 4):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.settimeout(WITHIN_S)
            s.connect(str(path))
            waiting.append(s)
        time.sleep(0.3)
        assert len(os.listdir(f'/proc/{proc.pid}/fd')) == used + CLIENTS_MAX
        # Within the connections' 5 s idle limit, nothing moves on its own.
        before = cpu_seconds(proc.pid)
        time.sleep(2)
        spent = cpu_seconds(proc.pid) - before
        # A spinning loop burns the whole 2 s of a core.
        assert spent < 0.5, f'{spent:.2f} s of CPU in 2 s while out of fds'
        for s in waiting:
            s.close()
        resource.prlimit(proc.pid, resource.RLIMIT_NOFILE, (soft, hard))
        done = sdsi.run('ctl', 'status', timeout=WITHIN_S)
        assert done.returncode == 0, done
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
