# SPDX-License-Identifier: GPL-2.0-only
"""sdsi-stallmon, the kernel rig's host-stall monitor: the only evidence
on which the rig may run a configuration again, so it must see a stall
that happens, report it with its length, and refuse bad arguments.  A
stall is made for real: the monitor is stopped (SIGSTOP) for a known time,
which to its threads is exactly a CPU that did not run them."""
import os
import re
import signal
import subprocess
import time

import pytest

SUMMARY = re.compile(r'^sdsi-stallmon: cpus=(\d+) wakeups=(\d+) '
                     r'late-over-threshold=(\d+) max-late-us=(\d+) '
                     r'steal-ms=(\d+)$', re.M)
LATE = re.compile(r'^sdsi-stallmon: cpu \d+ woke (\d+) us late at monotonic '
                  r'\d+\.\d{6} s \(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z\)$',
                  re.M)


@pytest.fixture(scope='module')
def stallmon():
    path = os.path.join(os.environ.get('SDSI_BUILD', ''), 'rig',
                        'sdsi-stallmon')
    if not os.access(path, os.X_OK):
        raise pytest.UsageError(f'no sdsi-stallmon in $SDSI_BUILD ({path})')
    if os.geteuid() != 0:
        # Its watchers are SCHED_FIFO threads; CI runs as root.
        if os.environ.get('CI') == 'true':
            pytest.fail('CI must run as root: sdsi-stallmon needs SCHED_FIFO')
        pytest.skip('sdsi-stallmon needs root (SCHED_FIFO)')
    return path


def start(path, *args):
    proc = subprocess.Popen([path, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    # Its first line says the watchers run.
    line = proc.stdout.readline()
    assert line.startswith('sdsi-stallmon: watching '), line
    return proc


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0, out
    summary = SUMMARY.search(out)
    assert summary, out
    return out, [int(x) for x in summary.groups()]


def held_up(proc, running_s, stopped_s):
    """PROC left to run RUNNING_S seconds, then stopped (SIGSTOP) for
    STOPPED_S: the stall of a host that did not schedule it."""
    time.sleep(running_s)
    os.kill(proc.pid, signal.SIGSTOP)
    time.sleep(stopped_s)
    os.kill(proc.pid, signal.SIGCONT)


def test_a_stall_is_reported_with_its_length(stallmon):
    proc = start(stallmon, '--period-us', '500', '--threshold-us', '50000')
    held_up(proc, 0.3, 0.2)
    time.sleep(0.1)
    out, (cpus, wakeups, over, max_late, _) = stop(proc)
    # Every watcher slept through the stop: each reports it, 200 ms less
    # at most one period (it may have been due to wake just before).
    late = [int(x) for x in LATE.findall(out)]
    assert len(late) >= cpus, out
    assert max(late) >= 199000 and max_late == max(late), out
    assert over == len(late), out
    assert wakeups > 2 * cpus, out


def test_lateness_under_the_threshold_is_counted_not_printed(stallmon):
    proc = start(stallmon, '--period-us', '500', '--threshold-us', '60000000')
    held_up(proc, 0.2, 0.1)
    out, (_, _, over, max_late, _) = stop(proc)
    assert not LATE.findall(out) and over == 0, out
    assert max_late >= 99000, out


def test_it_stops_with_its_parent(stallmon, tmp_path):
    log = tmp_path / 'stallmon.log'
    # The shell starts it and exits at once: the monitor must not outlive it.
    subprocess.run(['sh', '-c', f'"{stallmon}" --exit-with-parent '
                    f'>"{log}" 2>&1 & sleep 0.3'], check=True, timeout=10)
    deadline = time.monotonic() + 10
    while not SUMMARY.search(log.read_text()):
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)


@pytest.mark.parametrize('args, error', [
    (['--period-us', '100'], None),
    (['--period-us', '99'], "--period-us: bad value '99'"),
    (['--period-us', '1000000'], None),
    (['--period-us', '1000001'], "--period-us: bad value '1000001'"),
    (['--threshold-us', '1'], None),
    (['--threshold-us', '0'], "--threshold-us: bad value '0'"),
    (['--threshold-us', '60000000'], None),
    (['--threshold-us', '60000001'], "--threshold-us: bad value '60000001'"),
    (['--period-us', '-500'], "--period-us: bad value '-500'"),
    (['--period-us', '500x'], "--period-us: bad value '500x'"),
    (['--period-us', '18446744073709551617'],
     "--period-us: bad value '18446744073709551617'"),
    (['--period-us'], "bad argument '--period-us'"),
    (['--no-such-option'], "bad argument '--no-such-option'"),
])
def test_arguments_are_checked_at_both_ends(stallmon, args, error):
    if error is None:
        stop(start(stallmon, *args))
    else:
        run = subprocess.run([stallmon, *args], capture_output=True,
                             text=True, timeout=10)
        assert run.returncode == 2, run
        assert f'sdsi-stallmon: {error}' in run.stderr, run.stderr
