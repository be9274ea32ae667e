# SPDX-License-Identifier: GPL-2.0-only
"""Shared by every pytest suite under tests/ (pytest loads the conftest.py
of each parent directory of the tests it runs).

Under CI (CI=true in the environment) a skipped test is a failed test.  CI
is a fresh Debian 12 machine, as root, with /dev/fuse and every package of
scripts/ensure-deps.sh (.ci/run makes sure of all three), so each skip
condition of these suites (no root, no FUSE, no sdsi-emu, no man) is one CI
can meet: a skip there would hide a test that did not run.  On a
developer's machine the same skips stay skips and pytest names them."""
import os

import pytest


def under_ci():
    return os.environ.get('CI') == 'true'


def _skip_reason(report):
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return longrepr[2]
    return str(longrepr)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    # xfail reports are skips too: they carry wasxfail and stay as they are.
    if not under_ci() or not report.skipped or hasattr(report, 'wasxfail'):
        return
    report.outcome = 'failed'
    report.longrepr = (f'{item.nodeid}: skipped under CI=true ('
                       f'{_skip_reason(report)}); CI provides root, /dev/fuse '
                       'and every package, so this skip is a test not run')
