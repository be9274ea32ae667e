# SPDX-License-Identifier: GPL-2.0-only
"""The window's path and the window's size, against a user who owns a
directory on the way and the window's owner (issue 25, item 4).

Every directory above the window must be root's or ours and closed to
others, for `sdsi-shmem --window` and `sdsi-emu mount --window` alike: a
user who owns one could swap what lies below it for a link into root's
files.  And a window file that shrinks while `sdsi-emu mount` maps it is
an error of sdsi-emu's (exit 7, a message, the tree unmounted), never a
SIGBUS that leaves a dead FUSE mount in the host's table."""
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from sdsikit.daemon import stop, wait_for_tree
from sdsikit.emu import mounts_under
from sdsikit.hostile_user import hostile_user
from sdsikit.programs import shmem_path

# Without the guard, sdsi-emu mount waits up to 10 s for a server before it
# gives up; a refusal comes at once.  30 s is room on a loaded host.
REFUSED_WITHIN_S = 30
STOPPED_WITHIN_S = 30
PRECIOUS = b'root\'s own bytes\n' * 256     # 4352 bytes, less than a window


@pytest.fixture
def planted():
    """A fresh directory under /tmp (root's, 0755) holding `root-only/`, a
    directory of root's with a file `window` of root's (mode 0600: it
    passes the window's own checks), and `users/`, owned by a user the
    test makes, in which that user has planted `swap`, a symbolic link to
    root-only.  Yields (user, base dir); all removed afterwards."""
    with hostile_user() as user:
        base = tempfile.mkdtemp(prefix='sdsi-window.')
        try:
            os.chmod(base, 0o755)
            roots = os.path.join(base, 'root-only')
            os.mkdir(roots, 0o755)
            victim = os.path.join(roots, 'window')
            with open(victim, 'wb') as f:
                f.write(PRECIOUS)
            os.chmod(victim, 0o600)
            users = os.path.join(base, 'users')
            os.mkdir(users, 0o755)
            user.give(users)
            user.run(['ln', '-s', roots, os.path.join(users, 'swap')], check=True)
            user.run(['mkdir', os.path.join(users, 'real')], check=True)
            yield user, base
        finally:
            shutil.rmtree(base)


def _untouched(base):
    victim = os.path.join(base, 'root-only', 'window')
    with open(victim, 'rb') as f:
        assert f.read() == PRECIOUS
    assert os.listdir(os.path.join(base, 'root-only')) == ['window']


def _shmem_refused(window, user):
    """sdsi-shmem --window WINDOW refused (exit 1) for a directory user owns."""
    done = subprocess.run([shmem_path(), '--window', window, '--sockets', '1'],
                          capture_output=True, text=True, timeout=REFUSED_WITHIN_S)
    assert done.returncode == 1, done
    assert f'owned by uid {user.uid}, not by root' in done.stderr, done.stderr
    return done


def test_shmem_refuses_a_window_below_a_link_another_user_planted(planted):
    user, base = planted
    window = os.path.join(base, 'users', 'swap', 'window')
    done = _shmem_refused(window, user)
    assert f'window {window}: ' in done.stderr, done.stderr
    _untouched(base)


def test_shmem_refuses_a_window_in_a_directory_another_user_owns(planted):
    """No link at all: a directory the user owns could be swapped for one
    at any time, so it is refused as such (every component)."""
    user, base = planted
    window = os.path.join(base, 'users', 'real', 'window')
    _shmem_refused(window, user)
    assert not os.path.exists(window)


def test_shmem_window_under_roots_directories_is_served(tmp_path):
    """The other side: a path of root's directories only (the test's own,
    as CI runs it) is used."""
    window = tmp_path / 'sub' / 'window'
    window.parent.mkdir()
    proc = subprocess.Popen([shmem_path(), '--window', str(window), '--sockets', '1'],
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + REFUSED_WITHIN_S
        while not (window.exists() and window.stat().st_size > 0):
            assert proc.poll() is None, proc.stderr.read()
            assert time.monotonic() < deadline, 'no window made'
            time.sleep(0.05)
    finally:
        stop(proc)


@pytest.mark.parametrize('below', ['swap', 'real'])
def test_emu_mount_refuses_a_window_below_a_directory_another_user_owns(
        sdsi, planted, tmp_path, below):
    user, base = planted
    window = os.path.join(base, 'users', below, 'window')
    mnt = tmp_path / 'mnt'
    mnt.mkdir()
    start = time.monotonic()
    done = sdsi.run('mount', '--window', window, '--sockets', '1', str(mnt),
                    timeout=REFUSED_WITHIN_S)
    # Refused by the guard (not after waiting 10 s for a server).
    assert done.returncode != 0, done
    assert f'window {window}: ' in done.stderr, done.stderr
    assert f'owned by uid {user.uid}, not by root' in done.stderr, done.stderr
    assert time.monotonic() - start < 5, 'waited for a server instead of refusing'
    assert mounts_under(str(mnt)) == []
    _untouched(base)


def test_emu_mount_refuses_a_window_that_is_a_link(sdsi, tmp_path):
    real = tmp_path / 'real'
    real.write_bytes(PRECIOUS)
    real.chmod(0o600)
    link = tmp_path / 'window'
    link.symlink_to(real)
    mnt = tmp_path / 'mnt'
    mnt.mkdir()
    done = sdsi.run('mount', '--window', str(link), '--sockets', '1', str(mnt),
                    timeout=REFUSED_WITHIN_S)
    assert done.returncode != 0, done
    assert f'window {link}: a symbolic link, not followed' in done.stderr, done.stderr
    assert mounts_under(str(mnt)) == []
    assert real.read_bytes() == PRECIOUS


def test_window_truncated_while_mapped(sdsi, tmp_path):
    """The window's owner truncates it under sdsi-emu mount: sdsi-emu
    neither dies of SIGBUS nor leaves its mount behind; it says why,
    unmounts and exits 7.  sdsi-shmem, which maps it too, is the owner's
    own business and may die of it."""
    window = tmp_path / 'window'
    shmem = subprocess.Popen([shmem_path(), '--doorbell', '--window', str(window),
                              '--sockets', '1'], stderr=subprocess.PIPE, text=True)
    mnt = tmp_path / 'mnt'
    mnt.mkdir()
    emu = subprocess.Popen([sdsi.path, 'mount', '--window', str(window), '--sockets', '1',
                            str(mnt)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=sdsi.env)
    try:
        registers = mnt / 'devices' / 'intel_vsec.sdsi.0' / 'registers'
        wait_for_tree(emu, registers)
        assert registers.read_bytes() != b'\xff' * len(registers.read_bytes())
        os.truncate(window, 0)
        # The next access to the window meets the hole: as a device gone,
        # all ones, or the mount already stopping under the reader.
        try:
            got = registers.read_bytes()
            assert got == b'\xff' * len(got), got
        except OSError:
            pass
        emu.wait(timeout=STOPPED_WITHIN_S)
    finally:
        stop(emu, unmount=str(mnt))
        stop(shmem)
        with open('/proc/self/mountinfo') as f:
            left = f' {mnt} ' in f.read()
        if left:    # the host as found, even when the test fails
            subprocess.run(['umount', '-l', str(mnt)], check=False)
    err = emu.stderr.read()
    assert emu.returncode == 7, (emu.returncode, err)    # not -SIGBUS
    assert f'window {window}: the file shrank under the mapping' in err, err
    assert f'unmounted {mnt}' in err, err
    assert not left, f'{mnt} left mounted'
    assert mounts_under(str(mnt)) == []
