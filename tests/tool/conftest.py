# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures and hooks of the intel_sdsi tests: a sysfs-shaped tree in a
temporary directory (abi_bytes), intel_sdsi run against it (tool_runs), an
authority of sdsi-authority's and a directory of its CAPs; and, in every
run's log, which promtool judged the --format prometheus output."""
import shutil

import pytest

from abi_bytes import FakeSysfs
from authority import Authority
from fleet_steps import PPINS
from tool_runs import promtool_line, run_tool


# In the header, and (as -q hides the header) before the closing line.
def pytest_report_header(config):
    return promtool_line()


def pytest_terminal_summary(terminalreporter):
    if terminalreporter.verbosity < 0:
        terminalreporter.write_line(promtool_line())


@pytest.fixture
def sysfs(tmp_path):
    root = tmp_path / "devices"
    root.mkdir()
    return FakeSysfs(str(root))


@pytest.fixture
def tool():
    return run_tool


@pytest.fixture(scope="module")
def authority(tmp_path_factory):
    """A directory of sdsi-authority's, one per test module."""
    return Authority(str(tmp_path_factory.mktemp("authority")))


@pytest.fixture
def caps(authority, tmp_path):
    """A CAP directory with one CAP for each of the four sockets, in file
    name order a to d: nothing left over, so a complete run exits 0."""
    d = tmp_path / "caps"
    d.mkdir()
    shutil.copy(authority.cap(PPINS[0], license_id=0xA0), d / "a-socket0.cap")
    shutil.copy(authority.cap(PPINS[1], license_id=0xB1, features=("SGX1",)),
                d / "b-socket1.cap")
    shutil.copy(authority.cap(PPINS[2], license_id=0xC2, metered=True), d / "c-socket2.cap")
    shutil.copy(authority.cap(PPINS[3], license_id=0xD3), d / "d-socket3.cap")
    return str(d)
