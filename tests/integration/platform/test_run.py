# SPDX-License-Identifier: GPL-2.0-only
"""`sdsi-emu run`: CMD sees the tree, its exit status comes back, signals
reach it, and nothing stays mounted outside the private namespace."""
import json
import os
import shutil
import signal
import subprocess
import tempfile

import pytest

from sdsikit.emu import mounts_under
from sdsikit.daemon import wait_for_tree


@pytest.mark.parametrize('status', (0, 3))
def test_exit_status(sdsi, status):
    done = sdsi.run('run', '--', 'sh', '-c', f'exit {status}')
    assert done.returncode == status, done.stderr


def test_killed_by_signal(sdsi):
    done = sdsi.run('run', '--', 'sh', '-c', 'kill -KILL $$')
    assert done.returncode == 128 + signal.SIGKILL, done.stderr


def test_command_not_found(sdsi):
    done = sdsi.run('run', '--', '/nonexistent/command')
    assert done.returncode == 127
    assert '/nonexistent/command' in done.stderr


def test_command_sees_tree(sdsi):
    done = sdsi.inside(['--sockets', '3'], 'ls', 'env')
    assert done.returncode == 0, done.stderr
    names, env = map(json.loads, done.stdout.splitlines())
    assert names == [f'intel_vsec.sdsi.{n}' for n in range(3)]
    assert env['SDSI_EMU_CTL'] and env['SDSI_EMU_STATE']
    assert env['SDSI_EMU_CTL'] == os.path.join(env['SDSI_EMU_STATE'],
                                               'control.sock')


def watched(tmp_path):
    """Where a leaked tree would show: /sys/bus, /sys/module (intel_sdsi's
    directory), or this test's files."""
    return mounts_under('/sys/bus', '/sys/module', str(tmp_path))


def test_no_mount_outside(sdsi, tmp_path):
    before = watched(tmp_path)
    inner = tmp_path / 'mountinfo'
    release = tmp_path / 'release'
    script = (f'cat /proc/self/mountinfo > {inner}.tmp && mv {inner}.tmp '
              f'{inner}; while [ ! -e {release} ]; do sleep 0.05; done')
    proc = subprocess.Popen([sdsi.path, 'run', '--', 'sh', '-c', script],
                            stderr=subprocess.PIPE, text=True, env=sdsi.env)
    try:
        wait_for_tree(proc, inner)
        assert watched(tmp_path) == before, 'a mount leaked while CMD runs'
        inside = [line.split()[4] for line in inner.read_text().splitlines()]
        assert any(m.startswith('/sys/bus') for m in inside), inside
        assert any(m.startswith('/sys/module') for m in inside), inside
        release.touch()
        assert proc.wait(timeout=20) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert watched(tmp_path) == before, 'a mount was left after exit'


@pytest.mark.parametrize('sig', (signal.SIGINT, signal.SIGTERM,
                                 signal.SIGHUP), ids=lambda s: s.name)
def test_signal_reaches_command(sdsi, tmp_path, sig):
    before = watched(tmp_path)
    ready, got = tmp_path / 'ready', tmp_path / 'got'
    name = sig.name[3:]
    script = (f'trap "echo {name} > {got}; exit 7" {name}; touch {ready}; '
              'while :; do sleep 0.05; done')
    proc = subprocess.Popen([sdsi.path, 'run', '--', 'sh', '-c', script],
                            stderr=subprocess.PIPE, text=True, env=sdsi.env)
    try:
        wait_for_tree(proc, ready)
        proc.send_signal(sig)
        assert proc.wait(timeout=20) == 7, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert got.read_text() == f'{name}\n'
    assert watched(tmp_path) == before


def test_not_root(sdsi):
    """run needs root (a mount namespace and a FUSE mount): as nobody it
    must fail with a message, not half-start.  nobody runs a copy of the
    binary in a directory it can reach (the build directory may sit under
    a private home), and the marker goes where nobody could write it, so
    that only the missing tree can keep CMD from running."""
    shared = tempfile.mkdtemp(prefix='sdsi-nobody.', dir='/tmp')
    try:
        os.chmod(shared, 0o777)
        binary = os.path.join(shared, 'sdsi-emu')
        shutil.copy(sdsi.path, binary)
        os.chmod(binary, 0o755)
        nobody = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']
        probe = subprocess.run([*nobody, binary, '--help'], capture_output=True,
                               text=True)
        assert probe.returncode == 0, f'nobody cannot execute {binary}: {probe}'
        marker = os.path.join(shared, 'ran')
        done = subprocess.run([*nobody, binary, 'run', '--', 'touch', marker],
                              capture_output=True, text=True, timeout=30,
                              env=dict(sdsi.env, TMPDIR='/tmp'))
        assert done.returncode == 4, done   # permission (docs/exit-codes.md)
        assert done.stderr.strip(), 'no message'
        assert not os.path.exists(marker), 'CMD ran without the emulated tree'
    finally:
        shutil.rmtree(shared)
