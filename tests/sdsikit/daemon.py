# SPDX-License-Identifier: GPL-2.0-only
"""The handling of a long-running sdsi-emu (or sdsi-shmem) a test started
with Popen(stderr=PIPE): waiting until what it serves appears, and
stopping it as a service manager would."""
import os
import signal
import subprocess
import time

import pytest


def stop(proc, unmount=None, timeout=20):
    """SIGTERM, then wait up to TIMEOUT seconds; one that does not end is
    killed, and a mount point UNMOUNT it then leaves is detached lazily."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        if unmount is not None:
            subprocess.run(['umount', '-l', str(unmount)])


def wait_for_tree(proc, path, timeout=20):
    """Wait until PATH exists while PROC runs.  Fails the test, with PROC's
    exit status and stderr, if PROC exits first, or saying PATH never
    appeared (PROC stopped, its stderr shown) after TIMEOUT seconds."""
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if proc.poll() is not None:
            pytest.fail(f'{proc.args[0]} exited {proc.returncode} before '
                        f'{path} appeared; its stderr: {_stderr(proc)}')
        if time.monotonic() >= deadline:
            stop(proc)
            pytest.fail(f'the tree never appeared: no {path} after '
                        f'{timeout} s; {proc.args[0]} stopped, its stderr: '
                        f'{_stderr(proc)}')
        time.sleep(0.05)


def wait_until(proc, ready, what, timeout=20):
    """Wait until ready() is true while PROC runs.  Fails the test, with
    PROC's exit status and stderr, if PROC exits first; kills and reaps PROC
    and fails saying WHAT (what never came) after TIMEOUT seconds."""
    deadline = time.monotonic() + timeout
    while not ready():
        if proc.poll() is not None:
            pytest.fail(f'{proc.args[0]} exited {proc.returncode}; its '
                        f'stderr: {_stderr(proc)}')
        if time.monotonic() >= deadline:
            proc.kill()
            proc.wait()
            pytest.fail(f'{what} within {timeout} s; {proc.args[0]} killed, '
                        f'its stderr: {_stderr(proc)}')
        time.sleep(0.01)


def _stderr(proc):
    if proc.stderr is None:
        return '(not captured)'
    return proc.stderr.read().strip() or '(empty)'
