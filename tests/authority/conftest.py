# SPDX-License-Identifier: GPL-2.0-only
"""Fixtures of the sdsi-authority tests: the built command, checked before
any test runs, and an initialised authority (authority_files.py has the
rest they share)."""
import os

import pytest

from authority_files import AUTHORITY, BUILD_DIR, EXIT_OK, run


def pytest_configure(config):
    if not (BUILD_DIR and os.access(AUTHORITY, os.X_OK)):
        raise pytest.UsageError(
            "set SDSI_BUILD_DIR to a build directory with tools/sdsi-authority/sdsi-authority "
            "(scripts/run-authority-tests.sh BUILD_DIR does)")


@pytest.fixture
def authority(tmp_path):
    """An initialised authority directory."""
    d = tmp_path / "authority"
    r = run("init", d)
    assert r.returncode == EXIT_OK, r.stderr
    return d
