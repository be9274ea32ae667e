# SPDX-License-Identifier: GPL-2.0-only
"""kernel/host-stall-evidence.sh, the kernel rig's only ground for running a
configuration again: a failed run whose every failure is the driver's
ETIMEDOUT, while sdsi-stallmon saw the host stall past the driver's
deadline.  Anything else must not be rerun, for a rerun turns the failed
run into one that no longer counts.  Results directories are written here
as the guest and the rig write them."""
import os
import subprocess
from xml.sax.saxutils import quoteattr

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
SCRIPT = os.path.join(REPO, 'kernel', 'host-stall-evidence.sh')

TIMEOUT_TOOL = ('AssertionError: intel_sdsi -d 0 -a akc1.bin: exit 7 '
                '(ETIMEDOUT), wanted 0')
TIMEOUT_READ = 'AssertionError: then state_certificate: ETIMEDOUT'
TIMEOUT_ERRNO = 'AssertionError: assert 110 == 5'


def stallmon_log(max_late_us):
    return ('sdsi-stallmon: watching 2 cpus every 500 us, printing wake-ups '
            '1000 us late or more\n'
            'sdsi-stallmon: cpu 1 woke 1500 us late at monotonic 12.000500 s '
            '(2026-12-03T10:00:00.000000Z)\n'
            f'sdsi-stallmon: cpus=2 wakeups=99 late-over-threshold=1 '
            f'max-late-us={max_late_us} steal-ms=10\n')


def junit(failures, passed=3):
    cases = ''.join(f'<testcase classname="conformance" name="t{i}"/>'
                    for i in range(passed))
    cases += ''.join(
        f'<testcase classname="conformance" name="f{i}"><failure message='
        f'{quoteattr(m)}>{m}</failure></testcase>'
        for i, m in enumerate(failures))
    return (f'<testsuites><testsuite name="pytest" errors="0" failures='
            f'"{len(failures)}" skipped="0" tests="{passed + len(failures)}">'
            f'{cases}</testsuite></testsuites>')


def results(tmp_path, failures, status='exit 1', late=2500, shmem_stalls=0):
    d = tmp_path / 'results-6.1'
    d.mkdir()
    if status is not None:
        (d / 'status').write_text(status + '\n')
    (d / 'conformance.xml').write_text(junit(failures))
    (d / 'tool.xml').write_text(junit([]))
    if late is not None:
        (d / 'stallmon.log').write_text(stallmon_log(late))
    (d / 'shmem.log').write_text(
        f'sdsi-shmem: deadline-stalls={shmem_stalls}\n')
    return d


def evidence(d, deadline='2000'):
    return subprocess.run([SCRIPT, str(d), deadline], capture_output=True,
                          text=True, timeout=30)


def test_timeouts_and_a_stall_past_the_deadline_allow_a_rerun(tmp_path):
    run = evidence(results(tmp_path, [TIMEOUT_TOOL, TIMEOUT_READ,
                                      TIMEOUT_ERRNO], late=2001))
    assert run.returncode == 0, run
    assert run.stdout == '2001\n'


@pytest.mark.parametrize('late, allowed', [(2000, False), (2001, True)])
def test_the_stall_must_be_longer_than_the_deadline(tmp_path, late, allowed):
    run = evidence(results(tmp_path, [TIMEOUT_TOOL], late=late))
    assert (run.returncode == 0) == allowed, run


@pytest.mark.parametrize('other', [
    'AssertionError: operations that never completed: ["x/provision_cap"]',
    'AssertionError: read: EIO, expected ETIMEDOUT',
    # A program that hung, though its output mentions a timeout.
    "subprocess.TimeoutExpired: Command '['intel_sdsi', '-d', '0']' timed "
    "out after 30 seconds (its last try: exit 7 (ETIMEDOUT))",
])
def test_one_failure_of_another_kind_forbids_it(tmp_path, other):
    run = evidence(results(tmp_path, [TIMEOUT_TOOL, other], late=30000))
    assert run.returncode == 1 and not run.stdout, run


def test_shmems_own_stall_count_is_no_evidence(tmp_path):
    run = evidence(results(tmp_path, [TIMEOUT_TOOL], late=900,
                           shmem_stalls=50))
    assert run.returncode == 1, run


@pytest.mark.parametrize('status, failures, late', [
    ('exit 0', [], 30000),               # a pass needs no rerun
    (None, [], 30000),                   # the guest did not come back,
    (None, [TIMEOUT_TOOL], 30000),       # even after timeouts
    ('exit 1', [], 30000),               # no failed test: kernel trouble
    ('fail: insmod intel_sdsi', [], 30000),
    ('exit 1', [TIMEOUT_TOOL], None),    # no monitor log at all
])
def test_no_rerun_without_all_its_grounds(tmp_path, status, failures, late):
    run = evidence(results(tmp_path, failures, status=status, late=late))
    assert run.returncode == 1, run


def test_a_monitor_killed_before_its_summary_is_no_evidence(tmp_path):
    d = results(tmp_path, [TIMEOUT_TOOL], late=30000)
    log = d / 'stallmon.log'
    log.write_text(''.join(log.read_text().splitlines(True)[:-1]))
    assert evidence(d).returncode == 1


@pytest.mark.parametrize('args', [[], ['x'], ['x', '2ms'], ['x', '1', '2']])
def test_usage(args):
    run = subprocess.run([SCRIPT, *args], capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 2 and 'usage:' in run.stderr, run
