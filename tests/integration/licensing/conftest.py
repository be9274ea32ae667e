# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the end-to-end licensing tests: an authority directory, and
emulated platforms whose root of trust is that authority's root key."""
import pytest

from sdsikit.licplatform import Authority, Platform, Programs


@pytest.fixture(scope='session')
def programs():
    p = Programs()
    missing = p.missing()
    if missing:
        raise pytest.UsageError('set SDSI_BUILD to a build directory with '
                                'sdsi-emu, intel_sdsi and sdsi-authority '
                                f'built (missing: {", ".join(missing)})')
    return p


@pytest.fixture
def authority(programs, tmp_path):
    return Authority(programs, tmp_path / 'authority')


@pytest.fixture
def other_authority(programs, tmp_path):
    """A second authority: its keys are not the ones the silicon trusts."""
    return Authority(programs, tmp_path / 'other-authority')


@pytest.fixture
def state_dir(tmp_path):
    path = tmp_path / 'state'
    path.mkdir(mode=0o700)
    return path


@pytest.fixture
def start(programs, authority, state_dir, tmp_path):
    """start(*opts) mounts a platform trusting `authority`, NVRAM in
    state_dir; every platform started is stopped at the end of the test."""
    started = []

    def _start(*opts):
        p = Platform(programs, tmp_path / f'mnt{len(started)}',
                     ['--authority', authority.dir, '--state',
                      str(state_dir), *map(str, opts)])
        started.append(p)
        return p

    yield _start
    try:
        # Provisioning that succeeded broke no rule of the mailbox on the way.
        for p in started:
            p.assert_protocol_kept()
    finally:
        for p in started:
            p.stop()
    for p in started:
        p.assert_clean_exit()


@pytest.fixture
def platform(start):
    """Two sockets, default thresholds (3) and updates (4)."""
    return start('--sockets', 2)
