# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the ABI conformance suite.  It runs where the tree is
(inside `sdsi-emu run`, or later in a guest with the real driver) and reads
its configuration from the environment (sdsikit.sysfs.Context)."""
import pytest

from sdsikit import targets
from sdsikit.sysfs import Context, Socket

_CTX = Context()
NO_MAILBOX = ('the driver sees On Demand disabled here, so '
              'no file reaches the mailbox (test_files.py::'
              'test_mailbox_files_answer asserts the absent or EPERM files)')


def pytest_report_header(config):
    return (f'sdsi: abi={_CTX.abi} target={_CTX.target} root={_CTX.root} '
            f'devices={len(_CTX.device_names())}')


def pytest_generate_tests(metafunc):
    if 'dev' in metafunc.fixturenames:
        names = _CTX.device_names()
        metafunc.parametrize('dev_name', names,
                             ids=[n.rsplit('.', 1)[1] for n in names])


def _has_mailbox(name):
    return Socket(_CTX, name).on_demand


def pytest_collection_modifyitems(config, items):
    """Tests that need a working mailbox are not collected for a socket
    whose driver sees On Demand disabled: they do not apply there (the
    absent or EPERM files are asserted by test_files.py), and a skip would
    read as a test CI failed to run.  The fixtures below still refuse such a
    socket, should a test reach one after the BIOS settings changed."""
    names = _CTX.device_names()
    mailbox = {name: _has_mailbox(name) for name in names}
    keep, dropped = [], []
    for item in items:
        fixtures = item.fixturenames
        params = getattr(item, 'callspec', None)
        name = params.params.get('dev_name') if params else None
        applies = True
        if 'mailbox' in fixtures and name is not None:
            applies = mailbox[name]
        elif 'socket0' in fixtures:
            applies = bool(names) and mailbox[names[0]]
        elif item.get_closest_marker('needs_two_mailboxes'):
            applies = sum(mailbox.values()) >= 2
        (keep if applies else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def pytest_configure(config):
    config.addinivalue_line('markers', 'needs_two_mailboxes: the test needs '
                            'two sockets whose mailbox the driver uses')


@pytest.fixture(scope='session')
def ctx():
    return _CTX


@pytest.fixture(scope='session')
def target():
    return targets.load()


@pytest.fixture(scope='session', autouse=True)
def protocol_kept(ctx, target):
    """The run ends with no mailbox protocol violation on any socket: every
    access the driver made, through every test, faults included, is one
    Intel's protocol allows (docs/protocol-rules.md).  Checked once at the
    end, so a violation fails the run (an error at the last test's
    teardown) with the daemon's account of it."""
    yield
    bad = []
    for name in ctx.device_names():
        n = Socket(ctx, name).n
        count = target.violations(n)
        if count:
            bad.append(f'{name}: {count} protocol violations:\n'
                       f'{target.violation_report(n)}')
    assert not bad, '\n'.join(bad)


@pytest.fixture
def dev(ctx, dev_name):
    return Socket(ctx, dev_name)


def _reset(target, dev):
    target.clear(dev.n)
    target.set_iblock(dev.n, False)
    target.power_cycle(dev.n)


@pytest.fixture
def fresh(target, dev):
    """The socket just after a cold boot, and left that way: no fault
    armed, in-band lock off, failure counts and updates reset."""
    _reset(target, dev)
    dev.refresh()
    yield dev
    _reset(target, dev)


@pytest.fixture
def mailbox(fresh):
    """A fresh socket whose mailbox files exist and work in this
    configuration; without On Demand there is no mailbox to exercise (the
    absent or EPERM files are asserted by test_files and test_features)."""
    assert fresh.on_demand, NO_MAILBOX
    return fresh


@pytest.fixture
def socket0(ctx, target):
    """Socket 0 as `mailbox` gives it, for cases too slow to repeat on
    every socket."""
    names = ctx.device_names()
    assert names, f'no devices under {ctx.root}'
    sock = Socket(ctx, names[0])
    _reset(target, sock)
    sock.refresh()
    assert sock.on_demand, NO_MAILBOX
    yield sock
    _reset(target, sock)
