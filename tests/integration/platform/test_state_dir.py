# SPDX-License-Identifier: GPL-2.0-only
"""The state directory: every directory above it must be trusted (owned by
root or us, writable by no one else unless root-owned and sticky, as
OpenSSH's StrictModes wants), it is locked against a second emulator, and
under that lock the temporary NVRAM files a crash left behind are removed."""
import json
import os
import shutil
import signal
import subprocess
import tempfile

import pytest

from sdsikit.daemon import wait_for_tree

NOBODY = 65534


def ran(done):
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def directory(path, mode=0o755, uid=0):
    path.mkdir()
    os.chmod(path, mode)        # mkdir's mode is filtered by the umask
    os.chown(path, uid, 0)
    return path


def refused(sdsi, state, env=None):
    """Start with --state state (or none, when state is None): it must fail
    and create nothing; returns the message."""
    if env:
        sdsi.env.update(env)
    opts = ['--state', str(state)] if state else []
    done = sdsi.run('run', *opts, '--', 'true')
    # A state directory open to others: permission (4, docs/exit-codes.md).
    assert done.returncode == 4, done
    if state:
        assert not os.path.lexists(state), 'created under an untrusted parent'
    return done.stderr


def accepted(sdsi, state):
    regs, = ran(sdsi.inside(['--state', str(state)], 'regs:0'))
    assert regs['ppin']
    assert os.listdir(state) == ['socket0.nvram']


# parent's (mode, owner) -> what the refusal must say about it
UNTRUSTED = {
    'owned-by-another-user': (0o755, NOBODY, f'is owned by uid {NOBODY}, not by root or uid 0'),
    'writable-by-others': (0o777, 0, 'is writable by others (mode 0777)'),
    'writable-by-group': (0o775, 0, 'is writable by its group (mode 0775)'),
    'sticky-but-not-root': (0o1777, NOBODY, f'is owned by uid {NOBODY}'),
}


@pytest.mark.parametrize('case', UNTRUSTED)
@pytest.mark.parametrize('depth', ['parent', 'grandparent'])
def test_untrusted_component_refused(sdsi, tmp_path, case, depth):
    mode, uid, reason = UNTRUSTED[case]
    bad = directory(tmp_path / 'x', mode, uid)
    parent = bad if depth == 'parent' else directory(bad / 'y')
    stderr = refused(sdsi, parent / 'st')
    # paths/'s wording: the component named once when it is the path itself.
    assert f"state directory's parent {parent}: " in stderr, stderr
    assert f"{bad}" in stderr and reason.removeprefix('is ') in stderr, stderr


def test_untrusted_component_behind_a_symlink_refused(sdsi, tmp_path):
    """The path is judged as it resolves, not as it is spelt."""
    bad = directory(tmp_path / 'theirs', 0o755, NOBODY)
    os.symlink(bad, tmp_path / 'link')
    stderr = refused(sdsi, tmp_path / 'link' / 'st')
    assert f'{bad}: owned by uid {NOBODY}' in stderr, stderr


def test_untrusted_tmpdir_refused(sdsi, tmp_path):
    bad = directory(tmp_path / 'tmp', 0o777)
    stderr = refused(sdsi, None, env={'TMPDIR': str(bad)})
    assert f'temporary directory {bad}: writable by others' in stderr, stderr
    assert os.listdir(bad) == []


def test_sticky_root_directory_and_own_nesting_accepted(sdsi, tmp_path):
    # A root-owned sticky directory that anyone may write to, like /tmp.
    accepted(sdsi, directory(tmp_path / 'shared', 0o1777) / 'st')
    # A nested path of our own, relative and with a trailing slash.
    nested = directory(directory(directory(tmp_path / 'a') / 'b') / 'c')
    done = subprocess.run([sdsi.path, 'run', '--state', 'st/', '--', 'true'],
                          cwd=nested, env=sdsi.env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert os.listdir(nested / 'st') == ['socket0.nvram']


def test_fresh_mkdtemp_under_tmp_accepted(sdsi):
    made = tempfile.mkdtemp(prefix='sdsi-state-', dir='/tmp')
    try:
        accepted(sdsi, made)
    finally:
        shutil.rmtree(made)


def test_state_directory_itself_still_checked(sdsi, tmp_path):
    """The rules for the directory itself are unchanged: ours, closed."""
    theirs = directory(tmp_path / 'theirs', 0o700, NOBODY)
    done = sdsi.run('run', '--state', str(theirs), '--', 'true')
    assert done.returncode == 4
    assert f'state directory {theirs}: owned by uid {NOBODY}' in done.stderr
    os.symlink(tmp_path / 'real', tmp_path / 'link')
    directory(tmp_path / 'real', 0o700)
    done = sdsi.run('run', '--state', str(tmp_path / 'link'), '--', 'true')
    assert done.returncode == 2     # not a directory: a usage error
    assert 'not a directory (a symbolic link)' in done.stderr


# Temporary files of an interrupted NVRAM update: socket<N>.nvram.tmp.XXXXXX
STALE = ['socket0.nvram.tmp.Ab12Cd', 'socket12.nvram.tmp.zzzzzz']
# Names or kinds outside that pattern, which are not ours to remove.
NOT_OURS = ['socket0.nvram.tmp.Ab12C', 'socket0.nvram.tmp.Ab12Cde',
            'socketX.nvram.tmp.Ab12Cd', 'socket0.nvram.tmp.Ab-2Cd',
            'notes.txt', 'socket0.nvram.tmp.FIFO00', 'socket0.nvram.tmp.DIR000',
            'socket0.nvram.tmp.LINK00']


def leave_debris(state):
    for name in STALE + NOT_OURS[:5]:
        (state / name).write_bytes(b'half an update')
    os.mkfifo(state / 'socket0.nvram.tmp.FIFO00')
    (state / 'socket0.nvram.tmp.DIR000').mkdir()
    os.symlink(state / 'notes.txt', state / 'socket0.nvram.tmp.LINK00')


def test_stale_temporaries_removed(sdsi, tmp_path):
    state = directory(tmp_path / 'state', 0o700)
    ran(sdsi.inside(['--state', str(state)], 'regs:0'))
    leave_debris(state)
    done = sdsi.inside(['--state', str(state)], 'regs:0')
    ran(done)
    assert sorted(os.listdir(state)) == sorted(NOT_OURS + ['socket0.nvram'])
    for name in STALE:
        assert f'removed {state}/{name}' in done.stderr, done.stderr


def test_second_emulator_refused_and_touches_nothing(sdsi, tmp_path):
    state, mnt = directory(tmp_path / 'state', 0o700), directory(tmp_path / 'mnt')
    first = subprocess.Popen([sdsi.path, 'mount', '--state', str(state), str(mnt)],
                             stderr=subprocess.PIPE, text=True, env=sdsi.env)
    try:
        wait_for_tree(first, mnt / 'devices')
        # What the first one may be writing at this very moment.
        in_flight = state / STALE[0]
        in_flight.write_bytes(b'being written')
        done = sdsi.run('run', '--state', str(state), '--', 'true')
        # Another emulator serves the directory: refused (5).
        assert done.returncode == 5, done
        assert f'state directory {state}: in use by another sdsi-emu' in done.stderr
        assert in_flight.exists(), "the second emulator removed the first one's file"
        in_flight.unlink()
    finally:
        first.send_signal(signal.SIGTERM)
        assert first.wait(timeout=20) == 0, first.stderr.read()
    # Once the first has gone, the directory is free again.
    ran(sdsi.inside(['--state', str(state)], 'regs:0'))
