# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-shmem guards what it creates as sdsi-emu does (issue 19, finding 8):
its --ctl socket is 0600 whatever the umask, in a directory closed to
others, never replaces a file that is not a socket, never takes over a
live daemon's socket; --window is never opened through a symbolic link;
--state-dir is checked and locked as sdsi-emu's --state, and an existing
--window file as well.  Both daemons refuse a trust anchor (--authority,
--root-key) that others may write to, that another user owns, or that is
a symbolic link."""
import os
import pathlib
import shutil
import socket
import subprocess
import tempfile
import time

import pytest

from sdsikit.paths import directory, linked_directory
from sdsikit.programs import shmem_path
from sdsikit.sockets import request

START_S = 20
# Exits 13 when the user nobody may not connect to the socket argv[1]; if it
# may, it sends a request that would change the platform.
NOBODY_CONNECTS = [
    'setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups',
    '/usr/bin/python3', '-c',
    'import socket, sys\n'
    's = socket.socket(socket.AF_UNIX)\n'
    'try:\n'
    '    s.connect(sys.argv[1])\n'
    'except PermissionError:\n'
    '    sys.exit(13)\n'
    's.sendall(b"iblock 0 on\\n")\n'
    'print(s.recv(100))\n']


def _start(tmp_path, *args, umask=None, window=None):
    window = window or tmp_path / 'window'
    return subprocess.Popen(
        [shmem_path(), '--window', str(window), '--sockets', '1', *args],
        stderr=subprocess.PIPE, text=True,
        preexec_fn=(lambda: os.umask(umask)) if umask is not None else None)


def _request(path, line):
    return request(path, line, START_S)


def _until_served(proc, path):
    """Wait until proc answers on its control socket at path."""
    deadline = time.monotonic() + START_S
    while True:
        assert proc.poll() is None, proc.stderr.read()
        try:
            if _request(path, 'clear 0') == b'ok\n':
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, 'sdsi-shmem never answered'
        time.sleep(0.02)


def _stop(proc):
    proc.terminate()
    _, err = proc.communicate(timeout=START_S)
    assert proc.returncode == 0, err


def _refused(proc):
    """PROC's stderr once it refused to start (exit 1).  One still running
    after START_S is killed and reaped before the test fails, so that no
    daemon outlives the test that started it."""
    try:
        _, err = proc.communicate(timeout=START_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        pytest.fail(f'sdsi-shmem did not refuse within {START_S} s: it ran '
                    f'until killed\n{err}')
    assert proc.returncode == 1, err
    return err


def test_refused_kills_a_daemon_that_does_not_refuse(tmp_path, monkeypatch):
    """The helper itself: a daemon that starts instead of refusing fails
    the test, and is not left running (killed and reaped)."""
    monkeypatch.setitem(globals(), 'START_S', 1)
    proc = _start(tmp_path)
    try:
        with pytest.raises(pytest.fail.Exception, match='did not refuse'):
            _refused(proc)
        assert proc.returncode is not None and proc.returncode < 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


@pytest.fixture
def shared_dir():
    """A fresh directory in /tmp that others may enter (0755): only the
    socket's own mode can keep them out."""
    path = tempfile.mkdtemp(prefix='sdsi-guard.')
    os.chmod(path, 0o755)
    yield path
    shutil.rmtree(path)


def test_ctl_refuses_a_regular_file(tmp_path):
    path = tmp_path / 'ctl.sock'
    path.write_text('not a socket\n')
    err = _refused(_start(tmp_path, '--ctl', str(path)))
    assert f'{path} exists and is not a socket' in err
    assert path.read_text() == 'not a socket\n'


def test_ctl_socket_is_private_under_umask_000(shared_dir):
    path = os.path.join(shared_dir, 'ctl.sock')
    proc = _start(pathlib.Path(shared_dir), '--ctl', path, umask=0)
    try:
        _until_served(proc, path)
        assert os.stat(path).st_mode & 0o777 == 0o600
        # Another user can reach the socket, but not connect to it.
        other = subprocess.run(NOBODY_CONNECTS + [path], capture_output=True, text=True,
                               timeout=START_S)
        assert other.returncode == 13, other
    finally:
        _stop(proc)
    assert not os.path.exists(path)


def test_emu_socket_is_private_under_umask_000(sdsi, shared_dir):
    """The same guard in sdsi-emu: a state directory it creates is 0700,
    and in one others may enter (0755) the socket is still 0600."""
    made = os.path.join(shared_dir, 'made')
    done = sdsi.run('run', '--quiet', '--state', made, '--', 'true',
                    preexec_fn=lambda: os.umask(0))
    assert done.returncode == 0, done.stderr
    assert os.stat(made).st_mode & 0o777 == 0o700
    done = sdsi.run('run', '--quiet', '--state', shared_dir, '--', 'sh', '-c',
                    'stat -c %a "$SDSI_EMU_CTL"; "$@" "$SDSI_EMU_CTL"; echo "nobody $?"',
                    'sh', *NOBODY_CONNECTS, preexec_fn=lambda: os.umask(0))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split('\n')[:2] == ['600', 'nobody 13'], done


def test_ctl_refuses_a_live_owner_and_replaces_a_stale_socket(tmp_path):
    path = tmp_path / 'ctl.sock'
    # A socket nobody listens on: a dead daemon's leftover, replaced.
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(path))
    stale.close()
    first = _start(tmp_path, '--ctl', str(path))
    try:
        _until_served(first, path)
        second = _start(tmp_path, '--ctl', str(path), window=tmp_path / 'window2')
        err = _refused(second)
        assert f'another sdsi-shmem is running on {path}' in err
        # The first still owns and serves its socket.
        assert _request(path, 'clear 0') == b'ok\n'
    finally:
        _stop(first)
    assert not path.exists()


@pytest.mark.parametrize('mode, who', [(0o777, 'others'), (0o770, 'its group')])
def test_ctl_directory_open_to_others_is_refused(tmp_path, mode, who):
    d = tmp_path / 'open'
    d.mkdir()
    d.chmod(mode)
    err = _refused(_start(tmp_path, '--ctl', str(d / 'ctl.sock')))
    # Named once, after the option (not "control socket control socket's").
    assert f"sdsi-shmem: --ctl: control socket's directory {d}: writable by {who}" in err
    assert not (d / 'ctl.sock').exists()


def test_ctl_directory_that_fits_is_taken(tmp_path):
    """The other side of the rule: 0755, ours, is enough."""
    d = tmp_path / 'fits'
    d.mkdir()
    d.chmod(0o755)
    proc = _start(tmp_path, '--ctl', str(d / 'ctl.sock'))
    _until_served(proc, d / 'ctl.sock')
    _stop(proc)


@pytest.mark.parametrize('length', [40, 107])
def test_ctl_socket_appears_when_it_listens(shared_dir, length):
    """The socket is bound under a staging name (PATH.PID.new) and linked
    to PATH once it listens, so a client that finds PATH is never refused;
    at 107 bytes, the most a sun_path holds, no staging name fits and PATH
    is bound directly.  Either way PATH serves, and it is the only file
    left beside the window."""
    d = pathlib.Path(shared_dir)
    path = d / ('s' * (length - len(str(d)) - 1))
    assert len(str(path)) == length
    proc = _start(d, '--ctl', str(path))
    try:
        _until_served(proc, path)
        assert sorted(p.name for p in d.iterdir()) == \
            sorted([path.name, 'window'])
    finally:
        _stop(proc)
    assert sorted(p.name for p in d.iterdir()) == ['window']


def test_window_symlink_in_a_sticky_directory_is_refused(shared_dir):
    sticky = os.path.join(shared_dir, 'sticky')
    os.mkdir(sticky)
    os.chmod(sticky, 0o1777)
    victim = os.path.join(shared_dir, 'victim')
    with open(victim, 'w') as f:
        f.write('precious')
    link = os.path.join(sticky, 'window')
    os.symlink(victim, link)
    proc = _start(pathlib.Path(shared_dir), window=link)
    err = _refused(proc)
    assert f'{link}: a symbolic link, not followed' in err
    with open(victim) as f:
        assert f.read() == 'precious'


@pytest.mark.parametrize('mode, who', [(0o777, 'others'), (0o770, 'its group')])
def test_state_dir_open_to_others_is_refused(tmp_path, mode, who):
    state = directory(tmp_path / 'state', mode)
    err = _refused(_start(tmp_path, '--state-dir', str(state)))
    assert f'state directory {state}: writable by {who}' in err
    assert list(state.iterdir()) == []


def test_state_dir_symlink_is_refused(tmp_path):
    link, real = linked_directory(tmp_path, 'state')
    err = _refused(_start(tmp_path, '--state-dir', str(link)))
    assert f'state directory {link}: not a directory (a symbolic link)' in err
    assert list(real.iterdir()) == []


def test_state_dir_private_is_used_and_locked(tmp_path):
    state = tmp_path / 'state'
    path = tmp_path / 'ctl.sock'
    first = _start(tmp_path, '--state-dir', str(state), '--ctl', str(path))
    try:
        _until_served(first, path)
        assert (state / 'socket0.nvram').exists()
        second = _start(tmp_path, '--state-dir', str(state),
                        window=tmp_path / 'window2')
        assert 'in use by another sdsi-shmem' in _refused(second)
    finally:
        _stop(first)


# --- trust anchors: both daemons, one check ----------------------------------

@pytest.mark.parametrize('loose', ['dir', 'root.pub', None])
def test_world_writable_authority_is_refused(sdsi, tmp_path, loose):
    auth = tmp_path / 'auth'
    authority = sdsi.beside('tools', 'sdsi-authority', 'sdsi-authority')
    subprocess.run([authority, 'init', str(auth)], check=True, capture_output=True)
    auth.chmod(0o755)
    if loose:
        target = auth if loose == 'dir' else auth / loose
        target.chmod(target.stat().st_mode | 0o002)
    emu = sdsi.run('run', '--authority', str(auth), '--', 'true')
    if not loose:
        assert emu.returncode == 0, emu.stderr
        return
    named = auth if loose == 'dir' else auth / loose
    assert emu.returncode == 5, emu.stderr
    assert f'--authority {named}: writable by others' in emu.stderr
    shmem = subprocess.run([shmem_path(), '--window', str(tmp_path / 'w'),
                            '--authority', str(auth)],
                           capture_output=True, text=True, timeout=START_S)
    assert shmem.returncode == 5, shmem.stderr
    assert f'--authority {named}: writable by others' in shmem.stderr
    assert not (tmp_path / 'w').exists()


def _authority(sdsi, tmp_path):
    auth = tmp_path / 'auth'
    authority = sdsi.beside('tools', 'sdsi-authority', 'sdsi-authority')
    subprocess.run([authority, 'init', str(auth)], check=True, capture_output=True)
    return auth


def _both_refuse(sdsi, tmp_path, option, path, reason):
    """sdsi-emu and sdsi-shmem refuse option path alike: status 5, reason."""
    emu = sdsi.run('run', option, str(path), '--', 'true')
    assert emu.returncode == 5, emu.stderr
    assert f'{option} {path}: {reason}' in emu.stderr
    shmem = subprocess.run([shmem_path(), '--window', str(tmp_path / 'w'),
                            option, str(path)],
                           capture_output=True, text=True, timeout=START_S)
    assert shmem.returncode == 5, shmem.stderr
    assert f'{option} {path}: {reason}' in shmem.stderr
    assert not (tmp_path / 'w').exists()


@pytest.mark.parametrize('option, target', [('--authority', 'dir'),
                                            ('--authority', 'root.pub'),
                                            ('--root-key', 'root.pub')])
def test_trust_anchor_of_another_user_is_refused(sdsi, tmp_path, option, target):
    auth = _authority(sdsi, tmp_path)
    auth.chmod(0o755)
    owned = auth if target == 'dir' else auth / target
    os.chown(owned, 65534, 65534)
    named = auth if option == '--authority' else auth / 'root.pub'
    reason = f'owned by uid 65534, not by root or uid {os.geteuid()}'
    if option == '--authority' and target == 'root.pub':
        # The directory passes; its root.pub is named in the message.
        emu = sdsi.run('run', option, str(named), '--', 'true')
        assert emu.returncode == 5, emu.stderr
        assert f'{option} {auth / target}: {reason}' in emu.stderr
        return
    _both_refuse(sdsi, tmp_path, option, named, reason)


@pytest.mark.parametrize('option', ['--authority', '--root-key'])
def test_trust_anchor_symlink_is_not_followed(sdsi, tmp_path, option):
    auth = _authority(sdsi, tmp_path)
    link = tmp_path / 'link'
    link.symlink_to(auth if option == '--authority' else auth / 'root.pub')
    _both_refuse(sdsi, tmp_path, option, link, 'a symbolic link, not followed')


# --- the attestation root beside root.pub: opened the same way ---------------

@pytest.mark.parametrize('name', ['attestation-root.pem', 'attestation-root.key'])
def test_attestation_root_symlink_is_not_followed(sdsi, tmp_path, name):
    """A link in DIR to a copy of the real file: refused, never read."""
    auth = _authority(sdsi, tmp_path)
    real = tmp_path / ('copy-' + name)
    shutil.copy2(auth / name, real)
    (auth / name).unlink()
    (auth / name).symlink_to(real)
    said = f'--authority {auth / name}: a symbolic link, not followed'
    emu = sdsi.run('run', '--authority', str(auth), '--', 'true')
    assert emu.returncode == 5, emu.stderr
    assert said in emu.stderr
    shmem = subprocess.run([shmem_path(), '--window', str(tmp_path / 'w'),
                            '--authority', str(auth)],
                           capture_output=True, text=True, timeout=START_S)
    assert shmem.returncode == 5, shmem.stderr
    assert said in shmem.stderr
    assert not (tmp_path / 'w').exists()


@pytest.mark.parametrize('name, mode, status, reason', [
    ('attestation-root.key', 0o660, 5, 'writable by its group (mode 0660)'),
    ('attestation-root.pem', 0o646, 5, 'writable by others (mode 0646)'),
    ('attestation-root.pem', 0o644, 0, None),
    ('attestation-root.key', 0o600, 0, None),
])
def test_attestation_root_open_to_others_is_refused(sdsi, tmp_path, name, mode, status,
                                                    reason):
    """Both sides: a file others may write is refused; 0644 / 0600 are taken."""
    auth = _authority(sdsi, tmp_path)
    (auth / name).chmod(mode)
    emu = sdsi.run('run', '--authority', str(auth), '--', 'true')
    assert emu.returncode == status, emu.stderr
    if reason:
        assert f'--authority {auth / name}: {reason}' in emu.stderr


@pytest.mark.parametrize('missing', ['attestation-root.pem', 'attestation-root.key'])
def test_attestation_root_half_is_refused(sdsi, tmp_path, missing):
    auth = _authority(sdsi, tmp_path)
    (auth / missing).unlink()
    other = ({'attestation-root.pem', 'attestation-root.key'} - {missing}).pop()
    emu = sdsi.run('run', '--authority', str(auth), '--', 'true')
    assert emu.returncode == 2, emu.stderr
    assert (f'--authority {auth}: {auth / other} without {auth / missing}: '
            'the attestation root needs both') in emu.stderr


def test_attestation_root_key_of_another_root_is_refused(sdsi, tmp_path):
    auth = _authority(sdsi, tmp_path)
    other = tmp_path / 'other'
    subprocess.run([sdsi.beside('tools', 'sdsi-authority', 'sdsi-authority'), 'init',
                    str(other)], check=True, capture_output=True)
    (auth / 'attestation-root.key').unlink()
    shutil.copy2(other / 'attestation-root.key', auth / 'attestation-root.key')
    emu = sdsi.run('run', '--authority', str(auth), '--', 'true')
    assert emu.returncode == 8, emu.stderr
    assert (f'attestation root: {auth / "attestation-root.key"} is not the key of '
            f'{auth / "attestation-root.pem"}') in emu.stderr


def test_authority_without_attestation_root_is_taken(sdsi, tmp_path):
    """An authority made before attestation: neither file, no identity, runs."""
    auth = _authority(sdsi, tmp_path)
    (auth / 'attestation-root.pem').unlink()
    (auth / 'attestation-root.key').unlink()
    emu = sdsi.run('run', '--authority', str(auth), '--', 'true')
    assert emu.returncode == 0, emu.stderr


def test_root_key_group_writable_is_refused(sdsi, tmp_path):
    key = _authority(sdsi, tmp_path) / 'root.pub'
    key.chmod(0o664)
    _both_refuse(sdsi, tmp_path, '--root-key', key, 'writable by its group (mode 0664)')


def test_root_key_of_its_owner_and_root_is_taken(sdsi, tmp_path):
    """The other side: 0644, owned by us (root here) or by root."""
    key = _authority(sdsi, tmp_path) / 'root.pub'
    key.chmod(0o644)
    emu = sdsi.run('run', '--root-key', str(key), '--', 'true')
    assert emu.returncode == 0, emu.stderr


# --- the window: its control page drives the platform as --ctl does -----------

@pytest.mark.parametrize('mode, owner, reason', [
    (0o666, None, 'writable by others (mode 0666)'),
    (0o620, None, 'writable by its group (mode 0620)'),
    (0o600, 65534, 'owned by uid 65534, not by root or uid'),
])
def test_window_open_to_others_is_refused(tmp_path, mode, owner, reason):
    window = tmp_path / 'window'
    window.write_bytes(b'\xa5' * 4096)
    window.chmod(mode)
    if owner is not None:
        os.chown(window, owner, owner)
    err = _refused(_start(tmp_path, window=window))
    assert f'window {window}: {reason}' in err
    assert window.read_bytes() == b'\xa5' * 4096


def test_window_of_its_owner_is_served(tmp_path):
    """The other side: an existing 0644 window of ours is used (and grown)."""
    window = tmp_path / 'window'
    window.write_bytes(b'')
    window.chmod(0o644)
    path = tmp_path / 'ctl.sock'
    proc = _start(tmp_path, '--ctl', str(path), window=window)
    try:
        _until_served(proc, path)
        assert window.stat().st_size > 0
    finally:
        _stop(proc)
