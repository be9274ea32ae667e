# SPDX-License-Identifier: GPL-2.0-only
"""The sdsi-doorbell QEMU plugin as the kernel rig loads it, in Debian's
qemu-system-x86_64 with no guest (-machine none): it must install beside
an sdsi-shmem --doorbell that serves the window, and refuse, with a message
that says why, when none does or its arguments are wrong.  Installing also
checks our own declaration of QEMU's plugin interface
(window/qemu_plugin_api.h): the plugin reads the target name and the
system-emulation flag from QEMU's info block, and refuses if they are not
what a layout that matches QEMU's would give."""
import os
import shutil
import signal
import subprocess

import pytest

from sdsikit.daemon import wait_until
from sdsikit.programs import build_of, sanitizer_preload, shmem_path
from sdsikit.targets.kernel import SLOT_SIZE, ControlPage
from sdsikit.window import window_holds

QEMU = 'qemu-system-x86_64'


def _plugin():
    path = os.path.join(build_of(os.environ.get('SDSI_EMU', '')), 'window',
                        'libsdsi-doorbell.so')
    if not os.path.isfile(path):
        raise pytest.UsageError(f'no sdsi-doorbell plugin in the build ({path})')
    return path


def _qemu():
    # The kernel rig's QEMU, which scripts/ensure-deps.sh --kernel installs
    # (.ci/run does, before make check): CI must have it.
    path = shutil.which(QEMU)
    if not path:
        why = f'{QEMU} is not installed (scripts/ensure-deps.sh --kernel)'
        if os.environ.get('CI') == 'true':
            pytest.fail(why)
        pytest.skip(why)
    return path


def _qemu_env():
    """The environment QEMU needs for the plugin of this build: under the
    sanitizers, their runtime preloaded (QEMU is not built with it), so
    that the plugin really runs under them."""
    return dict(os.environ, **sanitizer_preload(_plugin()))


def run_qemu(args):
    """QEMU with the plugin and no guest, told to quit by its monitor."""
    proc = subprocess.run(
        [_qemu(), '-machine', 'none', '-display', 'none', '-serial', 'none',
         '-monitor', 'stdio', '-plugin', ','.join([_plugin()] + args)],
        input='quit\n', capture_output=True, text=True, timeout=60,
        env=_qemu_env())
    return proc.returncode, proc.stderr


def refused_by_qemu(window, sockets, reason):
    """QEMU with the plugin on WINDOW for SOCKETS sockets fails, saying
    REASON."""
    code, err = run_qemu([f'window={window}', 'phys=0', f'sockets={sockets}'])
    assert code != 0
    assert reason in err, err


@pytest.fixture
def server(tmp_path):
    window = tmp_path / 'ram'
    proc = subprocess.Popen(
        [shmem_path(), '--doorbell',
         '--window', str(window), '--sockets', '1'],
        stderr=subprocess.PIPE, text=True)
    wait_until(proc, lambda: window_holds(window, 1), 'sdsi-shmem made no window')
    ControlPage(str(window), 1).wait_ready(20)
    yield str(window)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    # QEMU without a guest stores nothing: nothing to ring for, none missed.
    assert 'unannounced-stores=0' in err, err


def test_installs_beside_a_doorbell_server(server):
    code, err = run_qemu([f'window={server}', 'phys=0', 'sockets=1'])
    assert code == 0, err
    assert 'sdsi-doorbell: 0 rings after stores' in err, err


def test_refuses_without_a_doorbell_server(tmp_path):
    window = tmp_path / 'ram'
    window.write_bytes(bytes(2 * SLOT_SIZE))
    refused_by_qemu(window, 2, 'too short for a window of 2 sockets')
    refused_by_qemu(window, 1, 'no sdsi-shmem --doorbell with 1 sockets')


def test_socket_count_bounds(server):
    # 8 is the most the plugin takes: it then looks for an 8-socket window,
    # which a one-socket file is too short to hold (mapped, QEMU would die
    # of SIGBUS).
    refused_by_qemu(server, 8, 'too short for a window of 8 sockets')
    refused_by_qemu(server, 9, "bad argument 'sockets=9'")


@pytest.mark.parametrize('args,named', [
    (['phys=4096', 'sockets=1'], 'window=FILE'),
    (['phys=100', 'sockets=1'], "bad argument 'phys=100'"),
    (['phys=0', 'sockets=0'], "bad argument 'sockets=0'"),
    (['phys=0', 'sockets=1', 'colour=blue'], "bad argument 'colour=blue'"),
])
def test_bad_arguments_are_named(server, args, named):
    if not any(a.startswith('window=') for a in args) and \
            'window=FILE' not in named:
        args = [f'window={server}'] + args
    code, err = run_qemu(args)
    assert code != 0
    assert named in err, err
