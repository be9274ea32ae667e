# SPDX-License-Identifier: GPL-2.0-only
"""`sdsi-emu mount` as a service: its ready line names the SDSI_SYSFS_ROOT
to use; it speaks systemd's notify protocol for real (READY=1 only once
the tree is mounted, STOPPING=1 on SIGTERM) to a datagram socket of the
test's, as a Type=notify unit's manager would; a user other than root
mounts without allow_other (Debian's /etc/fuse.conf refuses it to them);
and the unit that keeps a platform mounted passes systemd-analyze verify,
is rated by systemd-analyze security as docs/packages.md says, and serves
with the one capability it keeps."""
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import textwrap

import pytest

from sdsikit.emu import mounts_under
from sdsikit.daemon import stop

BUILD = os.environ.get('SDSI_BUILD', '')
READY = re.compile(r'^sdsi-emu: (\d+) sockets? mounted at (\S+) '
                   r'\(SDSI_SYSFS_ROOT=(\S+)\); control socket (\S+)$')

# sh: wait_ready OUT PID waits (20 s at most) until the `sdsi-emu mount`
# started in the background as PID has written its ready line to OUT, or
# has ended; what follows finds out which.
WAIT_READY = textwrap.dedent('''\
    wait_ready() {
        for i in $(seq 200); do
            grep -q "mounted at" "$1" 2>/dev/null && return
            kill -0 "$2" 2>/dev/null || return
            sleep 0.1
        done
    }
    ''')


def _intel_sdsi(sdsi):
    return sdsi.beside('tools', 'intel_sdsi')


def test_ready_line_names_the_sysfs_root(sdsi, tmp_path):
    mnt = tmp_path / 'mnt'
    mnt.mkdir()
    proc = subprocess.Popen([sdsi.path, 'mount', '--sockets', '2', str(mnt)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=sdsi.env)
    try:
        line = proc.stdout.readline().rstrip('\n')
        m = READY.match(line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else '')
        assert m.group(1) == '2' and m.group(2) == str(mnt)
        root = m.group(3)
        assert root == f'{mnt}/devices'
        # Both the root the line names and the mount point find the sockets.
        for given in (root, str(mnt)):
            for how in ('option', 'env'):
                argv = [_intel_sdsi(sdsi), '-l']
                env = dict(os.environ)
                env.pop('SDSI_SYSFS_ROOT', None)
                if how == 'option':
                    argv += ['--sysfs-root', given]
                else:
                    env['SDSI_SYSFS_ROOT'] = given
                done = subprocess.run(argv, capture_output=True, text=True,
                                      timeout=30, env=env)
                assert done.returncode == 0, (given, how, done)
                assert done.stdout.split() == ['intel_vsec.sdsi.0',
                                               'intel_vsec.sdsi.1'], (given, how)
    finally:
        stop(proc)
    assert proc.returncode == 0


def _receive(sock, timeout):
    sock.settimeout(timeout)
    return sock.recv(4096).decode()


def test_notify_ready_after_mount_and_stopping_on_sigterm(sdsi, tmp_path):
    mnt = tmp_path / 'mnt'
    mnt.mkdir()
    path = str(tmp_path / 'notify.sock')
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    env = dict(sdsi.env, NOTIFY_SOCKET=path)
    proc = subprocess.Popen([sdsi.path, 'mount', str(mnt)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        ready = _receive(sock, 20)
        # Read right after READY: the tree must already be there.
        guid = (mnt / 'devices' / 'intel_vsec.sdsi.0' / 'guid').read_text()
        assert 'READY=1' in ready.split('\n'), ready
        assert guid.startswith('0x'), guid
        assert (str(mnt), 'fuse.sdsi_sysfs') in mounts_under(str(mnt))
        proc.send_signal(signal.SIGTERM)
        stopping = _receive(sock, 20)
        assert stopping.split('\n') == ['STOPPING=1'], stopping
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
    finally:
        stop(proc)
        sock.close()
    assert mounts_under(str(mnt)) == []


def test_no_notify_socket_no_message(sdsi, tmp_path):
    """Without NOTIFY_SOCKET nothing is sent, and a NOTIFY_SOCKET nobody
    listens on does not stop the mount (a message on stderr says so)."""
    mnt = tmp_path / 'mnt'
    mnt.mkdir()
    env = dict(sdsi.env, NOTIFY_SOCKET=str(tmp_path / 'nobody-listens'))
    proc = subprocess.Popen([sdsi.path, 'mount', str(mnt)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    try:
        assert READY.match(proc.stdout.readline().rstrip('\n'))
        assert (mnt / 'devices' / 'intel_vsec.sdsi.0' / 'guid').exists()
    finally:
        stop(proc)
    err = proc.stderr.read()
    assert proc.returncode == 0, err
    assert 'cannot tell the service manager' in err, err


@pytest.fixture
def fuse_for_nobody(tmp_path):
    """A private mount namespace in which /dev/fuse is open to everyone, as
    Debian's udev makes it (a container may leave it 0600): a command
    prefix.  Nothing changes outside the namespace."""
    if os.geteuid() != 0:
        pytest.skip('needs root to switch to the user nobody')
    dev = tmp_path / 'dev'
    dev.mkdir()
    script = textwrap.dedent(f'''\
        set -e
        mount -t tmpfs -o mode=755 tmpfs {dev}
        mknod -m 666 {dev}/fuse c 10 229
        mount --bind {dev}/fuse /dev/fuse
        umount -l {dev}
        exec runuser -u nobody -- "$@"
        ''')
    return ['unshare', '--mount', '--propagation', 'private',
            'sh', '-c', script, 'sh']


@pytest.fixture
def nobodys_dir():
    """A directory of nobody's, where nobody can reach it (pytest's tmp_path
    is root's alone); removed afterwards."""
    nobody = pwd.getpwnam('nobody')
    work = tempfile.mkdtemp(prefix='sdsi-nobody.')
    os.chmod(work, 0o755)
    os.chown(work, nobody.pw_uid, nobody.pw_gid)
    yield work
    shutil.rmtree(work)


def test_non_root_mounts_without_allow_other(sdsi, nobodys_dir, fuse_for_nobody):
    work = nobodys_dir
    tool = _intel_sdsi(sdsi)
    # As nobody: mount, list through the mount point, stop.
    script = WAIT_READY + textwrap.dedent(f'''\
        mkdir {work}/mnt {work}/state
        chmod 700 {work}/state
        "$1" mount --state {work}/state --sockets 2 {work}/mnt > {work}/out &
        pid=$!
        wait_ready {work}/out $pid
        cat {work}/out
        grep " {work}/mnt " /proc/self/mountinfo
        "$2" --sysfs-root {work}/mnt -l; status=$?
        kill -TERM $pid; wait $pid; echo "mount exit $?"
        exit $status
        ''')
    done = subprocess.run([*fuse_for_nobody, 'sh', '-c', script, 'sh',
                           sdsi.path, tool], capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, HOME=work))
    assert done.returncode == 0, done
    lines = done.stdout.splitlines()
    assert READY.match(lines[0]), done
    options = lines[1]
    assert 'fuse.sdsi_sysfs' in options, options
    assert 'allow_other' not in options, options
    assert lines[2:] == ['intel_vsec.sdsi.0', 'intel_vsec.sdsi.1',
                         'mount exit 0'], done


def test_systemd_unit_verifies(sdsi, tmp_path):
    """The installed unit, with ExecStart pointing at this build's
    sdsi-emu, as an instance: systemd-analyze verify finds nothing to say
    (it reads the unit only; nothing is started or written)."""
    unit = os.path.join(os.path.dirname(sdsi.path), 'systemd',
                        'sdsi-emu-mount@.service')
    with open(unit) as f:
        text = f.read()
    exec_start = re.search(r'^ExecStart=(\S+) mount --state \$\{STATE_DIRECTORY\} '
                           r'\$SDSI_EMU_OPTIONS \$\{RUNTIME_DIRECTORY\}$', text, re.M)
    assert exec_start, text
    for line in ('Type=notify', 'StateDirectory=sdsi-emu/%i',
                 'RuntimeDirectory=sdsi-emu/%i',
                 'EnvironmentFile=-/etc/sdsi-emu/%i.conf'):
        assert line in text.splitlines(), line
    instance = tmp_path / 'sdsi-emu-mount@demo.service'
    instance.write_text(text.replace(exec_start.group(1), sdsi.path))
    done = subprocess.run([shutil.which('systemd-analyze') or 'systemd-analyze',
                           'verify', '--man=no', str(instance)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == '' and done.stdout == '', done


def _unit_text(sdsi):
    unit = os.path.join(os.path.dirname(sdsi.path), 'systemd', 'sdsi-emu-mount@.service')
    with open(unit) as f:
        return f.read()


def _settings(text, key):
    return re.findall(rf'^{key}=(.*)$', text, re.M)


# The settings that would give the service a mount namespace of its own, in
# which the FUSE mount would stay (systemd turns its propagation off).
MOUNT_NAMESPACE_SETTINGS = (
    'ProtectSystem', 'ProtectHome', 'PrivateTmp', 'PrivateDevices',
    'ProtectKernelTunables', 'ProtectKernelModules', 'ProtectKernelLogs',
    'ProtectControlGroups', 'ProtectProc', 'ProcSubset', 'ReadWritePaths',
    'ReadOnlyPaths', 'InaccessiblePaths', 'TemporaryFileSystem', 'BindPaths',
    'PrivateIPC', 'MountFlags', 'RootDirectory')
# What `systemd-analyze security --offline=yes` rates the unit (docs/packages.md:
# 2.9 with systemd 252, from 9.4 before issue 25).
MOUNT_EXPOSURE_MAX = 3.0


def test_systemd_unit_exposure(tmp_path, sdsi):
    """Hardened as far as a mount in the host's namespace allows: rated at
    most 3.0 (was 9.4), with no setting that would hide the mount, and
    PrivateNetwork= kept from bringing a mount namespace (PrivateMounts=no)."""
    text = _unit_text(sdsi)
    for key in MOUNT_NAMESPACE_SETTINGS:
        assert _settings(text, key) == [], key
    assert _settings(text, 'PrivateMounts') == ['no']
    assert _settings(text, 'CapabilityBoundingSet') == ['CAP_SYS_ADMIN']
    assert _settings(text, 'DeviceAllow') == ['/dev/fuse rw']
    for key in ('NoNewPrivileges', 'PrivateNetwork', 'RestrictNamespaces'):
        assert _settings(text, key) == ['yes'], key
    instance = tmp_path / 'sdsi-emu-mount@demo.service'
    instance.write_text(text)
    done = subprocess.run([shutil.which('systemd-analyze') or 'systemd-analyze',
                           'security', '--offline=yes', str(instance)],
                          capture_output=True, text=True, timeout=120)
    found = re.search(r'Overall exposure level for \S+: (\d+\.\d+)', done.stdout)
    assert found, done
    assert float(found.group(1)) <= MOUNT_EXPOSURE_MAX, done.stdout


def test_unit_capabilities_suffice(sdsi, tmp_path):
    """`sdsi-emu mount` with only the capabilities the unit leaves root
    (CapabilityBoundingSet=) and no new privileges mounts, serves the tree
    to intel_sdsi, and unmounts on SIGTERM, leaving no mount behind."""
    bounding = ','.join('+' + c.lower().removeprefix('cap_')
                        for line in _settings(_unit_text(sdsi), 'CapabilityBoundingSet')
                        for c in line.split())
    mnt, state = tmp_path / 'mnt', tmp_path / 'state'
    mnt.mkdir()
    state.mkdir(mode=0o700)
    proc = subprocess.Popen(['setpriv', f'--bounding-set=-all,{bounding}',
                             f'--inh-caps=-all,{bounding}', '--no-new-privs',
                             sdsi.path, 'mount', '--state', str(state),
                             '--sockets', '2', str(mnt)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=sdsi.env)
    try:
        ready = proc.stdout.readline().rstrip('\n')
        assert READY.match(ready), (ready, proc.poll())
        status = open(f'/proc/{proc.pid}/status').read()
        (eff,) = re.findall(r'^CapEff:\s*(\w+)$', status, re.M)
        assert int(eff, 16) == 1 << 21, status      # CAP_SYS_ADMIN alone
        done = subprocess.run([_intel_sdsi(sdsi), '--sysfs-root', str(mnt), '-l'],
                              capture_output=True, text=True, timeout=60)
        assert done.stdout.split() == ['intel_vsec.sdsi.0', 'intel_vsec.sdsi.1'], done
    finally:
        stop(proc, unmount=str(mnt))
    assert proc.returncode == 0, proc.stderr.read()
    assert mounts_under(str(mnt)) == []


def test_quiet_silences_the_proc_modules_note(sdsi):
    """On a kernel without /proc/modules, run says lsmod cannot list
    intel_sdsi; -q silences that note and nothing else."""
    note = 'sdsi-emu: note: this kernel has no /proc/modules'
    plain = sdsi.run('run', '--', 'true')
    quiet = sdsi.run('run', '-q', '--', 'true')
    assert plain.returncode == 0 and quiet.returncode == 0, (plain, quiet)
    assert (note in plain.stderr) == (not os.path.exists('/proc/modules')), plain
    assert quiet.stderr == '', quiet
    failing = sdsi.run('run', '-q', '--state', '/proc/version', '--', 'true')
    assert failing.returncode == 2 and 'sdsi-emu: ' in failing.stderr, failing


def _fuse_conf_allows_other():
    try:
        with open('/etc/fuse.conf') as f:
            return any(line.strip() == 'user_allow_other' for line in f)
    except FileNotFoundError:
        return False


def test_non_root_allow_other_only_when_asked(sdsi, nobodys_dir, fuse_for_nobody):
    """--allow-other asks for it: a user other than root gets it only where
    /etc/fuse.conf says user_allow_other (Debian's does not), else the
    mount fails, naming allow_other."""
    work = nobodys_dir
    script = WAIT_READY + textwrap.dedent(f'''\
        mkdir {work}/mnt
        timeout 20 "$1" mount --allow-other {work}/mnt > {work}/out &
        pid=$!
        wait_ready {work}/out $pid
        grep " {work}/mnt " /proc/self/mountinfo || true
        kill -TERM $pid 2>/dev/null; wait $pid
        ''')
    done = subprocess.run([*fuse_for_nobody, 'sh', '-c', script, 'sh', sdsi.path],
                          capture_output=True, text=True, timeout=60)
    if _fuse_conf_allows_other():
        assert done.returncode == 0 and 'allow_other' in done.stdout, done
    else:
        assert done.returncode == 7, done
        assert 'and allow_other permitted to this user' in done.stderr, done
        assert 'fuse.sdsi_sysfs' not in done.stdout, done
