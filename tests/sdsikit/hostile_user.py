# SPDX-License-Identifier: GPL-2.0-only
"""A hostile local user for the tests of issue 25: made by the test with
useradd (a system user without home or login), removed with userdel when
the test ends, whatever its outcome.  Root is needed, as CI runs; without
it the tests that need another user fail rather than skip."""
import contextlib
import os
import pwd
import secrets
import subprocess

import pytest


class HostileUser:
    def __init__(self, name):
        entry = pwd.getpwnam(name)
        self.name = name
        self.uid = entry.pw_uid
        self.gid = entry.pw_gid

    def run(self, argv, **kwargs):
        """argv run as this user (real and effective ids, no groups)."""
        return subprocess.run(['setpriv', f'--reuid={self.uid}', f'--regid={self.gid}',
                               '--clear-groups', *argv], **kwargs)

    def popen(self, argv, **kwargs):
        return subprocess.Popen(['setpriv', f'--reuid={self.uid}', f'--regid={self.gid}',
                                 '--clear-groups', *argv], **kwargs)

    def give(self, path):
        """PATH and everything below it made this user's (links themselves
        included), as if they had made them."""
        os.lchown(path, self.uid, self.gid)
        if os.path.isdir(path) and not os.path.islink(path):
            for top, dirs, files in os.walk(path):
                for name in dirs + files:
                    os.lchown(os.path.join(top, name), self.uid, self.gid)


@contextlib.contextmanager
def hostile_user():
    """Yields a HostileUser that exists only for the with block."""
    if os.geteuid() != 0:
        raise AssertionError('making a hostile user needs root (useradd), as CI runs')
    name = 'sdsi-h' + secrets.token_hex(4)
    subprocess.run(['useradd', '--system', '--no-create-home', '--shell', '/usr/sbin/nologin',
                    '--user-group', name], check=True, capture_output=True)
    try:
        yield HostileUser(name)
    finally:
        subprocess.run(['userdel', name], check=False, capture_output=True)


@contextlib.contextmanager
def playground():
    """A directory under /tmp that root owns (0755), so that a hostile user
    can reach what the test gives them below it; removed afterwards."""
    import shutil
    import tempfile
    path = tempfile.mkdtemp(prefix='sdsi-hostile.', dir='/tmp')
    os.chmod(path, 0o755)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


# The fixtures of the suites that need them, imported by name into each
# test module (pytest finds a fixture in the module's namespace).
@pytest.fixture
def attacker():
    """A hostile user for one test."""
    with hostile_user() as user:
        yield user


@pytest.fixture
def ground():
    """A playground for one test."""
    with playground() as path:
        yield path
