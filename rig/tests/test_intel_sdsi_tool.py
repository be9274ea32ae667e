# SPDX-License-Identifier: GPL-2.0-only
"""intel_sdsi end to end against a real kernel driver (run in the guest
by rig/guest-run.sh): list, info, state and meter read through the
kernel's sysfs files.  Provisioning is in test_provisioning.py, faults
in test_tool_faults.py."""
import json
import os

import pytest

from guest import ABI, ROOT, SOCKETS, Tool, driver_sees_metering

tool = Tool()


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


@pytest.mark.mailbox
@pytest.mark.parametrize('n', range(SOCKETS))
def test_state(n):
    done = tool('-d', str(n), '-s')
    assert done.returncode == 0, done.stderr
    assert 'Content Type' in done.stdout


@pytest.mark.mailbox
def test_meter_where_present():
    has_meter = os.path.exists(os.path.join(ROOT, 'intel_vsec.sdsi.0',
                                            'meter_certificate'))
    done = tool('-d', '0', '-m')
    if has_meter:
        assert done.returncode == 0, done.stderr
        assert 'MTDB' in done.stdout
    else:
        # The current driver hides them only from a part without metering
        # (a V1 part's default features).
        assert ABI == 'early' or not driver_sees_metering(0), \
            'the current driver has meter files where metering is enabled'
        assert done.returncode != 0


@pytest.mark.no_mailbox
@pytest.mark.parametrize('n', range(SOCKETS))
def test_certificates_refused_without_on_demand(n):
    """Where the driver sees On Demand disabled, intel_sdsi refuses to read
    a certificate (exit 5) with the driver's own answer, EPERM."""
    for flag in ('-s', '-m'):
        done = tool('-d', n, flag, '--json')
        assert done.returncode == 5, (flag, done.returncode, done.stderr)
        assert json.loads(done.stdout)['error']['name'] == 'EPERM'
